import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../server/config.ts';
import { createServer, type CreateServerOptions } from '../../../server/http/create-server.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  dataDir: string;
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  del<T = any>(path: string): Promise<ApiResponse<T>>;
  /** Any request, body sent as given (for malformed bodies and odd content types). */
  raw<T = any>(path: string, init: RequestInit): Promise<ApiResponse<T>>;
  upload<T = any>(path: string, file: { name: string; content: string | Buffer; type?: string }, field?: string): Promise<ApiResponse<T>>;
  /** Stops the server; the data dir is kept when `keepData` (restart tests) and removed otherwise. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions extends Partial<Omit<CreateServerOptions, 'config'>> {
  /** Reuse a data dir (restart on the same database). */
  dataDir?: string;
  maxUploadBytes?: number;
}

/** The real server on a random port with a temporary DATA_DIR, driven over HTTP with fetch. */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'forja-api-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    port: 0,
    host: '127.0.0.1',
    distDir: path.join(dataDir, 'no-dist'),
    ...(options.maxUploadBytes !== undefined ? { maxUploadBytes: options.maxUploadBytes } : {}),
  };
  const { dataDir: _ignored, maxUploadBytes: _max, ...rest } = options;
  const app = await createServer({ logger: false, ...rest, config });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  const raw = async <T>(p: string, init: RequestInit): Promise<ApiResponse<T>> => {
    const response = await fetch(address + p, init);
    const text = await response.text();
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: body as T, text };
  };
  const json = <T>(method: string, p: string, body?: unknown) =>
    raw<T>(p, body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  return {
    app,
    baseUrl: address,
    dataDir,
    get: (p) => json('GET', p),
    post: (p, body) => json('POST', p, body ?? {}),
    put: (p, body) => json('PUT', p, body ?? {}),
    del: (p) => json('DELETE', p),
    raw,
    upload: (p, file, field = 'file') => {
      const form = new FormData();
      const part = typeof file.content === 'string' ? file.content : new Uint8Array(file.content);
      form.append(field, new Blob([part], { type: file.type ?? 'application/octet-stream' }), file.name);
      return raw(p, { method: 'POST', body: form });
    },
    async close(closeOptions = {}) {
      await app.close();
      if (!closeOptions.keepData && !options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Query string from an object, skipping undefined. */
export function qs(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}
