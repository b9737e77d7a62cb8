import ky, { type KyInstance } from 'ky';
import { REQUEST_TIMEOUTS } from './request-timeouts.ts';

export interface HttpClientOptions {
  /** Read on every request, so a login or logout takes effect without rebuilding the client. */
  getToken?: () => string | null | undefined;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  timeout?: number;
}

/** The ky instance every transport uses: bearer header, spec §9 default timeout, no retries. */
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
