import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A 405 answer for a method the path does not serve (method-not-allowed.ts): no operation of its own. */
    methodNotAllowed?: boolean;
  }
}

/** Methods a 405 is answered for; OPTIONS stays with CORS, HEAD comes with every GET. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Unsupported methods on known paths answer 405 with `Allow` (RFC 9110), not Fastify's 404: call
 * before any route is added, and the returned function once they all are. Only paths some route
 * serves get a 405; unknown paths stay with the not-found handler, and catch-alls (`*`, `/*`:
 * the console's static files) are left out so they never hide a 404.
 */
export function trackMethodsForNotAllowed(app: FastifyInstance): () => void {
  // Keyed by the path's shape: /api/settings/:id and /api/settings/:keyOrId are one path to the router.
  const methodsByUrl = new Map<string, { url: string; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    if (route.config?.methodNotAllowed) return;
    const url = route.url ?? route.path;
    if (!url || url === '*' || url === '/*') return;
    const shape = url.replace(/:[^/]+/g, ':');
    const entry = methodsByUrl.get(shape) ?? { url, methods: new Set<string>() };
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) entry.methods.add(method.toUpperCase());
    methodsByUrl.set(shape, entry);
  });
  return () => {
    for (const { url, methods: served } of methodsByUrl.values()) {
      // hasRoute too: a plugin may declare a route in a way onRoute reports under another spelling.
      const missing = METHODS.filter((method) => !served.has(method) && !app.hasRoute({ method, url }));
      if (missing.length === 0) continue;
      const allow = [...served].filter((method) => method !== 'OPTIONS').sort().join(', ');
      app.route({
        method: missing,
        url,
        config: { methodNotAllowed: true },
        // Answered before the body is read: whatever it holds, the answer is the same.
        onRequest: async (request, reply) => {
          reply.header('allow', allow);
          throw new HttpError(405, `${request.method} is not supported on ${url}; allowed: ${allow}`, { i18nMessage: 'error.methodNotAllowed' });
        },
        handler: async () => undefined,
      });
    }
  };
}
