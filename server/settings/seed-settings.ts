import type { Database } from '../db/database.ts';
import type { EntityRuntime } from '../entities/entity-runtime.ts';
import { insertRecord, updateRecord } from '../seed/insert-record.ts';
import { SETTING_DEFINITIONS } from './setting-definitions.ts';

/**
 * Creates missing settings with their default value and refreshes the metadata of existing ones
 * (label, category, type, options, regex...) so a new release can change them; a stored value is
 * never overwritten.
 */
export async function seedSettings(database: Database, runtime: EntityRuntime): Promise<void> {
  const rows = await database.all(database.kysely.selectFrom(runtime.table).select(['_id', 'key']).compile());
  const existing = new Map(rows.map((row) => [String(row.key), String(row._id)]));
  for (const definition of Object.values(SETTING_DEFINITIONS)) {
    const metadata = {
      label: definition.label,
      category: definition.category,
      type: definition.type,
      options: definition.options ?? null,
      regex: definition.regex ?? null,
      prefix: definition.prefix ?? null,
      suffix: definition.suffix ?? null,
    };
    const id = existing.get(definition.key);
    if (id) await updateRecord(database, runtime, id, metadata);
    else await insertRecord(database, runtime, { key: definition.key, value: definition.value, ...metadata });
  }
}
