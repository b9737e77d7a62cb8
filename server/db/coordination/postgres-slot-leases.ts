import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { ReleaseSlot, SlotStore } from './coordination.ts';
import { inPostgresTransaction } from '../in-postgres-transaction.ts';

/** First key of the slot locks ('forl'): two-key advisory locks, a space apart from the chat's ('forj') and one-key locks. */
const LOCK_SPACE = 0x666f726c;
const TABLE = 'forja_slot_leases';
/** Epoch milliseconds by the database's clock, so every instance expires leases alike. */
const NOW_MS = '(extract(epoch from now()) * 1000)::bigint';

export interface PostgresSlotLeases extends SlotStore {
  /** Gives back this instance's leases (a graceful stop) and stops renewing. */
  close(): Promise<void>;
}

/**
 * Concurrency slots shared by every instance on one PostgreSQL database: a slot is a lease row
 * (name, expiry). Taking one counts the name's live leases under a transaction advisory lock on
 * the name, so two instances cannot both take the last slot. The instance renews its leases every
 * third of `ttlMs` while it holds them and deletes them when done; a lease of an instance that
 * died (kill -9, lost network) is no longer renewed and stops counting `ttlMs` after its last
 * renewal. Expiry is counted with the database's clock. The table is unlogged: leases need no
 * crash safety (after a database crash every slot is free, which errs on the lenient side).
 */
export function postgresSlotLeases(pool: pg.Pool, options: { ttlMs: number; log: FastifyBaseLogger }): PostgresSlotLeases {
  const { ttlMs, log } = options;
  const held = new Set<string>();
  let timer: NodeJS.Timeout | null = null;

  const renew = async () => {
    if (held.size === 0) return;
    await pool
      .query(`UPDATE ${TABLE} SET expires_at = ${NOW_MS} + $2 WHERE id = ANY($1)`, [[...held], ttlMs])
      .catch((error) => log.warn({ err: error }, 'concurrency slot leases not renewed'));
  };
  const startRenewing = () => {
    if (timer) return;
    timer = setInterval(() => void renew(), Math.max(50, Math.floor(ttlMs / 3)));
    timer.unref();
  };
  const stopRenewingWhenIdle = () => {
    if (held.size > 0 || !timer) return;
    clearInterval(timer);
    timer = null;
  };

  return {
    async take(name: string, max: number): Promise<ReleaseSlot | null> {
      const id = randomUUID();
      const taken = await inPostgresTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_SPACE, name]);
        await client.query(`DELETE FROM ${TABLE} WHERE name = $1 AND expires_at <= ${NOW_MS}`, [name]);
        const { rows } = await client.query<{ live: string }>(`SELECT count(*) AS live FROM ${TABLE} WHERE name = $1`, [name]);
        if (Number(rows[0].live) >= max) return false;
        await client.query(`INSERT INTO ${TABLE} (id, name, expires_at) VALUES ($1, $2, ${NOW_MS} + $3)`, [id, name, ttlMs]);
        return true;
      });
      if (!taken) return null;
      held.add(id);
      startRenewing();
      return () => {
        if (!held.delete(id)) return;
        stopRenewingWhenIdle();
        // Not awaited: the caller's work is done either way, and a lease left behind expires.
        void pool.query(`DELETE FROM ${TABLE} WHERE id = $1`, [id]).catch((error) => log.warn({ err: error }, 'concurrency slot lease not released'));
      };
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      const ids = [...held];
      held.clear();
      if (ids.length > 0) await pool.query(`DELETE FROM ${TABLE} WHERE id = ANY($1)`, [ids]).catch(() => {});
    },
  };
}
