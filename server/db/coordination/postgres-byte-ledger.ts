import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { ByteLedger } from './coordination.ts';

const TABLE = 'forja_byte_ledger';
/** Epoch milliseconds by the database's clock, so every instance counts the same window. */
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';
/** Entries older than every window are deleted every this many records (of this instance). */
const SWEEP_EVERY = 200;
/** Longest window any budget uses (uploads: a day); older entries are swept. */
const KEEP_MS = 2 * 24 * 3600_000;

/**
 * What each user uploaded, shared by every instance on one PostgreSQL database: one row per
 * stored file (key, time by the database's clock, bytes), summed over the window. Its table is
 * made at start (server/db/owned-tables.ts).
 */
export function postgresByteLedger(pool: pg.Pool, log: FastifyBaseLogger): ByteLedger {
  let records = 0;

  return {
    async used(key, windowMs) {
      const { rows } = await pool.query<{ used: string | null }>(`SELECT sum(bytes) AS used FROM ${TABLE} WHERE key = $1 AND at > ${NOW_MS} - $2`, [key, windowMs]);
      return Number(rows[0].used ?? 0);
    },
    async record(key, bytes) {
      await pool.query(`INSERT INTO ${TABLE} (key, at, bytes) VALUES ($1, ${NOW_MS}, $2)`, [key, bytes]);
      if (++records % SWEEP_EVERY === 0) {
        void pool.query(`DELETE FROM ${TABLE} WHERE at < ${NOW_MS} - $1`, [KEEP_MS]).catch((error) => log.warn({ err: error }, 'upload ledger sweep failed'));
      }
    },
  };
}
