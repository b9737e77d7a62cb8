import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../../server/db/database.ts';
import { migrateEntities } from '../../../server/db/migrate-entities.ts';
import { openSqliteDatabase } from '../../../server/db/sqlite-database.ts';
import { createEntityAjv } from '../../../server/entities/ajv-instance.ts';
import { defineEntities } from '../../../server/entities/entity-definition.ts';
import { EntityService } from '../../../server/entities/entity-service.ts';
import { entities } from '../../../server/generated/entities.ts';
import { schemas } from '../../../server/generated/schemas.ts';

export interface EntityTestDatabase {
  database: Database;
  service: EntityService;
  close(): Promise<void>;
}

/**
 * A migrated SQLite database of every entity in a temporary file of its own (the Database opens
 * more than one connection, so not ':memory:') and an EntityService on it: the entity engine
 * without HTTP, for tests of operations, hooks and transactions.
 */
export async function openEntityTestDatabase(prefix = 'forja-entities-'): Promise<EntityTestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const database = openSqliteDatabase(path.join(dir, 'forja.db'));
  await migrateEntities(database, Object.values(entities), { info() {}, warn() {} });
  const service = new EntityService(database, defineEntities(entities, schemas, createEntityAjv()));
  return {
    database,
    service,
    async close() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
