/**
 * REDIS_URL_TEST with a database number of one test file's own, for the servers that file starts.
 * Files run side by side (vitest.config.ts, maxWorkers), and on one Redis database their servers
 * would share keys: the sign-in rate limit per address (multi-instance counts its sign-ins to the
 * attempt), locks and counters. Undefined when REDIS_URL_TEST is not set.
 */
const DATABASE_OF = { 'multi-instance': 1, 'chat-multi-instance': 2, observability: 3 } as const;

export function redisTestUrl(file: keyof typeof DATABASE_OF): string | undefined {
  const base = process.env.REDIS_URL_TEST?.trim();
  if (!base) return undefined;
  const url = new URL(base);
  url.pathname = `/${DATABASE_OF[file]}`;
  return url.toString();
}
