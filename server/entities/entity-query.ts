import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/database.ts';
import { containsPattern } from '../db/sql-dialect.ts';
import type { EntityRuntime } from './entity-runtime.ts';
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

/** WHERE conditions for scope + search + filters, as one list to AND together. */
export function listConditions(database: Database, runtime: EntityRuntime, scope: RecordScope, query: Pick<ListQuery, 'search' | 'filters'>) {
  return (eb: EB): Expression<SqlBool> => {
    const parts: Expression<SqlBool>[] = scopeConditions(runtime, scope, eb);
    const searchFields = runtime.model.searchFields;
    // An entity without search fields ignores the search box rather than matching nothing.
    if (query.search && searchFields.length > 0) {
      const pattern = containsPattern(query.search);
      parts.push(eb.or(searchFields.map((field) => database.dialect.containsInsensitive(field, pattern))));
    }
    for (const filter of query.filters) parts.push(filterCondition(database, runtime, filter, eb));
    return eb.and(parts);
  };
}

export function scopeConditions(runtime: EntityRuntime, scope: RecordScope, eb: EB): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [];
  if (runtime.tenantColumn && scope.tenantId !== null) parts.push(eb(runtime.tenantColumn, '=', scope.tenantId));
  if (runtime.ownerColumn && scope.ownerId !== null) parts.push(eb(runtime.ownerColumn, '=', scope.ownerId));
  if (typeof scope.recordId === 'string') parts.push(eb('_id', '=', scope.recordId));
  return parts;
}

function filterCondition(database: Database, runtime: EntityRuntime, filter: ParsedFilter, eb: EB): Expression<SqlBool> {
  const { column, operator, value } = filter;
  const type = runtime.columns.get(column)?.type ?? 'text';
  const encode = (v: unknown) => database.dialect.encode(type === 'json' ? 'text' : type, v);
  if (filter.list) {
    const values = (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
    const contains = database.dialect.jsonArrayContainsAny(column, values);
    return operator === 'eq' || operator === 'in' ? contains : eb.not(contains);
  }
  switch (operator) {
    case 'eq':
      return eb(column, '=', encode(value));
    // ne / nin keep rows where the field is empty: "not X" includes "nothing".
    case 'ne':
      return eb.or([eb(column, '!=', encode(value)), eb(column, 'is', null)]);
    case 'in':
      return eb(column, 'in', (value as unknown[]).map(encode));
    case 'nin':
      return eb.or([eb(column, 'not in', (value as unknown[]).map(encode)), eb(column, 'is', null)]);
    case 'gt':
      return eb(column, '>', encode(value));
    case 'gte':
      return eb(column, '>=', encode(value));
    case 'lt':
      return eb(column, '<', encode(value));
    case 'lte':
      return eb(column, '<=', encode(value));
    case 'like':
      return database.dialect.containsInsensitive(column, containsPattern(String(value)));
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
  runtime: EntityRuntime,
  scope: RecordScope,
  query: ListQuery,
  columns: readonly string[],
  options: { storageOrder?: boolean } = {},
) {
  let select = database.kysely
    .selectFrom(runtime.table)
    .select(columns as string[])
    .where(listConditions(database, runtime, scope, query));
  const ordered = !(options.storageOrder && !query.orderBy);
  if (ordered && query.orderBy) {
    // _id is never NULL: a NULLS clause would only stop the primary key from giving the order.
    select = database.dialect.explicitNullOrder && query.orderBy !== '_id'
      ? select.orderBy(query.orderBy, (ob) => (query.order === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
      : select.orderBy(query.orderBy, query.order);
  }
  if (ordered && query.orderBy !== '_id') select = select.orderBy('_id', query.order);
  if (query.limit > 0) select = select.limit(query.limit).offset(query.offset);
  return select;
}

export function countList(database: Database, runtime: EntityRuntime, scope: RecordScope, query: ListQuery) {
  return database.kysely
    .selectFrom(runtime.table)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where(listConditions(database, runtime, scope, query));
}
