import { resolveOpenAiBaseUrl } from './openai-base-url.ts';

/**
 * The origin (scheme, host, port) requests for this base URL go to: an empty base URL means
 * OpenAI's, as the client uses it. null when the URL is not valid (it will fail when used).
 * Keys are bound to origins: a key is only ever sent to the origin it was configured for.
 */
export function endpointOrigin(baseUrl: string | null | undefined): string | null {
  try {
    return new URL(resolveOpenAiBaseUrl(baseUrl)).origin;
  } catch {
    return null;
  }
}

/** Both base URLs reach the same origin (a key configured for one may be sent to the other). */
export function sameEndpointOrigin(a: string | null | undefined, b: string | null | undefined): boolean {
  const origin = endpointOrigin(a);
  return origin !== null && origin === endpointOrigin(b);
}
