import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countMessageTokens, countTextTokens } from '../../../server/llm/count-tokens.ts';
import { LlmError, type LlmErrorCode } from '../../../server/llm/llm-error.ts';
import type { LlmRequest, LlmStreamEvent } from '../../../server/llm/llm-provider.ts';
import { OpenAiCompatibleProvider } from '../../../server/llm/openai-compatible-provider.ts';
import { chunk, completion, json, sse, startFakeOpenAiServer, type FakeOpenAiServer } from './fake-openai-server.ts';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';
const request: LlmRequest = {
  messages: [
    { role: 'system', content: 'Eres Tienda, un asistente de soporte.' },
    { role: 'user', content: '¿Cuál es la política de devoluciones?' },
  ],
  maxTokens: 200,
  temperature: 0.2,
};

let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function provider(overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {}) {
  return new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, apiKey: API_KEY, model: 'llama3.1', maxRetries: 0, ...overrides });
}

async function collect(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  const llmError = error as LlmError;
  expect(llmError.message).not.toContain(API_KEY);
  expect(llmError.message).not.toContain('SECRET');
  return llmError;
}

describe('OpenAiCompatibleProvider.complete', () => {
  it('posts model, messages and options to {baseURL}/chat/completions with the bearer key', async () => {
    server.handle((_req, res) => json(res, 200, completion('Aceptamos devoluciones durante 30 días.', { prompt_tokens: 42, completion_tokens: 9 })));
    const result = await provider().complete(request);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.body).toMatchObject({ model: 'llama3.1', messages: request.messages, max_tokens: 200, temperature: 0.2 });
    expect(sent.body.stream).toBeUndefined();

    expect(result).toMatchObject({
      text: 'Aceptamos devoluciones durante 30 días.',
      inputTokens: 42,
      outputTokens: 9,
      provider: 'openai-compatible',
      model: 'llama3.1',
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('adds /v1 to a bare host (how Ollama and LM Studio URLs are usually pasted) and keeps an explicit path', async () => {
    server.handle((_req, res) => json(res, 200, completion('ok')));
    await provider({ baseUrl: server.origin }).complete(request);
    await provider({ baseUrl: `${server.origin}/proxy/openai/` }).complete(request);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/chat/completions', '/proxy/openai/chat/completions']);
  });

  it('counts tokens with the tokenizer when the server sends no usage', async () => {
    server.handle((_req, res) => json(res, 200, completion('Aceptamos devoluciones durante 30 días.')));
    const result = await provider().complete(request);
    expect(result.inputTokens).toBe(countMessageTokens(request.messages));
    expect(result.outputTokens).toBe(countTextTokens('Aceptamos devoluciones durante 30 días.'));
    expect(result.inputTokens).toBeGreaterThan(0);
  });

  it('works without an API key (local servers)', async () => {
    server.handle((_req, res) => json(res, 200, completion('ok')));
    await provider({ apiKey: null }).complete(request);
    expect(server.requests[0].headers.authorization).toBe('Bearer no-key');
  });

  const failures: Array<[string, (res: import('node:http').ServerResponse) => void, LlmErrorCode, number, RegExp]> = [
    ['500', (res) => json(res, 500, { error: { message: 'CUDA out of memory' } }), 'upstream', 502, /HTTP 500.*CUDA out of memory/],
    ['401', (res) => json(res, 401, { error: { message: `Incorrect API key provided: ${API_KEY}` } }), 'auth', 502, /rejected the API key \(HTTP 401\)/],
    ['404', (res) => json(res, 404, { error: { message: 'model "llama3.1" not found, try pulling it first' } }), 'model', 502, /model "llama3\.1" was not found/],
    ['429', (res) => json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '7' }), 'rate_limited', 503, /rate limiting.*retry after 7 s/],
    ['garbage JSON', (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"choices": [oops'); }, 'invalid_response', 502, /not a valid chat completion/],
    ['an HTML page', (res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>router login</html>'); }, 'invalid_response', 502, /OpenAI-compatible API/],
    ['empty choices', (res) => json(res, 200, { ...completion('x'), choices: [] }), 'invalid_response', 502, /no choices/],
    ['an empty answer', (res) => json(res, 200, completion('   ')), 'invalid_response', 502, /empty answer/],
  ];
  it.each(failures)('maps upstream %s to a typed LlmError', async (_name, respond, code, status, message) => {
    server.handle((_req, res) => respond(res));
    const error = await failure(provider().complete(request));
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
  });

  it('keeps the 429 retry-after for the HTTP layer', async () => {
    server.handle((_req, res) => json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '7' }));
    const error = await failure(provider().complete(request));
    expect(error.retryAfterSeconds).toBe(7);
  });

  it('retries once on a 5xx by default, then succeeds', async () => {
    let calls = 0;
    server.handle((_req, res) => (++calls === 1 ? json(res, 503, { error: { message: 'loading model' } }, { 'retry-after-ms': '10' }) : json(res, 200, completion('ok'))));
    const result = await provider({ maxRetries: undefined }).complete(request);
    expect(result.text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('maps a server that never answers to timeout (504)', async () => {
    server.handle(() => {
      /* never answers */
    });
    const error = await failure(provider({ timeoutMs: 200 }).complete(request));
    expect(error.code).toBe('timeout');
    expect(error.status).toBe(504);
    expect(error.message).toMatch(/did not answer within 0\.2 s/);
  });

  it('maps connection refused to unreachable (503)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(provider({ baseUrl: `http://127.0.0.1:${port}/v1` }).complete(request));
    expect(error.code).toBe('unreachable');
    expect(error.status).toBe(503);
    expect(error.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(error.message).toMatch(/could not be reached/);
  });

  it('maps an abort by the caller to aborted', async () => {
    const controller = new AbortController();
    // The caller gives up once the request is out (the server never answers).
    server.handle(() => controller.abort());
    const error = await failure(provider().complete({ ...request, signal: controller.signal }));
    expect(error.code).toBe('aborted');
  });

  it('never shows credentials embedded in the base URL', async () => {
    server.handle((_req, res) => json(res, 500, { error: { message: 'boom' } }));
    const error = await failure(provider({ baseUrl: `http://user:pa55word@127.0.0.1:${new URL(server.origin).port}/v1` }).complete(request));
    expect(error.message).not.toContain('pa55word');
  });
});

describe('OpenAiCompatibleProvider.stream', () => {
  it('streams deltas over SSE, asks for usage and reads it back', async () => {
    server.handle((_req, res) =>
      sse(res, [chunk('Aceptamos '), chunk('devoluciones '), chunk('durante 30 días.'), chunk(null, { prompt_tokens: 40, completion_tokens: 8 })]),
    );
    const events = await collect(provider().stream(request));

    expect(server.requests[0].body).toMatchObject({ model: 'llama3.1', stream: true, stream_options: { include_usage: true } });
    const deltas = events.filter((e) => e.type === 'delta').map((e) => (e.type === 'delta' ? e.text : ''));
    expect(deltas).toEqual(['Aceptamos ', 'devoluciones ', 'durante 30 días.']);
    const last = events.at(-1);
    expect(last?.type).toBe('done');
    if (last?.type !== 'done') return;
    expect(last.result).toMatchObject({ text: 'Aceptamos devoluciones durante 30 días.', inputTokens: 40, outputTokens: 8, provider: 'openai-compatible', model: 'llama3.1' });
  });

  it('counts with the tokenizer when the stream carries no usage', async () => {
    server.handle((_req, res) => sse(res, [chunk('Hola, '), chunk('¿en qué te ayudo?')]));
    const events = await collect(provider().stream(request));
    const done = events.at(-1);
    if (done?.type !== 'done') throw new Error('no done event');
    expect(done.result.text).toBe('Hola, ¿en qué te ayudo?');
    expect(done.result.inputTokens).toBe(countMessageTokens(request.messages));
    expect(done.result.outputTokens).toBe(countTextTokens('Hola, ¿en qué te ayudo?'));
  });

  it('maps an upstream error before the stream starts', async () => {
    server.handle((_req, res) => json(res, 401, { error: { message: `bad key ${API_KEY}` } }));
    const error = await failure(collect(provider().stream(request)));
    expect(error.code).toBe('auth');
  });

  it('maps garbage SSE data to invalid_response', async () => {
    server.handle((_req, res) => sse(res, [chunk('Hola'), '{not json']));
    const error = await failure(collect(provider().stream(request)));
    expect(error.code).toBe('invalid_response');
  });

  it('rejects a stream that carries no text', async () => {
    server.handle((_req, res) => sse(res, [chunk(null, { prompt_tokens: 3, completion_tokens: 0 })]));
    const error = await failure(collect(provider().stream(request)));
    expect(error.code).toBe('invalid_response');
  });

  it('maps a stream that never starts to timeout', async () => {
    server.handle(() => {
      /* never answers */
    });
    const error = await failure(collect(provider({ timeoutMs: 200 }).stream(request)));
    expect(error.code).toBe('timeout');
  });
});
