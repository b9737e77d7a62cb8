import { sql, type Kysely } from 'kysely';
import type { EntityModel, IndexModel } from '../../contract/model/entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import { UNCONVERTIBLE, unchanged, type Convert } from '../../contract/field-types/convert-value.ts';
import type { Database } from './database.ts';
import type { SqlDialect } from './sql-dialect.ts';
import { MIGRATIONS_TABLE, readLastMigration, snapshotOf, type ColumnSnapshot, type SchemaSnapshot } from './schema-snapshot.ts';

/** One change the plan makes to the database, in the order applyPlan runs them. */
export type MigrationStep =
  | { kind: 'createTable'; entity: string; table: string; columns: number; indexes: number }
  | { kind: 'rename'; entity: string; table: string; from: string; to: string }
  | {
    kind: 'convert'; entity: string; table: string; column: string; from: ColumnSnapshot; to: ColumnSnapshot;
    /** Rows holding a value; each converts (checked when planned). */
    rows: number;
    /** The converted value of every row whose stored value changes ([_id, value]). */
    updates: Array<[string, unknown]>;
  }
  | { kind: 'addColumn'; entity: string; table: string; column: string; columnType: string }
  | { kind: 'backfill'; entity: string; table: string; column: string; value: unknown; rows: number }
  | { kind: 'createIndex'; entity: string; table: string; index: IndexModel };

/** A change the plan will not make: applying it would lose or corrupt data, or it cannot be understood. */
export interface MigrationRefusal {
  file: string;
  entity: string;
  field: string;
  message: string;
}

export interface MigrationPlan {
  steps: MigrationStep[];
  /** Columns no field declares any more: kept with their data until `npm run db:prune`. */
  kept: Array<{ table: string; column: string }>;
  refusals: MigrationRefusal[];
  /** The snapshot to record once applied, and the last one recorded (null: none yet). */
  snapshot: SchemaSnapshot;
  previous: { seq: number; snapshot: SchemaSnapshot } | null;
}

/** Thrown by migrateEntities when the plan refuses a change; nothing was applied. */
export class MigrationRefusedError extends Error {
  constructor(readonly refusals: MigrationRefusal[]) {
    super(`The database was not changed: ${refusals.length} change(s) in the manifests cannot be applied safely.\n${refusals.map(formatRefusal).join('\n')}`);
    this.name = 'MigrationRefusedError';
  }
}

export function formatRefusal(refusal: MigrationRefusal): string {
  return `  ✖ ${refusal.file}: entity "${refusal.entity}", field "${refusal.field}": ${refusal.message}`;
}

/** Compares the models with the database and says what migrateEntities would do; changes nothing. */
export async function planMigrations(database: Database, models: readonly EntityModel[]): Promise<MigrationPlan> {
  return planOn(database.kysely, database.dialect, models);
}

