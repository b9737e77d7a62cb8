import type { Database } from '../db/database.ts';
import { databaseQueryDuration } from './metrics.ts';

const TIMED = ['all', 'read', 'first', 'run', 'runAll'] as const;

/**
 * Times the Database's query methods into forja_db_query_duration_seconds, in place (the same
 * object: the engine's own helpers in server/db still find their handles). Only with metrics on; one
 * histogram observe per call, labelled by method, never by SQL text (unbounded label values).
 */
export function instrumentDatabase(database: Database): Database {
  const engine = database.dialect.name;
  for (const operation of TIMED) {
    const original = database[operation].bind(database) as (...args: unknown[]) => Promise<unknown>;
    const labels = { operation, engine };
    (database as unknown as Record<string, unknown>)[operation] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await original(...args);
      } finally {
        databaseQueryDuration.observe(labels, (performance.now() - started) / 1000);
      }
    };
  }
  return database;
}
