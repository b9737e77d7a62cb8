import pg from 'pg';

/** Rows per `rows` part of a dump. */
const ROW_BATCH = 500;

/** A column as a dump describes it: its name and its type as format_type() writes it. */
export interface DumpedColumn {
  name: string;
  type: string;
}

export type DumpPart = { type: 'table'; name: string; columns: DumpedColumn[] } | { type: 'rows'; table: string; rows: unknown[][] };

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Every table of the connection's schema, read in one REPEATABLE READ, READ ONLY transaction (one
 * snapshot for all of them) as text, so no pg_dump is needed: each table's columns, then its rows
 * in batches. For `npm run backup` (server/backup/create-backup.ts), which writes each part as it comes.
 */
export async function* dumpPostgres(url: string): AsyncGenerator<DumpPart> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`);
    for (const { name } of tables.rows) {
      // Generated columns (rag_chunk.tsv) are computed again on restore.
      const columns = await client.query<DumpedColumn>(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
         WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attnum`,
        [quote(name)],
      );
      yield { type: 'table', name, columns: columns.rows };
      const selected = columns.rows.map((c) => `${quote(c.name)}::text`).join(', ');
      await client.query(`DECLARE forja_backup NO SCROLL CURSOR FOR SELECT ${selected} FROM ${quote(name)}`);
      for (;;) {
        const { rows } = await client.query<unknown[]>({ text: `FETCH ${ROW_BATCH} FROM forja_backup`, rowMode: 'array' });
        if (rows.length > 0) yield { type: 'rows', table: name, rows };
        if (rows.length < ROW_BATCH) break;
      }
      await client.query('CLOSE forja_backup');
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

export interface PostgresLoad {
  /** The dump's tables and their columns (names and types already checked by the caller). */
  tables: ReadonlyMap<string, readonly DumpedColumn[]>;
  /** The dump's rows, read again from the start (a dump is read twice: tables first, then rows). */
  rows: () => AsyncIterable<{ table: string; rows: unknown[][] }>;
  /** Replace the tables the database already has (else a database holding tables is refused). */
  force: boolean;
  /** Makes this version's tables, indexes and generated columns on the (emptied) database. */
  createSchema: () => Promise<void>;
}

/**
 * Loads a dump into the database `url` (`npm run restore`, server/backup/restore-backup.ts): the
 * schema this version makes, then every table truncated and filled, in one transaction; serial
 * columns continue after the restored rows. Answers the rows restored per table.
 */
export async function loadPostgres(url: string, load: PostgresLoad): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counts: Record<string, number> = {};
  try {
    const present = (await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`)).rows.map((r) => r.name);
    if (present.length > 0 && !load.force) {
      throw new Error(`The database of DATABASE_URL has ${present.length} tables already; restore into an empty database, or add --force to replace Forja's tables`);
    }
    if (load.force) for (const name of present.filter((n) => load.tables.has(n))) await client.query(`DROP TABLE ${quote(name)} CASCADE`);
    await load.createSchema();
    await client.query('BEGIN');
    for (const [name, columns] of load.tables) {
      // A table this version no longer creates keeps its data, with the dump's column types.
      await client.query(`CREATE TABLE IF NOT EXISTS ${quote(name)} (${columns.map((c) => `${quote(c.name)} ${c.type}`).join(', ')})`);
      await client.query(`TRUNCATE ${quote(name)}`);
      counts[name] = 0;
    }
    for await (const part of load.rows()) {
      if (part.rows.length === 0) continue;
      const columns = load.tables.get(part.table)!.map((c) => quote(c.name));
      const width = columns.length;
      const values = part.rows.map((_row, r) => `(${columns.map((_c, i) => `$${r * width + i + 1}`).join(', ')})`);
      await client.query(`INSERT INTO ${quote(part.table)} (${columns.join(', ')}) VALUES ${values.join(', ')}`, part.rows.flat());
      counts[part.table] += part.rows.length;
    }
    // Serial columns (rag_chunk.id) continue after the restored rows.
    const serials = await client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`,
    );
    for (const { table_name: table, column_name: column } of serials.rows) {
      await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX(${quote(column)}) FROM ${quote(table)}), 0) + 1, false)`, [quote(table), column]);
    }
    await client.query('COMMIT');
    return counts;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
