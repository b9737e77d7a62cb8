import type { CompiledQuery, Compilable } from 'kysely';
import type { Database } from './database.ts';

/** Shapes remembered per database; past this the cache starts over (shapes come from code and manifests, few). */
const MAX_SHAPES = 2000;

/** Where one value goes in a compiled shape: marker objects stand in for the values at the first compile. */
class Slot {
  constructor(readonly index: number) {}
}

interface Shape {
  sql: string;
  query: CompiledQuery['query'];
  queryId: CompiledQuery['queryId'];
  /** Per parameter: a slot index, or the constant Kysely put there (a literal of the builder). */
  parameters: ReadonlyArray<{ slot: number } | { constant: unknown }>;
}

const caches = new WeakMap<Database, Map<string, Shape | null>>();

/**
 * A compiled query per query shape: Kysely builds and compiles a query's operation tree on every
 * call, which was near the top of the request path's profile (issue 30), though a list page, a
 * GET by id or a ref lookup has the same SQL every time with other values. `key` names the shape
 * (everything that changes the SQL text: table, columns, which conditions, operators, list
 * lengths, order); `values` are the values in the caller's order; `build` builds the query with
 * `value(i)` wherever values[i] goes. The first call for a key compiles it with markers in the
 * value places and remembers where each marker went; later calls only fill the values in.
 * A shape whose values do not come out as plain parameters (a dialect that turns a value into
 * text, such as PostgreSQL's JSON containment) is compiled afresh on every call, as before.
 */
export function compileShape(
  database: Database,
  key: string,
  values: readonly unknown[],
  build: (value: (index: number) => unknown) => Compilable,
): CompiledQuery {
  let cache = caches.get(database);
  if (!cache) caches.set(database, (cache = new Map()));
  let shape = cache.get(key);
  if (shape === undefined) {
    if (cache.size >= MAX_SHAPES) cache.clear();
    shape = learnShape(values.length, build);
    cache.set(key, shape);
  }
  if (shape === null) return build((index) => values[index]).compile();
  const parameters = new Array<unknown>(shape.parameters.length);
  for (let i = 0; i < parameters.length; i++) {
    const p = shape.parameters[i];
    parameters[i] = 'slot' in p ? values[p.slot] : p.constant;
  }
  return { sql: shape.sql, query: shape.query, queryId: shape.queryId, parameters };
}

function learnShape(count: number, build: (value: (index: number) => unknown) => Compilable): Shape | null {
  const slots = Array.from({ length: count }, (_, index) => new Slot(index));
  const compiled = build((index) => slots[index]).compile();
  const used = new Set<number>();
  const parameters = compiled.parameters.map((p) => {
    if (p instanceof Slot) {
      used.add(p.index);
      return { slot: p.index };
    }
    return { constant: p };
  });
  // Every value must have landed as a parameter of its own; otherwise the dialect did something
  // with it (stringified it into a JSON literal, say) and the shape cannot be reused.
  if (used.size !== count || compiled.parameters.some((p) => !(p instanceof Slot) && typeof p === 'object' && p !== null)) return null;
  return { sql: compiled.sql, query: compiled.query, queryId: compiled.queryId, parameters };
}
