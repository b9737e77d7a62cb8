import type { FastifyInstance } from 'fastify';
import type { FeatureDependencies } from '../http/server-features.ts';
import { callerOf } from '../operations/operation-caller.ts';
import { createRagOperations } from './rag-operations.ts';

type Params = { Params: { id: string } };

/**
 * The REST adapter of the Knowledge/RAG operations (rag-operations.ts, docs/product-rules.md#calls):
 * source editing under /api/rag/{parse-file,parse-url,chunk,improve}, knowledge bases under
 * /api/rag/{train,status,clear,search}/:id. Each route reads its input and runs its operation.
 */
export async function registerRagFeature(app: FastifyInstance, deps: FeatureDependencies): Promise<void> {
  const rag = await createRagOperations(deps, app.log);
  app.post('/api/rag/parse-file', { config: { operation: rag.parseFile } }, async (request) => rag.parseFile(callerOf(request), { body: request.body }));
  app.post('/api/rag/parse-url', { config: { operation: rag.parseUrl } }, async (request) => rag.parseUrl(callerOf(request), { body: request.body }));
  app.post('/api/rag/chunk', { config: { operation: rag.chunk } }, async (request) => rag.chunk(callerOf(request), { body: request.body }));
  app.post('/api/rag/improve', { config: { operation: rag.improve } }, async (request) => rag.improve(callerOf(request), { body: request.body }));
  app.get<Params>('/api/rag/train/:id', { config: { operation: rag.train } }, async (request) => rag.train(callerOf(request), { id: request.params.id }));
  app.get<Params>('/api/rag/status/:id', { config: { operation: rag.status } }, async (request) => rag.status(callerOf(request), { id: request.params.id }));
  app.delete<Params>('/api/rag/clear/:id', { config: { operation: rag.clear } }, async (request) => rag.clear(callerOf(request), { id: request.params.id }));
  app.get<Params & { Querystring: { q?: unknown } }>('/api/rag/search/:id', { config: { operation: rag.search } }, async (request) =>
    rag.search(callerOf(request), { id: request.params.id, q: request.query.q }),
  );
}
