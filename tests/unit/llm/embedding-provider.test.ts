import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddingProvider } from '../../../server/llm/create-embedding-provider.ts';
import { LlmError } from '../../../server/llm/llm-error.ts';
import { OpenAiCompatibleEmbeddingProvider } from '../../../server/llm/openai-compatible-embedding-provider.ts';
import { json, startFakeOpenAiServer, type FakeOpenAiServer } from './fake-openai-server.ts';

const API_KEY = 'sk-embed-SECRET-abcdef';
let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** Vector for a text: [length, first char code]. Returned out of order to check re-ordering by index. */
function embeddingsResponse(inputs: string[]) {
  return {
    object: 'list',
    model: 'nomic-embed-text',
    data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, text.charCodeAt(0)] })).reverse(),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  };
}

function provider(batchSize = 2) {
  return new OpenAiCompatibleEmbeddingProvider({ baseUrl: server.baseUrl, apiKey: API_KEY, model: 'nomic-embed-text', batchSize, maxRetries: 0 });
}

describe('OpenAiCompatibleEmbeddingProvider', () => {
  it('posts batches to {baseURL}/embeddings as floats and returns vectors in input order', async () => {
    server.handle((req, res) => json(res, 200, embeddingsResponse(req.body.input)));
    const vectors = await provider(2).embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(vectors).toEqual([
      [1, 97],
      [2, 98],
      [3, 99],
      [4, 100],
      [5, 101],
    ]);
    expect(server.requests.map((r) => r.body.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    expect(server.requests[0].url).toBe('/v1/embeddings');
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.requests[0].body).toMatchObject({ model: 'nomic-embed-text', encoding_format: 'float' });
  });

  it('makes no call for no texts', async () => {
    expect(await provider().embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('maps a missing model and a wrong count to typed errors', async () => {
    server.handle((_req, res) => json(res, 404, { error: { message: 'model "nomic-embed-text" not found' } }));
    const missing = await provider().embed(['a']).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(LlmError);
    expect(missing).toMatchObject({ code: 'model', status: 502 });

    server.handle((_req, res) => json(res, 200, { object: 'list', data: [] }));
    const wrong = await provider().embed(['a']).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'invalid_response' });
    expect((wrong as Error).message).toMatch(/0 embeddings for 1 inputs/);
    expect((wrong as Error).message).not.toContain(API_KEY);
  });
});

describe('createEmbeddingProvider', () => {
  it('returns null without an embedding model, and borrows the chat connection otherwise', async () => {
    expect(createEmbeddingProvider({}, { baseUrl: server.baseUrl })).toBeNull();
    server.handle((req, res) => json(res, 200, embeddingsResponse(req.body.input)));
    const embedder = createEmbeddingProvider({ model: 'nomic-embed-text' }, { baseUrl: server.origin, apiKey: API_KEY });
    expect(embedder?.model).toBe('nomic-embed-text');
    expect(await embedder?.embed(['hola'])).toEqual([[4, 104]]);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
  });
});
