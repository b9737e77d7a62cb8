import { describe, expect, it } from 'vitest';
import { RestTransport } from '../../../runtime/transport/rest-transport.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { EntityClient } from '../../../runtime/clients/entity-client.ts';
import { entities } from '../../../src/generated/entities.ts';

interface Seen {
  method: string;
  url: URL;
  auth: string | null;
  body: unknown;
}

function fakeServer(respond: (seen: Seen) => Response = () => Response.json({ items: [], total: 0 })) {
  const calls: Seen[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const type = request.headers.get('content-type') ?? '';
    const body = request.method === 'GET' || request.method === 'DELETE' ? null : type.includes('json') ? await request.json() : await request.formData();
    const seen = { method: request.method, url: new URL(request.url), auth: request.headers.get('authorization'), body };
    calls.push(seen);
    return respond(seen);
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

function setup(respond?: (seen: Seen) => Response, token: string | null = 'T0K') {
  const server = fakeServer(respond);
  const transport = new RestTransport({ baseUrl: 'http://api.test', getToken: () => token, fetch: server.fetch });
  const bottrace = new EntityClient<Record<string, unknown>, Record<string, unknown>>(transport, entities.bottrace);
  return { ...server, transport, bottrace };
}

describe('RestTransport (docs/product-rules.md#calls)', () => {
  it('paginates with page, limit, orderBy, order, search and serialised filters, with the bearer header', async () => {
    const { calls, bottrace } = setup();
    await bottrace.paginate({ page: 2, limit: 10, orderBy: 'createdAt', order: 'desc', search: 'hi', filters: [{ field: 'status', operator: 'eq', value: 's1' }, { field: 'reaction', operator: 'eq', value: '' }] });
    const [call] = calls;
    expect(call.method).toBe('GET');
    expect(call.url.pathname).toBe('/api/bot-traces');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ page: '2', limit: '10', orderBy: 'createdAt', order: 'desc', search: 'hi', filters: 'status;eq;s1' });
    expect(call.auth).toBe('Bearer T0K');
  });

  it('sends no authorization header without a token and omits empty params', async () => {
    const { calls, bottrace } = setup(undefined, null);
    await bottrace.paginate({ page: 1, search: '' });
    expect(calls[0].auth).toBeNull();
    expect(calls[0].url.search).toBe('?page=1');
  });

  it('maps find, find-one, by id, by ids and search', async () => {
    const { calls, bottrace } = setup(() => Response.json([]));
    await bottrace.find({ limit: 100, search: 'x' });
    await bottrace.findOne({ search: 'y' });
    await bottrace.findById({ id: 'a/b' });
    await bottrace.findByIds({ ids: ['1', '2'] });
    await bottrace.search({ search: 'z' });
    expect(calls.map((call) => `${call.method} ${call.url.pathname}${call.url.search}`)).toEqual([
      'GET /api/bot-traces/find?limit=100&search=x',
      'GET /api/bot-traces/find-one?search=y',
      'GET /api/bot-traces/a%2Fb',
      'GET /api/bot-traces/ids/1,2',
      'GET /api/bot-traces/search?search=z',
    ]);
  });

  it('find-one answers null on 404', async () => {
    const { bottrace } = setup(() => Response.json({ message: 'Not found' }, { status: 404 }));
    await expect(bottrace.findOne({ search: 'nope' })).resolves.toBeNull();
  });

  it('creates, updates and deletes', async () => {
    const { calls, bottrace } = setup((seen) => (seen.method === 'DELETE' ? new Response(null, { status: 204 }) : Response.json({ _id: '1' })));
    await bottrace.create({ data: { chatId: 'c' } });
    await bottrace.update({ id: '1', data: { chatId: 'd' } });
    await expect(bottrace.delete({ id: '1' })).resolves.toBe(true);
    expect(calls.map((call) => [call.method, call.url.pathname, call.body])).toEqual([
      ['POST', '/api/bot-traces', { chatId: 'c' }],
      ['PUT', '/api/bot-traces/1', { chatId: 'd' }],
      ['DELETE', '/api/bot-traces/1', null],
    ]);
  });

  it('exports with format, comma-joined headers, separator ; and limit 0 by default', async () => {
    const { calls, bottrace } = setup(() => Response.json({ url: '/files/x.csv', rowCount: 3, time: 5 }));
    const file = await bottrace.export({ format: 'CSV', headers: ['chatId', 'status'], filters: [{ field: 'status', operator: 'in', value: ['a', 'b'] }] });
    expect(file.rowCount).toBe(3);
    expect(calls[0].url.pathname).toBe('/api/bot-traces/export');
    expect(Object.fromEntries(calls[0].url.searchParams)).toEqual({ format: 'CSV', headers: 'chatId,status', separator: ';', limit: '0', filters: 'status;in;a,b' });
  });

  it('imports multipart with field "file", format and dryRun', async () => {
    const { calls, bottrace } = setup(() => Response.json({ dryRun: true, total: 1, valid: 1, invalid: 0, created: 0, errors: [] }));
    const report = await bottrace.import({ file: new Blob(['a;b'], { type: 'text/csv' }), format: 'CSV', dryRun: true });
    expect(report.valid).toBe(1);
    expect(calls[0].method).toBe('POST');
    expect(calls[0].url.pathname).toBe('/api/bot-traces/import');
    expect(Object.fromEntries(calls[0].url.searchParams)).toEqual({ format: 'CSV', dryRun: 'true' });
    expect((calls[0].body as FormData).get('file')).toBeInstanceOf(Blob);
  });

  it('uploads files to /api/file/{dir}', async () => {
    const { calls, transport } = setup(() => Response.json({ filename: 'a.txt', filepath: 'files/a.txt', size: 1, mimetype: 'text/plain', url: '/files/a.txt' }));
    const uploaded = await transport.uploadFile({ file: new Blob(['x']) });
    expect(uploaded.url).toBe('/files/a.txt');
    expect(calls[0].url.pathname).toBe('/api/file/files');
  });

  it('turns HTTP failures into ApiError per docs/product-rules.md#errors', async () => {
    const { bottrace } = setup(() => Response.json({ message: 'Validation failed', inputErrors: [{ field: 'status', reason: 'validation.required' }] }, { status: 400 }));
    const error = await bottrace.create({ data: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('error.validation');
    expect((error as ApiError).inputErrors).toEqual({ status: ['validation.required'] });
  });

  it('maps 5xx, network failures and aborts', async () => {
    const server = setup(() => Response.json({ message: 'x' }, { status: 500 }));
    await expect(server.bottrace.paginate()).rejects.toMatchObject({ message: 'error.server' });
    const offline = new RestTransport({ baseUrl: 'http://api.test', fetch: (async () => { throw new TypeError('Failed to fetch'); }) as typeof fetch });
    await expect(new EntityClient(offline, entities.bottrace).paginate()).rejects.toMatchObject({ message: 'error.network' });
    const controller = new AbortController();
    const hanging = new RestTransport({
      baseUrl: 'http://api.test',
      fetch: ((_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise((_resolve, reject) => {
          const signal = init?.signal ?? (_input instanceof Request ? _input.signal : undefined);
          if (signal?.aborted) reject(new DOMException('aborted', 'AbortError'));
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        })) as typeof fetch,
    });
    const pending = new EntityClient(hanging, entities.bottrace).paginate({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ message: 'error.server' });
  });
});
