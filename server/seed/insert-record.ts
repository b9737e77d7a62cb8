import type { Database } from '../db/database.ts';
import type { EntityDefinition } from '../entities/entity-definition.ts';
import { newRecordId } from '../entities/new-record-id.ts';
import { encodeValues } from '../entities/record-codec.ts';

/**
 * Inserts a row as given, bypassing the entity service (validation, defaults, hooks): for tests
 * that plant data the service would refuse (rows of another tenant, rows an old release left).
 * Not for the server's own code, which writes through the service as system() (seeds included).
 */
export async function insertRecord(database: Database, definition: EntityDefinition, values: Record<string, unknown>): Promise<string> {
  const id = newRecordId();
  const now = new Date().toISOString();
  const row = encodeValues(definition, database.dialect, { ...values, _id: id, createdAt: now, updatedAt: now });
  await database.run(database.kysely.insertInto(definition.table).values(row).compile());
  return id;
}

export async function updateRecord(database: Database, definition: EntityDefinition, id: string, values: Record<string, unknown>): Promise<void> {
  const row = encodeValues(definition, database.dialect, { ...values, updatedAt: new Date().toISOString() });
  await database.run(database.kysely.updateTable(definition.table).set(row).where('_id', '=', id).compile());
}