/** planMigrations on a given connection or transaction (migrateEntities plans and applies under one lock). */
export async function planOn(kysely: Kysely<any>, dialect: SqlDialect, models: readonly EntityModel[]): Promise<MigrationPlan> {
  const tables = new Map((await kysely.introspection.getTables()).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
  const previous = await readLastMigration(kysely, new Set(tables.keys()));
  const plan: MigrationPlan = { steps: [], kept: [], refusals: [], snapshot: { ...(previous?.snapshot ?? {}) }, previous };
  const later: MigrationStep[] = [];
  for (const model of models) {
    const { table } = model.storage;
    const present = tables.get(table);
    const declared = snapshotOf(model);
    if (!present) {
      plan.steps.push({ kind: 'createTable', entity: model.name, table, columns: model.storage.columns.length, indexes: model.storage.indexes.length });
      plan.snapshot[table] = declared;
      continue;
    }
    await planTable(kysely, dialect, model, present, declared, previous?.snapshot[table] ?? null, plan, later);
  }
  plan.steps.push(...later);
  return plan;
}

async function planTable(
  kysely: Kysely<any>, dialect: SqlDialect, model: EntityModel, present: ReadonlySet<string>, declared: ColumnSnapshot[],
  applied: ColumnSnapshot[] | null, plan: MigrationPlan, later: MigrationStep[],
): Promise<void> {
  const { table } = model.storage;
  const file = `manifests/${model.name}.json`;
  // Before the first recorded migration the database is taken to hold what the model declares.
  const before = new Map((applied ?? declared).map((c) => [c.name, c]));
  const refuse = (field: string, message: string) => plan.refusals.push({ file, entity: model.name, field, message });
  const consumed = new Set<string>();
  const snapshot: ColumnSnapshot[] = [];
  for (const column of model.storage.columns) {
    const target = declared.find((c) => c.name === column.name)!;
    snapshot.push(target);
    if (column.primaryKey) continue;
    const from = column.renamedFrom;
    if (present.has(column.name)) {
      if (from && present.has(from)) {
        refuse(column.name, `"renamedFrom": "${from}" but table ${table} has both columns ${from} and ${column.name}, so the data cannot be moved without overwriting one. ` +
          `Fix: remove "renamedFrom" (then \`npm run db:prune\` can drop ${from}), or drop or empty one of the two columns first.`);
        continue;
      }
      await planConversion(kysely, dialect, model, column.name, column.name, before.get(column.name) ?? target, target, plan, refuse);
      continue;
    }
    if (from && present.has(from)) {
      consumed.add(from);
      plan.steps.push({ kind: 'rename', entity: model.name, table, from, to: column.name });
      await planConversion(kysely, dialect, model, from, column.name, before.get(from) ?? target, target, plan, refuse);
      continue;
    }
    if (from) {
      refuse(column.name, `"renamedFrom": "${from}" but table ${table} has no column ${from} to move (its columns: ${[...present].join(', ')}). ` +
        `Fix: correct the old name, or remove "renamedFrom" to add ${column.name} as a new, empty field.`);
      continue;
    }
    plan.steps.push({ kind: 'addColumn', entity: model.name, table, column: column.name, columnType: column.type });
    const field = model.fields.find((f) => f.name === column.name);
    if (field && field.default !== null && field.default !== undefined) {
      const rows = await countRows(kysely, table);
      if (rows > 0) plan.steps.push({ kind: 'backfill', entity: model.name, table, column: column.name, value: field.default, rows });
    }
  }
  const names = new Set(model.storage.columns.map((c) => c.name));
  for (const name of present) {
    if (names.has(name) || consumed.has(name)) continue;
    plan.kept.push({ table, column: name });
    const last = before.get(name);
    if (last) snapshot.push(last);
  }
  plan.snapshot[table] = snapshot;
  const indexes = await indexNames(kysely, dialect, table);
  for (const index of model.storage.indexes) {
    if (!indexes.has(index.name)) later.push({ kind: 'createIndex', entity: model.name, table, index });
  }
}

/**
 * A field whose type (or integer flag, or enum values) changed since it was applied: every stored
 * value must convert, else the change is refused with the count and one example.
 */
async function planConversion(
  kysely: Kysely<any>, dialect: SqlDialect, model: EntityModel, source: string, column: string,
  from: ColumnSnapshot, to: ColumnSnapshot, plan: MigrationPlan, refuse: (field: string, message: string) => void,
): Promise<void> {
  if (to.fieldType === null || from.fieldType === null) return;
  const sameValues = JSON.stringify(from.values) === JSON.stringify(to.values);
  if (from.fieldType === to.fieldType && from.column === to.column && (sameValues || to.values === null) && from.json === to.json) return;
  const convert: Convert | undefined = to.json ? unchanged : fieldType(to.fieldType).convertsFrom[from.fieldType];
  const change = describeChange(from, to);
  if (!convert) {
    const accepted = Object.keys(fieldType(to.fieldType).convertsFrom);
    refuse(column, `the type cannot change ${change} (a ${to.fieldType} field accepts stored values of: ${accepted.join(', ') || 'no other type'}). ` +
      `Fix: keep "type": "${from.fieldType}", or add a new field of type ${to.fieldType} beside it and copy the values over.`);
    return;
  }
  const target = { values: to.values, integer: to.column === 'integer' };
  const rows = await kysely.selectFrom(model.storage.table).select(['_id', source]).where(source, 'is not', null).execute();
  const updates: Array<[string, unknown]> = [];
  let failed = 0;
  let example: { id: string; value: unknown } | null = null;
  for (const row of rows) {
    const stored = dialect.decode(from.column, row[source]);
    const converted = convert(stored, target);
    if (converted === UNCONVERTIBLE) {
      failed++;
      example ??= { id: String(row._id), value: stored };
      continue;
    }
    if (from.column !== to.column || JSON.stringify(converted) !== JSON.stringify(stored)) updates.push([String(row._id), converted]);
  }
  if (example) {
    refuse(column, `${failed} of ${rows.length} stored value(s) do not convert ${change}, e.g. record ${example.id} holds ${JSON.stringify(example.value)}. ` +
      `Fix: correct or clear those values first (in the console or with an import), or keep the previous type.`);
    return;
  }
  plan.steps.push({ kind: 'convert', entity: model.name, table: model.storage.table, column, from, to, rows: rows.length, updates });
}

function describeChange(from: ColumnSnapshot, to: ColumnSnapshot): string {
  const name = (c: ColumnSnapshot) => (c.values ? `${c.fieldType} [${c.values.join(', ')}]` : c.fieldType === 'number' ? `number (${c.column})` : String(c.fieldType));
  return `from ${name(from)} to ${name(to)}`;
}

async function countRows(kysely: Kysely<any>, table: string): Promise<number> {
  const row = await kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Names of the indexes on `table`. */
export async function indexNames(kysely: Kysely<any>, dialect: SqlDialect, table: string): Promise<Set<string>> {
  const query = dialect.explicitNullOrder
    ? sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${table}`
    : sql<{ name: string }>`SELECT name FROM pragma_index_list(${table})`;
  return new Set((await query.execute(kysely)).rows.map((r) => String(r.name)));
}

/** The plan as people read it: one line per step, then the kept columns; "" when there is nothing to do. */
export function formatPlan(plan: MigrationPlan): string {
  const lines = plan.steps.map(describeStep);
  for (const { table, column } of plan.kept) {
    lines.push(`  keep         ${table}.${column}: no field declares it any more; its data stays until \`npm run db:prune\``);
  }
  lines.push(...plan.refusals.map(formatRefusal));
  return lines.join('\n');
}

function describeStep(step: MigrationStep): string {
  switch (step.kind) {
    case 'createTable': return `  create table ${step.table} (entity ${step.entity}: ${step.columns} columns, ${step.indexes} indexes)`;
    case 'rename': return `  rename       ${step.table}.${step.from} -> ${step.to} (data moved)`;
    case 'convert': return `  convert      ${step.table}.${step.column} ${describeChange(step.from, step.to)}: ${step.rows} value(s), all convertible`;
    case 'addColumn': return `  add column   ${step.table}.${step.column} (${step.columnType})`;
    case 'backfill': return `  backfill     ${step.table}.${step.column} = ${JSON.stringify(step.value)} in ${step.rows} existing row(s)`;
    case 'createIndex': return `  add index    ${step.index.name} on ${step.table} (${step.index.columns.join(', ')})`;
  }
}

export { MIGRATIONS_TABLE };
