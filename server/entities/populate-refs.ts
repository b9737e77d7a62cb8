import { compileShape } from '../db/compiled-shapes.ts';
import type { Database } from '../db/database.ts';
import { runtimeKey } from './entity-query.ts';
import { decodeRows } from './record-codec.ts';
import { runtimeOf, type EntityRuntime, type EntityRuntimeMap } from './entity-runtime.ts';

/** SQLite allows 32766 parameters; keep IN lists well below it. */
const IDS_PER_QUERY = 1000;

/**
 * Replaces ref ids by `{ _id, <display>, ...populate }` (null when the record is gone) and
 * array.ref id lists by lists of those, in place. One query per referenced entity per call,
 * whatever the number of records, so a page never costs N+1 queries.
 */
export async function populateRefs(
  database: Database,
  runtimes: EntityRuntimeMap,
  runtime: EntityRuntime,
  records: Record<string, unknown>[],
): Promise<void> {
  if (records.length === 0 || runtime.refFields.length === 0) return;
  // Group the wanted ids by target entity so two fields pointing at one entity share a query.
  const wanted = new Map<string, Set<string>>();
  for (const field of runtime.refFields) {
    const target = field.ref!.entity;
    let ids = wanted.get(target);
    if (!ids) wanted.set(target, (ids = new Set()));
    for (const record of records) {
      for (const id of idsOf(record[field.name])) ids.add(id);
    }
  }
  const found = new Map<string, Map<string, Record<string, unknown>>>();
  for (const [target, ids] of wanted) {
    const targetRuntime = runtimeOf(runtimes, target);
    const columns = new Set(['_id']);
    for (const field of runtime.refFields) {
      if (field.ref!.entity !== target) continue;
      for (const name of [field.ref!.display, ...field.ref!.populate]) {
        if (targetRuntime.selectColumns.includes(name)) columns.add(name);
      }
    }
    found.set(target, await loadByIds(database, targetRuntime, [...ids], [...columns]));
  }
  for (const field of runtime.refFields) {
    const ref = field.ref!;
    const byId = found.get(ref.entity)!;
    const shape = (id: string) => {
      const target = byId.get(id);
      if (!target) return null;
      const out: Record<string, unknown> = { _id: id };
      for (const name of [ref.display, ...ref.populate]) out[name] = target[name] ?? null;
      return out;
    };
    for (const record of records) {
      const value = record[field.name];
      if (field.type === 'array.ref') {
        record[field.name] = Array.isArray(value) ? value.map((id) => shape(String(id))).filter((v) => v !== null) : [];
      } else {
        record[field.name] = typeof value === 'string' ? shape(value) : null;
      }
    }
  }
}

/** Records of `runtime` by id (decoded, only `columns`), queried in chunks of IDS_PER_QUERY; ids not found are absent. */
export async function loadByIds(database: Database, runtime: EntityRuntime, ids: string[], columns: string[]): Promise<Map<string, Record<string, unknown>>> {
  const byId = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const chunk = ids.slice(start, start + IDS_PER_QUERY);
    const rows = await database.all(
      compileShape(database, `${runtimeKey(runtime)}|ids:${chunk.length}|c${columns.join(',')}`, chunk, (v) =>
        database.kysely.selectFrom(runtime.table).select(columns).where('_id', 'in', chunk.map((_, i) => v(i))),
      ),
    );
    const records = decodeRows(runtime, database.dialect, rows);
    for (const record of records) byId.set(String(record._id), record);
  }
  return byId;
}

function idsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}
