import type { Kysely } from 'kysely';
import type { ColumnType, EntityModel, FieldType } from '../../contract/model/entity-model.ts';
import { createOwnedTables, schemaTargetOnKysely } from './owned-tables.ts';
import type { SqlDialect } from './sql-dialect.ts';

/**
 * The record of what the schema migrations applied: one row per applied plan, with its steps
 * and a snapshot of every entity table's columns as they then were. The snapshot is how the
 * next plan knows a field's previous type (the database alone cannot tell an enum from a string).
 */
export const MIGRATIONS_TABLE = 'forja_migrations';

/** One column as applied: its field type (null for system columns) and what a conversion checks. */
export interface ColumnSnapshot {
  name: string;
  fieldType: FieldType | null;
  column: ColumnType;
  /** Allowed values of an enum / array.enum field. */
  values: string[] | null;
  /** Stored as any JSON (`storage: "json"`): every value is accepted whatever the type. */
  json: boolean;
}

/** Table name -> its columns as applied (removed fields kept until pruned stay listed). */
export type SchemaSnapshot = Record<string, ColumnSnapshot[]>;

/** The columns of `model` as the manifests now declare them. */
export function snapshotOf(model: EntityModel): ColumnSnapshot[] {
  const fields = new Map(model.fields.map((field) => [field.name, field]));
  return model.storage.columns.map((column) => {
    const field = fields.get(column.name);
    return {
      name: column.name,
      fieldType: field?.type ?? null,
      column: column.type,
      values: field?.values ?? null,
      json: field?.json ?? false,
    };
  });
}

/** Makes the migrations table, as server/db/owned-tables.ts declares it, on `kysely` (the migrations' transaction). */
export async function createMigrationsTable(kysely: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await createOwnedTables(schemaTargetOnKysely(kysely, dialect), [MIGRATIONS_TABLE]);
}

export interface AppliedMigration {
  seq: number;
  snapshot: SchemaSnapshot;
}

/** The last applied snapshot, or null before the first migration (or without the table: --plan on a new database). */
export async function readLastMigration(kysely: Kysely<any>, tables: ReadonlySet<string>): Promise<AppliedMigration | null> {
  if (!tables.has(MIGRATIONS_TABLE)) return null;
  const row = await kysely.selectFrom(MIGRATIONS_TABLE).select(['seq', 'snapshot']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  if (!row) return null;
  return { seq: Number(row.seq), snapshot: JSON.parse(String(row.snapshot)) as SchemaSnapshot };
}

export async function recordMigration(kysely: Kysely<any>, seq: number, steps: readonly string[], snapshot: SchemaSnapshot): Promise<void> {
  await kysely
    .insertInto(MIGRATIONS_TABLE)
    .values({ seq, applied_at: new Date().toISOString(), steps: JSON.stringify(steps), snapshot: JSON.stringify(snapshot) })
    .execute();
}
