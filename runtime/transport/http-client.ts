import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import { ApiError } from './api-error.ts';
import { toApiError, type FailedCall } from './to-api-error.ts';
import { REQUEST_TIMEOUTS } from './request-timeouts.ts';

export interface HttpClientOptions {
  /** Read on every request, so a login or logout takes effect without rebuilding the client. */
  getToken?: () => string | null | undefined;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  timeout?: number;
}

/** The ky instance every transport uses: bearer header, docs/product-rules.md#constants default timeout, no retries. */
export function createHttpClient(options: HttpClientOptions): KyInstance {
  const getToken = options.getToken;
  return ky.create({
    timeout: options.timeout ?? REQUEST_TIMEOUTS.default,
    // Retrying hides failures from the user for seconds; the UI offers its own retry (reload).
    retry: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    hooks: {
      beforeRequest: [
        (request) => {
          const token = getToken?.();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
    },
  });
}

/** Any failure of a call made with the client, as docs/product-rules.md#errors error it stands for. */
export async function describeFailure(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  return toApiError(await classify(error));
}

async function classify(error: unknown): Promise<FailedCall> {
  if (error instanceof HTTPError) {
    let body: unknown = null;
    try {
      const text = await error.response.text();
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    return { kind: 'http', status: error.response.status, body };
  }
  if (error instanceof TimeoutError) return { kind: 'timeout' };
  if (error instanceof Error && error.name === 'AbortError') return { kind: 'aborted' };
  // fetch rejects with a TypeError when the network (DNS, connection, CORS) fails.
  if (error instanceof TypeError) return { kind: 'network' };
  return { kind: 'unknown', cause: error };
}
