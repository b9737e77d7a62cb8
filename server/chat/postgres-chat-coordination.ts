import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { ChatCoordination } from './chat-coordination.ts';
import { postgresSchemaOnce } from '../db/postgres-schema-once.ts';

/** First key of every chat lock ('forj'): the two-key advisory locks are a space apart from other features' one-key locks. */
const LOCK_SPACE = 0x666f726a;
const TABLE = 'forja_chat_rate_windows';
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';
/** Finished windows are deleted every this many hits. */
const SWEEP_EVERY = 500;

/**
 * The chat's lock and counter on PostgreSQL without Redis. Locks are session advisory locks taken
 * with pg_try_advisory_lock on one connection of this instance's own (not the pool's: a waiting
 * answer must not hold a pooled connection), so a lock dies with its instance's session. The
 * counter is a row per conversation in an unlogged table (counters need no crash safety), counted
 * in one upsert with the database's clock, so every instance counts in the same window.
 */
export function postgresChatCoordination(pool: pg.Pool, log: FastifyBaseLogger): ChatCoordination {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let hits = 0;

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

  const ensureTable = postgresSchemaOnce(pool, 'forja:chat:schema', [
    `CREATE UNLOGGED TABLE IF NOT EXISTS ${TABLE} (key text PRIMARY KEY, count integer NOT NULL, reset_at bigint NOT NULL)`,
  ]);

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
      await ensureTable();
      const { rows } = await pool.query<{ count: number; reset_at: string }>(
        `INSERT INTO ${TABLE} AS w (key, count, reset_at) VALUES ($1, 1, ${NOW_MS} + $2)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN w.reset_at <= ${NOW_MS} THEN 1 ELSE w.count + 1 END,
           reset_at = CASE WHEN w.reset_at <= ${NOW_MS} THEN ${NOW_MS} + $2 ELSE w.reset_at END
         RETURNING count, reset_at`,
        [key, windowMs],
      );
      if (++hits % SWEEP_EVERY === 0) {
        void pool.query(`DELETE FROM ${TABLE} WHERE reset_at < ${NOW_MS}`).catch((error) => log.warn({ err: error }, 'chat rate sweep failed'));
      }
      return { count: Number(rows[0].count), resetAt: Number(rows[0].reset_at) };
    },
    async close() {
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
}
