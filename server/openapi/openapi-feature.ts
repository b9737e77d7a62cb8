import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FeatureDependencies } from '../http/server-features.ts';
import { buildOpenApi, type DocumentedRoute } from './build-openapi.ts';

import packageJson from '../../package.json' with { type: 'json' };

const VERSION = packageJson.version;

/**
 * GET /api/docs (interactive) and /api/docs/json: the OpenAPI 3.1 document, built once the server
 * is ready from every route it registered, so the documentation cannot miss one.
 */
export async function openapiFeature(app: FastifyInstance, deps: FeatureDependencies): Promise<void> {
  // Static mode: the document is ours (the generic routes validate in the service, not through
  // Fastify schemas, so swagger's dynamic mode would see empty operations). Filled in onReady.
  const document: Record<string, unknown> = { openapi: '3.1.0', info: { title: 'Forja API', version: VERSION }, paths: {} };
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'none', deepLinking: true } });
  app.addHook('onReady', async () => {
    Object.assign(document, buildOpenApi({ entities: deps.entities, schemas: deps.schemas, routes: deps.routes as DocumentedRoute[], version: VERSION }));
  });
}
