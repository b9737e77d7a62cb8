import type { FieldModel } from '../../contract/model/entity-model.ts';
import { compileShape } from '../db/compiled-shapes.ts';
import type { Database } from '../db/database.ts';
import { definitionKey } from './entity-query.ts';
import { decodeBatch } from './record-codec.ts';
import { definitionOf, type EntityDefinition, type EntityDefinitions } from './entity-definition.ts';

/** SQLite allows 32766 parameters; keep IN lists well below it. */
const IDS_PER_QUERY = 1000;

/** What populating one definition's refs reads: per target entity, its fields and the columns to load. */
interface PopulatePlan {
  targets: { entity: string; fields: readonly FieldModel[]; columns: string[] }[];
  fields: { field: FieldModel; list: boolean; shown: readonly string[] }[];
}

/** Plans by definition and target definitions (a manifest applied to a running server builds new ones). */
const plans = new WeakMap<EntityDefinition, WeakMap<EntityDefinitions, PopulatePlan>>();

/** The plan of `definition`'s ref fields, made once instead of on every page. */
function planOf(definitions: EntityDefinitions, definition: EntityDefinition): PopulatePlan {
  let byRuntimes = plans.get(definition);
  if (!byRuntimes) plans.set(definition, (byRuntimes = new WeakMap()));
  let plan = byRuntimes.get(definitions);
  if (plan) return plan;
  const targets: PopulatePlan['targets'] = [];
  for (const field of definition.refFields) {
    const entity = field.ref!.entity;
    let target = targets.find((t) => t.entity === entity);
    if (!target) targets.push((target = { entity, fields: [], columns: ['_id'] }));
    (target.fields as FieldModel[]).push(field);
    const targetRuntime = definitionOf(definitions, entity);
    for (const name of [field.ref!.display, ...field.ref!.populate]) {
      if (targetRuntime.selectColumns.includes(name) && !target.columns.includes(name)) target.columns.push(name);
    }
  }
  const fields = definition.refFields.map((field) => ({ field, list: field.type === 'array.ref', shown: [field.ref!.display, ...field.ref!.populate] }));
  byRuntimes.set(definitions, (plan = { targets, fields }));
  return plan;
}

/**
 * Replaces ref ids by `{ _id, <display>, ...populate }` (null when the record is gone) and
 * array.ref id lists by lists of those, in place. One query per referenced entity per call,
 * whatever the number of records, so a page never costs N+1 queries.
 */
export async function populateRefs(
  database: Database,
  definitions: EntityDefinitions,
  definition: EntityDefinition,
  records: Record<string, unknown>[],
): Promise<void> {
  if (records.length === 0 || definition.refFields.length === 0) return;
  const plan = planOf(definitions, definition);
  // Two fields pointing at one entity share a query.
  const found = new Map<string, Map<string, Record<string, unknown>>>();
  for (const target of plan.targets) {
    const ids = new Set<string>();
    for (const field of target.fields) {
      for (const record of records) {
        const value = record[field.name];
        if (typeof value === 'string') ids.add(value);
        else if (Array.isArray(value)) for (const id of value) if (typeof id === 'string') ids.add(id);
      }
    }
    found.set(target.entity, ids.size === 0 ? new Map() : await loadByIds(database, definitionOf(definitions, target.entity), [...ids], target.columns));
  }
  for (const { field, list, shown } of plan.fields) {
    const byId = found.get(field.ref!.entity)!;
    const shape = (id: string) => {
      const target = byId.get(id);
      if (!target) return null;
      const out: Record<string, unknown> = { _id: id };
      for (const name of shown) out[name] = target[name] ?? null;
      return out;
    };
    for (const record of records) {
      const value = record[field.name];
      if (list) {
        record[field.name] = Array.isArray(value) ? value.map((id) => shape(String(id))).filter((v) => v !== null) : [];
      } else {
        record[field.name] = typeof value === 'string' ? shape(value) : null;
      }
    }
  }
}

/** Records of `definition` by id (decoded, only `columns`), queried in chunks of IDS_PER_QUERY; ids not found are absent. */
export async function loadByIds(database: Database, definition: EntityDefinition, ids: string[], columns: string[]): Promise<Map<string, Record<string, unknown>>> {
  const byId = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const chunk = ids.slice(start, start + IDS_PER_QUERY);
    const batch = await database.read(
      compileShape(database, `${definitionKey(definition)}|ids:${chunk.length}|c${columns.join(',')}`, chunk, (v) =>
        database.kysely.selectFrom(definition.table).select(columns).where('_id', 'in', chunk.map((_, i) => v(i))),
      ),
    );
    const records = decodeBatch(definition, database.dialect, batch);
    for (const record of records) byId.set(String(record._id), record);
  }
  return byId;
}
