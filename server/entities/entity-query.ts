import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/database.ts';
import { compileShape } from '../db/compiled-shapes.ts';
import { containsPattern } from '../db/sql-dialect.ts';
import type { EntityDefinition } from './entity-definition.ts';
import type { ListQuery } from './list-query.ts';
import type { ParsedFilter } from './parse-filters.ts';

/** Rows a caller may touch: their tenant and, for "own only" callers, their own records. */
export interface RecordScope {
  tenantId: string | null;
  ownerId: string | null;
  /** Only this record (EntityHooks.scope: a tenant user reaches their own tenant record only). */
  recordId?: string | null;
}

type EB = ExpressionBuilder<any, any>;

const definitionKeys = new WeakMap<EntityDefinition, string>();
let nextDefinition = 0;

/**
 * A definition's part of a shape key: its identity, not its table name. A manifest applied to the
 * running server (npm run dev) builds new definitions whose columns may differ.
 */
export function definitionKey(definition: EntityDefinition): string {
  let key = definitionKeys.get(definition);
  if (key === undefined) definitionKeys.set(definition, (key = `${definition.table}#${nextDefinition++}`));
  return key;
}

/**
 * A list query reduced to its shape and its values: `key` names everything that changes the SQL
 * (compiled-shapes.ts caches one compiled query per key), `values` are the values in slot order,
 * and the slot numbers say where each goes. -1: not part of this query.
 */
interface ListPlan {
  key: string;
  values: unknown[];
  tenant: number;
  owner: number;
  record: number;
  /** The search pattern's slot (one pattern for every search field). */
  search: number;
  /** Per filter, the slots of its value(s). */
  filters: { filter: ParsedFilter; slots: number[] }[];
  limit: number;
  offset: number;
}

function listPlan(database: Database, definition: EntityDefinition, scope: RecordScope, query: Pick<ListQuery, 'search' | 'filters'> & Partial<ListQuery>): ListPlan {
  const values: unknown[] = [];
  const slot = (value: unknown) => values.push(value) - 1;
  let key = definitionKey(definition);
  const tenant = definition.tenantColumn && scope.tenantId !== null ? slot(scope.tenantId) : -1;
  const owner = definition.ownerColumn && scope.ownerId !== null ? slot(scope.ownerId) : -1;
  const record = typeof scope.recordId === 'string' ? slot(scope.recordId) : -1;
  key += `|s${tenant >= 0 ? 't' : ''}${owner >= 0 ? 'o' : ''}${record >= 0 ? 'r' : ''}`;
  // An entity without search fields ignores the search box rather than matching nothing.
  const search = query.search && definition.model.searchFields.length > 0 ? slot(containsPattern(query.search)) : -1;
  if (search >= 0) key += '|q';
  const filters = query.filters.map((filter) => {
    const { column, operator, value } = filter;
    const type = definition.columns.get(column)?.type ?? 'text';
    const encode = (v: unknown) => database.dialect.encode(type === 'json' ? 'text' : type, v);
    let slots: number[];
    if (filter.list) {
      slots = (Array.isArray(value) ? value : [value]).map((v) => slot(typeof v === 'boolean' ? (v ? 1 : 0) : v));
    } else if (operator === 'in' || operator === 'nin') {
      slots = (value as unknown[]).map((v) => slot(encode(v)));
    } else {
      slots = [slot(operator === 'like' ? containsPattern(String(value)) : encode(value))];
    }
    key += `|f${column}:${operator}:${filter.list ? 'l' : ''}${slots.length}`;
    return { filter, slots };
  });
  return { key, values, tenant, owner, record, search, filters, limit: -1, offset: -1 };
}

/** The scope's conditions of a plan (as scopeConditions gives them for values). */
function scopeParts(definition: EntityDefinition, plan: ListPlan, v: (slot: number) => unknown, eb: EB): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [];
  if (plan.tenant >= 0) parts.push(eb(definition.tenantColumn!, '=', v(plan.tenant)));
  if (plan.owner >= 0) parts.push(eb(definition.ownerColumn!, '=', v(plan.owner)));
  if (plan.record >= 0) parts.push(eb('_id', '=', v(plan.record)));
  return parts;
}

/** WHERE conditions for scope + search + filters of a plan, with `v(slot)` for each value, as one list to AND together. */
function planConditions(database: Database, definition: EntityDefinition, plan: ListPlan, v: (slot: number) => unknown) {
  return (eb: EB): Expression<SqlBool> => {
    const parts = scopeParts(definition, plan, v, eb);
    if (plan.search >= 0) {
      const pattern = v(plan.search) as string;
      parts.push(eb.or(definition.model.searchFields.map((field) => database.dialect.containsInsensitive(field, pattern))));
    }
    for (const { filter, slots } of plan.filters) parts.push(filterCondition(database, filter, slots.map(v), eb));
    return eb.and(parts);
  };
}

