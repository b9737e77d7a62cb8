import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for an OpenAI-compatible server: records every request, answers with `handler`. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void;

export interface FakeOpenAiServer {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  origin: string;
  requests: RecordedRequest[];
  handle(handler: FakeHandler): void;
  close(): Promise<void>;
}

/**
 * A test server's environment for a chat answered by `fake`: the LLM settings pointing at it and
 * the visitor rate limits out of the way (tests send more than a person would); `extra` wins.
 */
export function fakeLlmEnvironment(fake: Pick<FakeOpenAiServer, 'baseUrl'>, extra: Record<string, string> = {}): Record<string, string> {
  return {
    LLM_BASE_URL: fake.baseUrl,
    LLM_MODEL: 'fake-model',
    LLM_API_KEY: 'sk-test-secret',
    CHAT_RATE_START_PER_MINUTE: '1000',
    CHAT_RATE_MESSAGE_PER_MINUTE: '1000',
    CHAT_RATE_READ_PER_MINUTE: '1000',
    ...extra,
  };
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  let handler: FakeHandler = (_request, response) => json(response, 500, { error: { message: 'no handler' } });
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep raw text
      }
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Server-sent events the way OpenAI streams chat completions, closed by [DONE]. */
export function sse(response: ServerResponse, events: unknown[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) response.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
  response.write('data: [DONE]\n\n');
  response.end();
}

export function completion(text: string, usage?: { prompt_tokens: number; completion_tokens: number }) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1,
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

export function chunk(delta: string | null, usage?: { prompt_tokens: number; completion_tokens: number }) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'fake-model',
    choices: delta === null ? [] : [{ index: 0, delta: { content: delta }, finish_reason: null }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}
