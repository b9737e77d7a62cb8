import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalKnowledge } from './helpers/fixtures.ts';
import { json, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

/**
 * A toy "semantic" embedder: words map to concepts (synonyms share one), a text's vector counts
 * its concepts. Enough to show the vector retriever finding what BM25 cannot (no shared word).
 */
const CONCEPTS: Record<string, number> = {
  dinero: 0, reembolso: 0, reembolsamos: 0, importe: 0, devuelven: 0,
  paquete: 1, envio: 1, pedido: 1, entrega: 1,
  horario: 2, abrimos: 2, abre: 2, hora: 2,
};
const DIMENSIONS = 4;
function embed(text: string): number[] {
  const vector = new Array(DIMENSIONS).fill(0);
  for (const word of text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().split(/[^a-z0-9]+/)) {
    const concept = CONCEPTS[word];
    vector[concept ?? DIMENSIONS - 1] += concept === undefined ? 0.05 : 1;
  }
  return vector;
}

let fake: FakeOpenAiServer;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  fake.handle((request, response) => {
    if (request.url !== '/v1/embeddings') return json(response, 404, { error: { message: 'not here' } });
    const inputs: string[] = Array.isArray(request.body.input) ? request.body.input : [request.body.input];
    json(response, 200, {
      object: 'list',
      model: request.body.model,
      data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
  });
  // The index is chosen when the server starts: hybrid because an embedding model is configured.
  server = await startTestServer({
    env: { EMBEDDING_MODEL: 'toy-embed', EMBEDDING_BASE_URL: fake.baseUrl },
    resolveContext: () => ({ userId: 'rag-admin', tenantId: null, permissions: ['*'] }),
  });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

// Vectors need SQLite here: PostgreSQL has no pgvector in our Debian packages, so on it retrieval
// is full text only and the server logs "pgvector not available: BM25 only".
describe.skipIf(TEST_BACKEND === 'postgres')('hybrid retrieval (BM25 + embeddings)', () => {
  it('embeds chunks once, finds by meaning what no word matches, keeps BM25 hits', async () => {
    const source = await create(server, '/api/knowledge-sources', {
      name: 'Ayuda',
      type: 'chunk',
      chunks: [
        { content: 'Reembolsamos el importe en cinco días laborables.' },
        { content: 'El paquete llega en 48 horas.' },
        { content: 'Abrimos de lunes a viernes.' },
      ],
    });
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Híbrida', { sources: [source._id], maxResults: 1, scoreThreshold: 0.5 }));
    const trained = await server.get(`/api/rag/train/${knowledge._id}`);
    expect(trained.status).toBe(200);
    expect(trained.body).toMatchObject({ total: 3, added: 3 });
    const embedCalls = () => fake.requests.filter((r) => r.url === '/v1/embeddings');
    const embeddedTexts = embedCalls().flatMap((r) => r.body.input as string[]);
    expect(embeddedTexts.sort()).toEqual(['Abrimos de lunes a viernes.', 'El paquete llega en 48 horas.', 'Reembolsamos el importe en cinco días laborables.']);
    expect(embedCalls()[0].body.model).toBe('toy-embed');

    // No word in common with the refund chunk: only the vector retriever can find it.
    const meaning = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: '¿Me devuelven el dinero?' })}`);
    expect(meaning.status).toBe(200);
    expect(meaning.body).toEqual([expect.objectContaining({ content: 'Reembolsamos el importe en cinco días laborables.', source: 'Ayuda' })]);
    expect(meaning.body[0].score).toBeGreaterThanOrEqual(0.5);
    expect(meaning.body[0].score).toBeLessThanOrEqual(1);

    const words = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'lunes viernes' })}`);
    expect(words.body[0].content).toBe('Abrimos de lunes a viernes.');

    // Re-training unchanged content embeds nothing again.
    const before = embedCalls().length;
    const again = await server.get(`/api/rag/train/${knowledge._id}`);
    expect(again.body).toMatchObject({ kept: 3, added: 0 });
    const chunkEmbeds = embedCalls().slice(before).filter((r) => (r.body.input as string[]).some((t) => t.includes('Reembolsamos')));
    expect(chunkEmbeds).toEqual([]);
  });

  it('an embeddings server that fails makes the training fail with a gateway status and the status route says so', async () => {
    const source = await create(server, '/api/knowledge-sources', { name: 'Otra', type: 'chunk', chunks: [{ content: 'texto nuevo que no tiene vector' }] });
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Falla', { sources: [source._id] }));
    const previous = fake.requests.length;
    fake.handle((_request, response) => json(response, 401, { error: { message: 'bad key' } }));
    const trained = await server.get(`/api/rag/train/${knowledge._id}`);
    expect(fake.requests.length).toBeGreaterThan(previous);
    expect(trained.status).toBeGreaterThanOrEqual(500);
    expect(trained.status).toBeLessThan(600);
    expect(trained.body).toEqual({ message: expect.any(String), i18nMessage: 'error.rag.llmFailed' });
    const status = await server.get(`/api/rag/status/${knowledge._id}`);
    expect(status.body).toMatchObject({ state: 'failed', error: expect.any(String), chunks: 0 });
  });
});
