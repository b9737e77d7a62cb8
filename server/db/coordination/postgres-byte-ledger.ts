import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { ByteLedger } from './coordination.ts';
import { postgresSchemaOnce } from '../postgres-schema-once.ts';

const TABLE = 'forja_byte_ledger';
/** Epoch milliseconds by the database's clock, so every instance counts the same window. */
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';
/** Entries older than every window are deleted every this many records (of this instance). */
const SWEEP_EVERY = 200;
/** Longest window any budget uses (uploads: a day); older entries are swept. */
const KEEP_MS = 2 * 24 * 3600_000;

/**
 * What each user uploaded, shared by every instance on one PostgreSQL database: one row per
 * stored file (key, time by the database's clock, bytes), summed over the window. Logged (not
 * unlogged like the rate counters): a database restart must not hand every user a fresh quota.
 */
export function postgresByteLedger(pool: pg.Pool, log: FastifyBaseLogger): ByteLedger {
  let records = 0;

  const ensureTable = postgresSchemaOnce(pool, 'forja:byte-ledger:schema', [
    `CREATE TABLE IF NOT EXISTS ${TABLE} (key text NOT NULL, at bigint NOT NULL, bytes bigint NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ${TABLE}_key_at ON ${TABLE} (key, at)`,
  ]);

  return {
    async used(key, windowMs) {
      await ensureTable();
      const { rows } = await pool.query<{ used: string | null }>(`SELECT sum(bytes) AS used FROM ${TABLE} WHERE key = $1 AND at > ${NOW_MS} - $2`, [key, windowMs]);
      return Number(rows[0].used ?? 0);
    },
    async record(key, bytes) {
      await ensureTable();
      await pool.query(`INSERT INTO ${TABLE} (key, at, bytes) VALUES ($1, ${NOW_MS}, $2)`, [key, bytes]);
      if (++records % SWEEP_EVERY === 0) {
        void pool.query(`DELETE FROM ${TABLE} WHERE at < ${NOW_MS} - $1`, [KEEP_MS]).catch((error) => log.warn({ err: error }, 'upload ledger sweep failed'));
      }
    },
  };
}
