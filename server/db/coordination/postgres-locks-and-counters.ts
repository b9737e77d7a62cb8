import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { SharedLocksAndCounters } from './coordination.ts';
import { postgresFixedWindowCounter } from './postgres-fixed-window-counter.ts';

/** First key of every chat lock ('forj'): the two-key advisory locks are a space apart from other features' one-key locks. */
const LOCK_SPACE = 0x666f726a;

/**
 * Shared locks and counters on PostgreSQL without Redis (the chat's per-conversation lock and count). Locks are session advisory locks taken
 * with pg_try_advisory_lock on one connection of this instance's own (not the pool's: a waiting
 * answer must not hold a pooled connection), so a lock dies with its instance's session. The
 * counter is a row per conversation in an unlogged table, counted with the database's clock
 * (postgres-fixed-window-counter.ts), so every instance counts in the same window.
 */
export function postgresLocksAndCounters(pool: pg.Pool, log: FastifyBaseLogger): SharedLocksAndCounters {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;

  const lockClient = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const fresh = new pg.Client((pool as unknown as { options: pg.ClientConfig }).options);
      fresh.on('error', (error) => {
        // Its locks are gone with the session; the next message opens a new connection.
        log.warn({ err: error }, 'chat lock connection lost');
        if (client === fresh) client = null;
        void fresh.end().catch(() => {});
      });
      await fresh.connect();
      client = fresh;
      return fresh;
    })().finally(() => (connecting = null));
    return connecting;
  };

  const countHit = postgresFixedWindowCounter(pool, { table: 'forja_chat_rate_windows', label: 'chat rate', log });

  return {
    backend: 'postgres',
    async tryLock(key) {
      const session = await lockClient();
      const { rows } = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LOCK_SPACE, key]);
      if (!rows[0]?.ok) return null;
      return async () => {
        // A session that died took its locks with it.
        if (client !== session) return;
        await session.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, key]).catch((error) => log.warn({ err: error }, 'chat lock release failed'));
      };
    },
    async hit(key, windowMs) {
      const { count, resetAt } = await countHit({ key, windowMs });
      return { count, resetAt };
    },
    async close() {
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
}
