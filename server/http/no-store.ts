import type { FastifyInstance } from 'fastify';

/** Where the API answers: REST under /api, GraphQL at /graphql. */
const API_PATH = /^\/(api(\/|$|\?)|graphql(\/|$|\?))/;

/**
 * Every API answer may carry personal data (users, contacts, conversations) or a token: no
 * browser, proxy or shared cache may keep it (`Cache-Control: no-store`). A route that set its
 * own Cache-Control keeps it. The console's files and /files/* are outside this rule (their own
 * caching: serve-console.ts, file-routes.ts).
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (API_PATH.test(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
