import type { EntityService } from '../entities/entity-service.ts';
import { MAX_LIMIT } from '../entities/list-query.ts';
import { system } from '../entities/system-context.ts';
import { SETTING_DEFINITIONS } from './setting-definitions.ts';

/**
 * Creates missing settings with their default value and refreshes the metadata of existing ones
 * (label, category, type, options, regex...) so a new release can change them; a stored value is
 * never overwritten. Through the entity service as system(): the metadata fields are read-only
 * for every client, and system() is the caller allowed to set them (server/entities/README.md).
 * A refresh is server-derived state, not an edit, so it keeps updatedAt (touch: false) and is
 * skipped when nothing changed.
 */
export async function seedSettings(service: EntityService): Promise<void> {
  const definitions = Object.values(SETTING_DEFINITIONS);
  // The whole table: a few dozen rows, one per known key (plus any a newer release left).
  const stored = await service.find('setting', system(), { limit: MAX_LIMIT, offset: 0, orderBy: null, order: 'asc', search: null, filters: [] });
  const existing = new Map(stored.map((record) => [String(record.key), record]));
  for (const definition of definitions) {
    const metadata: Record<string, unknown> = {
      label: definition.label,
      category: definition.category,
      type: definition.type,
      options: definition.options ?? null,
      regex: definition.regex ?? null,
      prefix: definition.prefix ?? null,
      suffix: definition.suffix ?? null,
    };
    const record = existing.get(definition.key);
    if (!record) {
      await service.create('setting', system(), { key: definition.key, value: definition.value, ...metadata });
    } else if (Object.entries(metadata).some(([field, value]) => JSON.stringify(record[field] ?? null) !== JSON.stringify(value))) {
      await service.update('setting', system(), String(record._id), metadata, { touch: false });
    }
  }
}
