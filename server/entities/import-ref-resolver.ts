import type { FieldModel } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import type { RequestContext } from '../http/request-context.ts';
import { scopeConditions, type RecordScope } from './entity-query.ts';
import { definitionOf, type EntityDefinition, type EntityDefinitions } from './entity-definition.ts';
import { isPlainObject } from './entity-validator.ts';
import type { ImportRowError } from './entity-importer.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';

export const REF_NO_MATCH_REASON = 'validation.refNoMatch';
export const REF_AMBIGUOUS_REASON = 'validation.refAmbiguous';

/** Values per `IN (...)`: far below SQLite's 32,766 bound parameters. */
const VALUES_PER_QUERY = 500;

type Resolution = { id: string } | { matches: number };

/** One row being imported: its create body and the problems found so far. */
export interface ImportItem {
  row: number;
  body: Record<string, unknown>;
  errors: ImportRowError[];
}

/**
 * Turns the refs of imported rows into ids. An export shows a ref by its target's display value
 * (a bot by its name), so an import accepts either: a value that is the id of a record the
 * caller's scope can reach stays as it is; otherwise it must be the display value of exactly one
 * such record. None is "no match", several is "ambiguous" (the row must then use the id), both
 * naming the row, the column and the value. JSON rows may carry populated refs ({ _id, name }):
 * their id is tried first, then their display value (a file exported from another installation).
 * Results are remembered for the whole import, so a million rows naming the same bot cost one query.
 */
export class ImportRefResolver {
  /** Keyed by target entity and display field, then by the value as written. */
  private readonly known = new Map<string, Map<string, Resolution>>();

  constructor(
    private readonly database: Database,
    private readonly definitions: EntityDefinitions,
    private readonly context: RequestContext,
  ) {}

  async resolve(definition: EntityDefinition, items: readonly ImportItem[]): Promise<void> {
    for (const field of definition.refFields) {
      const cache = this.cacheOf(field);
      const wanted = new Set<string>();
      for (const item of items) {
        const value = item.body[field.name];
        const written = fieldType(field.type).list ? (Array.isArray(value) ? value : []) : [value];
        for (const entry of written) for (const candidate of candidates(field, entry)) if (!cache.has(candidate)) wanted.add(candidate);
      }
      if (wanted.size > 0) await this.load(field, [...wanted], cache);
      for (const item of items) {
        const value = item.body[field.name];
        if (fieldType(field.type).list) {
          if (!Array.isArray(value)) continue;
          item.body[field.name] = value.map((entry, index) => this.pick(field, entry, cache, item, `${field.name}.${index}`));
        } else if (value !== undefined && value !== null && value !== '') {
          item.body[field.name] = this.pick(field, value, cache, item, field.name);
        }
      }
    }
  }

  /** The id for one written ref, or the value unchanged (with an error when it names no single record). */
  private pick(field: FieldModel, value: unknown, cache: Map<string, Resolution>, item: ImportItem, path: string): unknown {
    const tried = candidates(field, value);
    if (tried.length === 0) return value;
    for (const candidate of tried) {
      const found = cache.get(candidate);
      if (found && 'id' in found) return found.id;
    }
    const shown = tried.at(-1)!;
    const last = cache.get(shown);
    // `_id` as display: nothing to look up; the create's own check reports the missing record.
    if (field.ref!.display === '_id' || !last) return value;
    const matches = 'matches' in last ? last.matches : 0;
    item.errors.push(
      matches > 1
        ? { row: item.row, field: path, reason: REF_AMBIGUOUS_REASON, params: { value: shown, count: matches } }
        : { row: item.row, field: path, reason: REF_NO_MATCH_REASON, params: { value: shown } },
    );
    return value;
  }

  private async load(field: FieldModel, values: string[], cache: Map<string, Resolution>): Promise<void> {
    const { entity, display } = field.ref!;
    const target = definitionOf(this.definitions, entity);
    // As the create's own ref check: the caller's tenant (or every tenant for a platform caller).
    const scope: RecordScope = { tenantId: target.tenantColumn ? this.context.tenantId : null, ownerId: null };
    const byId = await this.select(target, scope, '_id', values, ['_id']);
    for (const row of byId) cache.set(String(row._id), { id: String(row._id) });
    const rest = values.filter((v) => !cache.has(v));
    const displayColumn = target.columns.get(display);
    // Only text columns are compared with text (PostgreSQL refuses text = number).
    if (display === '_id' || !displayColumn || displayColumn.type !== 'text' || !target.selectColumns.includes(display)) {
      for (const value of rest) cache.set(value, { matches: 0 });
      return;
    }
    const ids = new Map<string, string[]>();
    for (const row of await this.select(target, scope, display, rest, ['_id', display])) {
      const key = String(row[display]);
      ids.set(key, [...(ids.get(key) ?? []), String(row._id)]);
    }
    for (const value of rest) {
      const found = ids.get(value) ?? [];
      cache.set(value, found.length === 1 ? { id: found[0] } : { matches: found.length });
    }
  }

  private async select(target: EntityDefinition, scope: RecordScope, column: string, values: string[], columns: string[]) {
    const rows: Record<string, unknown>[] = [];
    for (let start = 0; start < values.length; start += VALUES_PER_QUERY) {
      const chunk = values.slice(start, start + VALUES_PER_QUERY);
      rows.push(
        ...(await this.database.all(
          this.database.kysely
            .selectFrom(target.table)
            .select(columns)
            .where((eb) => eb.and([eb(column, 'in', chunk), ...scopeConditions(target, scope, eb)]))
            .compile(),
        )),
      );
    }
    return rows;
  }

  private cacheOf(field: FieldModel): Map<string, Resolution> {
    const key = `${field.ref!.entity}\u0000${field.ref!.display}`;
    let cache = this.known.get(key);
    if (!cache) this.known.set(key, (cache = new Map()));
    return cache;
  }
}

/**
 * What one written ref (a ref cell, or one entry of an array.ref) may be, in the order tried: a string is an id or a display value; a
 * populated object is its id, then its display value. Anything else is left to validation.
 */
function candidates(field: FieldModel, value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  if (isPlainObject(value)) {
    const out: string[] = [];
    const id = value._id ?? value.id;
    if (typeof id === 'string' && id !== '') out.push(id);
    const shown = value[field.ref!.display];
    if (typeof shown === 'string' && shown !== '' && !out.includes(shown)) out.push(shown);
    return out;
  }
  return [];
}
