/**
 * Base URL handling for OpenAI-compatible servers. Ollama, vLLM and LM Studio serve the API under
 * /v1, and administrators often paste just the host ("http://localhost:11434"), so a URL without a
 * path gets /v1; a URL with a path is used as given (Azure-style or proxied deployments).
 */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function resolveOpenAiBaseUrl(baseUrl: string | null | undefined): string {
  const raw = baseUrl?.trim();
  if (!raw) return OPENAI_DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`The LLM base URL ${JSON.stringify(raw)} is not a valid URL; expected e.g. http://localhost:11434/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The LLM base URL must start with http:// or https://; got ${JSON.stringify(raw)}`);
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1';
  return url.toString().replace(/\/+$/, '');
}

/** The URL as safe to show in an error: no user-info credentials, no query string. */
export function describeEndpoint(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return 'the configured URL';
  }
}
