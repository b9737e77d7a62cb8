import type { KyInstance } from 'ky';
import { createHttpClient, describeFailure } from './http-client.ts';
import type { EntityAction, EntityOperation, Transport } from './transport.ts';
import { RestTransport, type FileUploader, type RestCall, type RestTransportOptions, type UploadedFile } from './rest-transport.ts';
import { toApiError } from './to-api-error.ts';
import { REQUEST_TIMEOUTS } from './request-timeouts.ts';

/** Generated operation documents by entity and action; each selects its answer as `result`. */
export type GraphqlDocuments = Partial<Record<string, Partial<Record<EntityAction, string>>>>;

export interface GraphqlTransportOptions extends RestTransportOptions {
  documents: GraphqlDocuments;
  /** Endpoint path, default /graphql. */
  endpoint?: string;
}

interface GraphqlErrorBody {
  message?: string;
  extensions?: { status?: number; message?: string; i18nMessage?: string; inputErrors?: unknown };
}

/** Entity actions with no GraphQL operation (docs/product-rules.md#calls); they keep using the REST endpoint. */
const REST_ONLY: ReadonlySet<EntityAction> = new Set(['import', 'bulkDelete']);

/**
 * The GraphQL alternative of docs/product-rules.md#product: the same typed entity clients, sending the generated documents to
 * /graphql. Calls outside the entity clients (identity screens, RAG, chat) keep REST through
 * `call()`, as docs/product-rules.md#calls has registration and recovery only there.
 */
export class GraphqlTransport implements Transport, FileUploader {
  private readonly http: KyInstance;
  private readonly rest: RestTransport;
  private readonly endpoint: string;

  constructor(private readonly options: GraphqlTransportOptions) {
    this.rest = new RestTransport(options);
    this.endpoint = `${(options.baseUrl ?? '').replace(/\/$/, '')}${options.endpoint ?? '/graphql'}`;
    this.http = createHttpClient(options);
  }

  async request<R>(operation: EntityOperation): Promise<R> {
    if (REST_ONLY.has(operation.action)) return this.rest.request<R>(operation);
    const document = this.options.documents[operation.entity.name]?.[operation.action];
    if (!document) {
      throw new Error(`No GraphQL operation "${operation.action}" for entity "${operation.entity.name}" (not generated, or flagged off)`);
    }
    const { signal, ...variables } = operation.params as Record<string, unknown> & { signal?: AbortSignal };
    if (operation.action === 'export' && !variables.headers) variables.headers = operation.entity.export.headers;
    if ('data' in variables) variables.data = stripForInput(variables.data);
    return this.send<R>({ query: document, variables }, signal);
  }

  /** GraphQL multipart request spec: operations + map + the file (docs/product-rules.md#calls uploadFile(file, dir)). */
  uploadFile(params: { file: Blob; dir?: string; signal?: AbortSignal }): Promise<UploadedFile> {
    const form = new FormData();
    form.append('operations', JSON.stringify({
      query: 'mutation UploadFile($file: Upload!, $dir: String) { result: uploadFile(file: $file, dir: $dir) { filename filepath size mimetype url } }',
      variables: { file: null, dir: params.dir ?? 'files' },
    }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    const name = typeof File !== 'undefined' && params.file instanceof File && params.file.name ? params.file.name : 'upload';
    form.append('0', params.file, name);
    return this.send<UploadedFile>(form, params.signal, REQUEST_TIMEOUTS.upload);
  }

  call<R>(call: RestCall): Promise<R> {
    return this.rest.call<R>(call);
  }

  private async send<R>(body: { query: string; variables: Record<string, unknown> } | FormData, signal?: AbortSignal, timeout?: number): Promise<R> {
    let payload: { data?: { result?: unknown } | null; errors?: GraphqlErrorBody[] };
    try {
      const headers = body instanceof FormData ? { 'GraphQL-Preflight': '1' } : undefined;
      const response = await this.http.post(this.endpoint, {
        ...(body instanceof FormData ? { body } : { json: body }),
        headers,
        signal,
        timeout,
        // GraphQL reports failures in the body; status codes are read below, not thrown on.
        throwHttpErrors: false,
      });
      const text = await response.text();
      payload = text ? JSON.parse(text) : {};
      if (!response.ok && !payload.errors) throw toApiError({ kind: 'http', status: response.status, body: payload });
    } catch (error) {
      const failure = await describeFailure(error);
      this.options.onError?.(failure);
      throw failure;
    }
    if (payload.errors?.length) {
      const [first] = payload.errors;
      const extensions = first.extensions ?? {};
      const failure = toApiError({
        kind: 'http',
        status: typeof extensions.status === 'number' ? extensions.status : 400,
        body: { message: extensions.message ?? first.message, i18nMessage: extensions.i18nMessage, inputErrors: extensions.inputErrors },
      });
      this.options.onError?.(failure);
      throw failure;
    }
    return (payload.data?.result ?? null) as R;
  }
}

/** Record copies carry system fields and populated refs; inputs take neither (as REST strips them). */
function stripForInput(data: unknown): unknown {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const { _id, createdAt, updatedAt, tenant, ...rest } = data as Record<string, unknown>;
  void _id; void createdAt; void updatedAt; void tenant;
  return rest;
}
