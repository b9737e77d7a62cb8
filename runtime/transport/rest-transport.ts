import type { KyInstance } from 'ky';
import { createHttpClient, describeFailure } from './http-client.ts';
import type { EntityOperation, Transport } from './transport.ts';
import type { FindQuery, ListQuery } from '../clients/queries.ts';
import { serializeFilters } from './serialize-filters.ts';
import { ApiError } from './api-error.ts';
import { REQUEST_TIMEOUTS } from './request-timeouts.ts';
import { entityEndpointUrl, type EntityOperationName } from '../../contract/endpoints/entity-endpoints.ts';

export interface RestTransportOptions {
  /** Prepended to every path; '' keeps URLs relative to the page (the dev proxy serves /api). */
  baseUrl?: string;
  /** Read on every request, so a login or logout takes effect without rebuilding the transport. */
  getToken?: () => string | null | undefined;
  /** Told about every failed call after mapping (the app signs out on a 401). */
  onError?: (error: ApiError) => void;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  timeout?: number;
}

/** A non-entity call (identity, RAG, files): the seam other runtime pieces use for HTTP. */
export interface RestCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  searchParams?: Record<string, string | number | boolean | undefined | null>;
  json?: unknown;
  body?: FormData;
  timeout?: number;
  signal?: AbortSignal;
  /** Extra request headers (If-Match of the schema studio's save). */
  headers?: Record<string, string>;
}

/** The record the upload endpoint returns (docs/product-rules.md#entities "Uploaded file"). */
export interface UploadedFile {
  filename: string;
  filepath: string;
  size: number;
  mimetype: string;
  url: string;
}

export interface FileUploader {
  uploadFile(params: { file: Blob; dir?: string; signal?: AbortSignal }): Promise<UploadedFile>;
}

type Params = Record<string, string | number | boolean | undefined | null>;

/** Maps each EntityOperation to the REST endpoints of docs/product-rules.md#calls under the entity's basePath. */
export class RestTransport implements Transport, FileUploader {
  private readonly http: KyInstance;
  private readonly baseUrl: string;
  private readonly onError: ((error: ApiError) => void) | undefined;

  constructor(options: RestTransportOptions = {}) {
    this.onError = options.onError;
    this.baseUrl = (options.baseUrl ?? '').replace(/\/$/, '');
    this.http = createHttpClient(options);
  }

  async request<R>(operation: EntityOperation): Promise<R> {
    // Every URL from the one endpoint table the server registers (contract/endpoints).
    const base = operation.entity.api.basePath;
    const url = (name: EntityOperationName, params?: Record<string, string | readonly string[]>) => entityEndpointUrl(base, name, params);
    switch (operation.action) {
      case 'paginate': {
        const p = operation.params;
        return this.call<R>({ method: 'GET', path: url('paginate'), signal: p.signal, searchParams: { page: p.page, ...findParams(p) } });
      }
      case 'find':
        return this.call<R>({ method: 'GET', path: url('find'), signal: operation.params.signal, searchParams: findParams(operation.params) });
      case 'findOne': {
        try {
          return await this.call<R>({ method: 'GET', path: url('findOne'), signal: operation.params.signal, searchParams: findParams(operation.params) });
        } catch (error) {
          // "Nothing matched" is an answer, not a failure, for a find-one.
          if (error instanceof ApiError && error.status === 404) return null as R;
          throw error;
        }
      }
      case 'findById':
        return this.call<R>({ method: 'GET', path: url('findById', { id: operation.params.id }), signal: operation.params.signal });
      case 'findByIds':
        return this.call<R>({
          method: 'GET',
          path: url('findByIds', { ids: operation.params.ids }),
          signal: operation.params.signal,
        });
      case 'search':
        return this.call<R>({ method: 'GET', path: url('search'), signal: operation.params.signal, searchParams: { search: operation.params.search } });
      case 'create':
        return this.call<R>({ method: 'POST', path: url('create'), json: operation.params.data, signal: operation.params.signal });
      case 'update':
        return this.call<R>({
          method: 'PUT',
          path: url('update', { id: operation.params.id }),
          json: operation.params.data,
          signal: operation.params.signal,
        });
      case 'delete':
        await this.call<unknown>({ method: 'DELETE', path: url('delete', { id: operation.params.id }), signal: operation.params.signal });
        return true as R;
      case 'bulkDelete':
        // One request may run up to MAX_BULK_DELETE deletes, each its own transaction.
        return this.call<R>({ method: 'POST', path: url('bulkDelete'), json: operation.params.body, signal: operation.params.signal, timeout: REQUEST_TIMEOUTS.upload });
      case 'export': {
        const p = operation.params;
        const headers = p.headers ?? operation.entity.export.headers;
        return this.call<R>({
          method: 'GET',
          path: url('export'),
          signal: p.signal,
          searchParams: {
            format: p.format ?? 'JSON',
            headers: headers.length > 0 ? headers.join(',') : undefined,
            separator: p.separator ?? ';',
            locale: p.locale,
            ...findParams({ ...p, limit: p.limit ?? 0 }),
          },
        });
      }
      case 'import': {
        const p = operation.params;
        const body = new FormData();
        body.append('file', p.file, fileName(p.file, p.format));
        return this.call<R>({
          method: 'POST',
          path: url('import'),
          signal: p.signal,
          searchParams: { format: p.format, dryRun: p.dryRun ?? false },
          body,
          timeout: REQUEST_TIMEOUTS.upload,
        });
      }
      default: {
        const unknown: never = operation;
        throw new Error(`Unsupported entity operation ${JSON.stringify((unknown as { action: string }).action)}`);
      }
    }
  }

  /** POST /api/file/{dir} multipart field "file" (docs/product-rules.md#calls File upload). */
  uploadFile(params: { file: Blob; dir?: string; signal?: AbortSignal }): Promise<UploadedFile> {
    const body = new FormData();
    body.append('file', params.file, fileName(params.file));
    return this.call<UploadedFile>({
      method: 'POST',
      path: `/api/file/${encodeURIComponent(params.dir ?? 'files')}`,
      body,
      timeout: REQUEST_TIMEOUTS.upload,
      signal: params.signal,
    });
  }

  /** Any REST call with the transport's auth, timeout and error mapping. */
  async call<R>(call: RestCall): Promise<R> {
    try {
      const response = await this.http(this.baseUrl + call.path, {
        method: call.method,
        searchParams: compactParams(call.searchParams),
        json: call.json,
        body: call.body,
        timeout: call.timeout,
        signal: call.signal,
        ...(call.headers ? { headers: call.headers } : {}),
      });
      if (response.status === 204) return undefined as R;
      const text = await response.text();
      return (text === '' ? undefined : JSON.parse(text)) as R;
    } catch (error) {
      const failure = await describeFailure(error);
      this.onError?.(failure);
      throw failure;
    }
  }
}

function findParams(q: FindQuery & Pick<ListQuery, 'page'>): Params {
  return {
    limit: q.limit,
    orderBy: q.orderBy,
    order: q.orderBy ? (q.order ?? 'asc') : q.order,
    search: q.search,
    filters: serializeFilters(q.filters),
  };
}

/** Drops absent and empty parameters so the server applies its own defaults. */
function compactParams(params: Params | undefined): URLSearchParams | undefined {
  if (!params) return undefined;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  return search;
}

function fileName(file: Blob, format?: string): string {
  if (typeof File !== 'undefined' && file instanceof File && file.name) return file.name;
  return format ? `import.${format.toLowerCase()}` : 'upload';
}
