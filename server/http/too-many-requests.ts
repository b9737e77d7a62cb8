import { HttpError } from './http-error.ts';

/**
 * The 429 of every rate limit (the plugin's per-route limits in create-server.ts and the shared
 * credential limits of server/identity/credential-limits.ts), so REST and GraphQL callers read
 * the same message: `wait` is how long until the window reopens, e.g. "42 seconds".
 */
export function tooManyRequests(wait: string): HttpError {
  return new HttpError(429, `Too many requests; try again in ${wait}`, { i18nMessage: 'error.tooManyRequests' });
}

/** "1 second", "42 seconds", "1 minute": the plugin's wording (@lukeed/ms, long form) for the waits a window gives. */
export function waitText(seconds: number): string {
  const [value, unit] = seconds < 60 ? [seconds, 'second'] : seconds < 3600 ? [Math.round(seconds / 60), 'minute'] : [Math.round(seconds / 3600), 'hour'];
  return `${value} ${unit}${value === 1 ? '' : 's'}`;
}