export function scopeConditions(definition: EntityDefinition, scope: RecordScope, eb: EB): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [];
  if (definition.tenantColumn && scope.tenantId !== null) parts.push(eb(definition.tenantColumn, '=', scope.tenantId));
  if (definition.ownerColumn && scope.ownerId !== null) parts.push(eb(definition.ownerColumn, '=', scope.ownerId));
  if (typeof scope.recordId === 'string') parts.push(eb('_id', '=', scope.recordId));
  return parts;
}

/** One filter's condition; `values` are its value(s) already encoded (listPlan). */
function filterCondition(database: Database, filter: ParsedFilter, values: unknown[], eb: EB): Expression<SqlBool> {
  const { column, operator } = filter;
  if (filter.list) {
    const contains = database.dialect.jsonArrayContainsAny(column, values);
    return operator === 'eq' || operator === 'in' ? contains : eb.not(contains);
  }
  const [value] = values;
  switch (operator) {
    case 'eq':
      return eb(column, '=', value);
    // ne / nin keep rows where the field is empty: "not X" includes "nothing".
    case 'ne':
      return eb.or([eb(column, '!=', value), eb(column, 'is', null)]);
    case 'in':
      return eb(column, 'in', values);
    case 'nin':
      return eb.or([eb(column, 'not in', values), eb(column, 'is', null)]);
    case 'gt':
      return eb(column, '>', value);
    case 'gte':
      return eb(column, '>=', value);
    case 'lt':
      return eb(column, '<', value);
    case 'lte':
      return eb(column, '<=', value);
    case 'like':
      return database.dialect.containsInsensitive(column, value as string);
    default: {
      const never: never = operator;
      throw new Error(`Unhandled filter operator ${String(never)}`);
    }
  }
}

/**
 * SELECT of one page / find with scope, search, filters, order (ties broken by _id) and limit.
 * `storageOrder` (export without orderBy) skips ORDER BY: rows come in storage order, which is
 * insertion order, and a full scan then needs no index lookups per row.
 */
export function selectList(
  database: Database,
  definition: EntityDefinition,
  scope: RecordScope,
  query: ListQuery,
  columns: readonly string[],
  options: { storageOrder?: boolean } = {},
) {
  const plan = listPlan(database, definition, scope, query);
  return buildSelect(database, definition, plan, query, columns, options, (slot) => plan.values[slot]);
}

/** selectList compiled, through the cache of compiled shapes (the page and find of every list request). */
export function compileSelectList(database: Database, definition: EntityDefinition, scope: RecordScope, query: ListQuery, columns: readonly string[]) {
  const plan = listPlan(database, definition, scope, query);
  if (query.limit > 0) {
    plan.limit = plan.values.push(query.limit) - 1;
    plan.offset = plan.values.push(query.offset) - 1;
  }
  const key = `${plan.key}|c${columns === definition.selectColumns ? '*' : columns.join(',')}|o${query.orderBy ?? ''}:${query.order}|l${plan.limit >= 0 ? 1 : 0}`;
  return compileShape(database, key, plan.values, (v) => buildSelect(database, definition, plan, query, columns, {}, v));
}

function buildSelect(
  database: Database,
  definition: EntityDefinition,
  plan: ListPlan,
  query: ListQuery,
  columns: readonly string[],
  options: { storageOrder?: boolean },
  v: (slot: number) => unknown,
) {
  let select = database.kysely
    .selectFrom(definition.table)
    .select(columns as string[])
    .where(planConditions(database, definition, plan, v));
  const ordered = !(options.storageOrder && !query.orderBy);
  if (ordered && query.orderBy) {
    // _id is never NULL: a NULLS clause would only stop the primary key from giving the order.
    select = database.dialect.explicitNullOrder && query.orderBy !== '_id'
      ? select.orderBy(query.orderBy, (ob) => (query.order === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
      : select.orderBy(query.orderBy, query.order);
  }
  if (ordered && query.orderBy !== '_id') select = select.orderBy('_id', query.order);
  if (query.limit > 0) {
    select = plan.limit >= 0
      ? select.limit(v(plan.limit) as number).offset(v(plan.offset) as number)
      : select.limit(query.limit).offset(query.offset);
  }
  return select;
}

/** The total of a list query, compiled through the cache of compiled shapes. */
export function compileCountList(database: Database, definition: EntityDefinition, scope: RecordScope, query: ListQuery) {
  const plan = listPlan(database, definition, scope, query);
  return compileShape(database, `${plan.key}|count`, plan.values, (v) =>
    database.kysely
      .selectFrom(definition.table)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where(planConditions(database, definition, plan, v)),
  );
}

/** One record by id within a scope (GET by id, update, delete), compiled through the cache of compiled shapes. */
export function compileSelectById(database: Database, definition: EntityDefinition, scope: RecordScope, id: string, columns: readonly string[]) {
  const plan = listPlan(database, definition, scope, { search: null, filters: [] });
  const idSlot = plan.values.push(id) - 1;
  return compileShape(database, `${plan.key}|id|c${columns === definition.selectColumns ? '*' : columns.join(',')}`, plan.values, (v) =>
    database.kysely
      .selectFrom(definition.table)
      .select(columns as string[])
      .where((eb) => eb.and([eb('_id', '=', v(idSlot)), ...scopeParts(definition, plan, v, eb)])),
  );
}
