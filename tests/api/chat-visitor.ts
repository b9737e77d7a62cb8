// Helpers of the tests/api/chat-*.test.ts files (not a test file itself).
import { withoutRequestId } from './helpers/test-server.ts';

export interface VisitorResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Visitor {
  get<T = any>(path: string, headers?: Record<string, string>): Promise<VisitorResponse<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<VisitorResponse<T>>;
}

/** A client with no credentials at all, like a visitor's browser on the public chat. */
export function anonymous(baseUrl: string): Visitor {
  const call = async <T>(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<VisitorResponse<T>> => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed = (response.headers.get('content-type') ?? '').includes('json') && text !== '' ? withoutRequestId(response, JSON.parse(text)) : text;
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
  return {
    get: (path, headers) => call('GET', path, undefined, headers),
    post: (path, body, headers) => call('POST', path, body ?? {}, headers),
  };
}

/** Server-sent events as { event, data } with data parsed as JSON. */
export function parseSse(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return { event, data: JSON.parse(data) };
    });
}
