import type { FieldModel } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import { definitionOf, type EntityDefinitions } from './entity-definition.ts';
import { loadByIds } from './populate-refs.ts';

/** Bounds memory on exports referencing millions of distinct records (e.g. one conversation each). */
const MAX_ENTRIES_PER_TARGET = 100_000;

/** What an id resolves to when no record of the target entity has it. */
export const MISSING: unique symbol = Symbol('missing ref');

/**
 * The display value of referenced records, remembered for the length of one export. An export
 * references the same few bots and statuses a million times; populating refs per batch of rows
 * (as list pages do) would re-read them a thousand times, this reads each once. Like list pages,
 * it resolves any id: a ref is shown by what it points at, not filtered by the caller's scope.
 */
export class RefDisplayCache {
  /** Keyed by target entity and display field: two fields may show one entity differently. */
  private readonly targets = new Map<string, Map<string, unknown>>();

  constructor(
    private readonly database: Database,
    private readonly definitions: EntityDefinitions,
  ) {}

  /** Makes `display` answer for every id in `wanted` (ids by ref field) with as few queries as possible. */
  async prime(wanted: ReadonlyMap<FieldModel, Iterable<string>>): Promise<void> {
    const missingByTarget = new Map<Map<string, unknown>, { field: FieldModel; ids: Set<string> }>();
    for (const [field, ids] of wanted) {
      const known = this.known(field);
      let entry = missingByTarget.get(known);
      for (const id of ids) {
        if (known.has(id)) continue;
        if (!entry) missingByTarget.set(known, (entry = { field, ids: new Set() }));
        entry.ids.add(id);
      }
    }
    for (const [known, { field, ids }] of missingByTarget) {
      // Past the bound, start over rather than evict: the batch's own ids are all loaded again.
      if (known.size + ids.size > MAX_ENTRIES_PER_TARGET) {
        known.clear();
        for (const [other, otherIds] of wanted) if (this.known(other) === known) for (const id of otherIds) ids.add(id);
      }
      await this.load(field, [...ids], known);
    }
  }

  /** A lookup for `field`'s target: the display value (null when the record has none) of an id, or MISSING. Prime first. */
  lookup(field: FieldModel): (id: string) => unknown {
    const known = this.known(field);
    return (id) => (known.has(id) ? known.get(id) : MISSING);
  }

  private async load(field: FieldModel, ids: string[], known: Map<string, unknown>): Promise<void> {
    const { entity, display } = field.ref!;
    const target = definitionOf(this.definitions, entity);
    // `_id` as the display needs no second column: the id shows itself.
    const shown = display !== '_id' && target.selectColumns.includes(display);
    const found = await loadByIds(this.database, target, ids, shown ? ['_id', display] : ['_id']);
    for (const id of ids) {
      const record = found.get(id);
      known.set(id, record === undefined ? MISSING : shown ? (record[display] ?? null) : null);
    }
  }

  private known(field: FieldModel): Map<string, unknown> {
    const key = `${field.ref!.entity}\u0000${field.ref!.display}`;
    let known = this.targets.get(key);
    if (!known) this.targets.set(key, (known = new Map()));
    return known;
  }
}
