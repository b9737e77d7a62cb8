import { sql, type Kysely } from 'kysely';
import { ACTIVE_JOB_STATES } from '../../contract/jobs/job-view.ts';
import { ANALYZER_VERSION } from '../rag/search/analyzer-version.ts';
import type { Database } from './database.ts';
import type { SqlDialect } from './sql-dialect.ts';

/** Statements for every engine (an array) or per engine (an engine left out has none). */
type Ddl = readonly string[] | Readonly<Partial<Record<string, readonly string[]>>>;

/**
 * A table Forja keeps besides the entities' (those come from the manifests, server/db/migrate-entities.ts).
 * Every statement is idempotent (IF NOT EXISTS, or run only where its column is missing), so
 * createOwnedTables can run on every start.
 */
export interface OwnedTable {
  readonly name: string;
  /** Who reads and writes it. */
  readonly usedBy: string;
  /** Makes the table when it is missing; an engine with no statements has no such table. */
  readonly create: Ddl;
  /** Columns added since the first version, in order: each one's statements run where the column is missing (a table made by an older version). */
  readonly added?: ReadonlyArray<{ readonly column: string; readonly ddl: Ddl }>;
  /** Indexes, once every column they cover exists. */
  readonly indexes?: Ddl;
}

const RAG_TS_CONFIG = 'simple';
const ragTsv = `tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('${RAG_TS_CONFIG}', COALESCE(terms, ''))) STORED`;
const JOB_STATES_ACTIVE = `(${ACTIVE_JOB_STATES.map((state) => `'${state}'`).join(', ')})`;

/**
 * Every table Forja owns besides the entities, in the order they are made: created and brought up
 * to date here, at start (createOwnedTables, under the start-up lock), never by the feature that
 * uses it. Adding one: an entry here, and its module reads and writes it. Adding a column: an
 * `added` entry (never an edit of `create`, which databases made before have already run).
 */
export const OWNED_TABLES: readonly OwnedTable[] = [
  {
    name: 'forja_migrations',
    usedBy: 'server/db/migrate-entities.ts: the schema migrations applied, with a snapshot of the entity columns',
    create: {
      sqlite: ['CREATE TABLE IF NOT EXISTS forja_migrations (seq INTEGER PRIMARY KEY, applied_at TEXT NOT NULL, steps TEXT NOT NULL, snapshot TEXT NOT NULL)'],
      postgres: ['CREATE TABLE IF NOT EXISTS forja_migrations (seq BIGINT PRIMARY KEY, applied_at TEXT NOT NULL, steps TEXT NOT NULL, snapshot TEXT NOT NULL)'],
    },
  },
  {
    name: 'forja_jobs',
    usedBy: 'server/jobs/job-store.ts: the durable job queue',
    // The same DDL on both engines: TEXT, INTEGER and BIGINT mean the same there.
    create: [
      `CREATE TABLE IF NOT EXISTS forja_jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        state TEXT NOT NULL,
        user_id TEXT,
        tenant_id TEXT,
        singleton_key TEXT,
        subject TEXT,
        payload TEXT,
        context TEXT NOT NULL,
        progress_done BIGINT NOT NULL DEFAULT 0,
        progress_total BIGINT NOT NULL DEFAULT 0,
        phase TEXT,
        result TEXT,
        error TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL DEFAULT 1,
        run_after BIGINT NOT NULL,
        heartbeat_at BIGINT,
        worker TEXT,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        started_at BIGINT,
        finished_at BIGINT
      )`,
    ],
    indexes: [
      // One queued or running job per singleton key, across every instance (the database decides).
      `CREATE UNIQUE INDEX IF NOT EXISTS forja_jobs_singleton ON forja_jobs (singleton_key) WHERE state IN ${JOB_STATES_ACTIVE}`,
      'CREATE INDEX IF NOT EXISTS forja_jobs_due ON forja_jobs (state, run_after)',
      'CREATE INDEX IF NOT EXISTS forja_jobs_user ON forja_jobs (user_id, created_at)',
      'CREATE INDEX IF NOT EXISTS forja_jobs_key ON forja_jobs (singleton_key, created_at)',
    ],
  },
  {
    name: 'user_token_versions',
    usedBy: 'server/identity/token-versions.ts: access tokens revoked by a password change',
    create: ['CREATE TABLE IF NOT EXISTS user_token_versions ("userId" text PRIMARY KEY, version integer NOT NULL, "keepTokenHash" text)'],
  },
  {
    name: 'password_recovery_codes',
    usedBy: 'server/identity/recovery-codes.ts: single-use password-recovery codes (hashed)',
    create: ['CREATE TABLE IF NOT EXISTS password_recovery_codes ("codeHash" text PRIMARY KEY, "userId" text NOT NULL, "expiresAt" text NOT NULL)'],
  },
  {
    name: 'chat_email_codes',
    usedBy: 'server/chat/email-codes.ts: the chat visitors\u2019 e-mail verification codes',
    create: [
      `CREATE TABLE IF NOT EXISTS chat_email_codes ("conversationId" text PRIMARY KEY, email text NOT NULL, "codeHash" text NOT NULL,
        "expiresAt" text NOT NULL, "issuedAt" text NOT NULL, attempts integer NOT NULL, issued integer NOT NULL)`,
    ],
  },
  {
    name: 'rag_knowledge',
    usedBy: 'server/db/retrieval/: one row per trained knowledge base (slot, live generation, counts)',
    create: {
      sqlite: [
        `CREATE TABLE IF NOT EXISTS rag_knowledge (knowledge_id TEXT PRIMARY KEY, slot INTEGER NOT NULL UNIQUE, generation INTEGER NOT NULL DEFAULT 0,
          rows INTEGER NOT NULL DEFAULT 0, chunks INTEGER NOT NULL DEFAULT 0, trained_at TEXT)`,
      ],
      postgres: [
        `CREATE TABLE IF NOT EXISTS rag_knowledge (knowledge_id TEXT PRIMARY KEY, slot BIGINT NOT NULL UNIQUE, generation BIGINT NOT NULL DEFAULT 0,
          rows BIGINT NOT NULL DEFAULT 0, chunks BIGINT NOT NULL DEFAULT 0, trained_at TEXT)`,
      ],
    },
    added: [
      // Added with languages. SQLite: rows from before keep analyzer 0 and are searched as they were
      // trained until trained again; PostgreSQL's chunks are analysed again at once (PostgresFtsIndex.ready).
      {
        column: 'analyzer',
        ddl: {
          sqlite: ['ALTER TABLE rag_knowledge ADD COLUMN analyzer INTEGER NOT NULL DEFAULT 0'],
          postgres: [`ALTER TABLE rag_knowledge ADD COLUMN analyzer INTEGER NOT NULL DEFAULT ${ANALYZER_VERSION}`],
        },
      },
      { column: 'languages', ddl: ['ALTER TABLE rag_knowledge ADD COLUMN languages TEXT'] },
    ],
  },
  {
    name: 'rag_chunk',
    usedBy: 'server/db/retrieval/: every chunk of every knowledge base, with the generation that added it',
    create: {
      sqlite: [
        `CREATE TABLE IF NOT EXISTS rag_chunk (id INTEGER PRIMARY KEY, slot INTEGER NOT NULL, generation INTEGER NOT NULL, hash TEXT NOT NULL,
          content TEXT NOT NULL, source TEXT NOT NULL, UNIQUE (slot, hash))`,
      ],
      // The first version searched a tsv over the content; `terms` replaces it (added below).
      postgres: [
        `CREATE TABLE IF NOT EXISTS rag_chunk (id BIGSERIAL PRIMARY KEY, slot BIGINT NOT NULL, generation BIGINT NOT NULL, hash TEXT NOT NULL,
          content TEXT NOT NULL, source TEXT NOT NULL, language TEXT, terms TEXT, ${ragTsv}, UNIQUE (slot, hash))`,
      ],
    },
    added: [
      { column: 'language', ddl: { sqlite: ['ALTER TABLE rag_chunk ADD COLUMN language TEXT'] } },
      {
        // The chunk's terms from its language's analyzer (server/language); `tsv` is made from them.
        // SQLite keeps the terms in its FTS5 tables (rag_fts_<slot>), made per knowledge by SqliteFtsIndex.
        column: 'terms',
        ddl: {
          postgres: [
            'ALTER TABLE rag_chunk ADD COLUMN IF NOT EXISTS language TEXT, ADD COLUMN terms TEXT',
            'ALTER TABLE rag_chunk DROP COLUMN tsv',
            `ALTER TABLE rag_chunk ADD COLUMN ${ragTsv}`,
          ],
        },
      },
    ],
    indexes: { postgres: ['CREATE INDEX IF NOT EXISTS rag_chunk_tsv ON rag_chunk USING GIN (tsv)'] },
  },
  {
    name: 'rag_vector',
    usedBy: 'server/db/retrieval/sqlite-vector-store.ts: chunk embeddings per model (hybrid retrieval, SQLite only)',
    create: {
      sqlite: [
        `CREATE TABLE IF NOT EXISTS rag_vector (knowledge_id TEXT NOT NULL, hash TEXT NOT NULL, model TEXT NOT NULL, vector BLOB NOT NULL,
          PRIMARY KEY (knowledge_id, hash, model))`,
      ],
    },
  },
  // Coordination between instances (server/db/coordination/README.md): PostgreSQL only, SQLite is one process.
  {
    name: 'forja_rate_windows',
    usedBy: 'server/db/coordination/postgres-rate-limit-store.ts: HTTP rate-limit windows',
    create: { postgres: ['CREATE UNLOGGED TABLE IF NOT EXISTS forja_rate_windows (key text PRIMARY KEY, count integer NOT NULL, reset_at bigint NOT NULL)'] },
  },
  {
    name: 'forja_chat_rate_windows',
    usedBy: 'server/db/coordination/postgres-locks-and-counters.ts: messages per conversation',
    create: { postgres: ['CREATE UNLOGGED TABLE IF NOT EXISTS forja_chat_rate_windows (key text PRIMARY KEY, count integer NOT NULL, reset_at bigint NOT NULL)'] },
  },
  {
    name: 'forja_slot_leases',
    usedBy: 'server/db/coordination/postgres-slot-leases.ts: concurrency slots per user',
    create: { postgres: ['CREATE UNLOGGED TABLE IF NOT EXISTS forja_slot_leases (id text PRIMARY KEY, name text NOT NULL, expires_at bigint NOT NULL)'] },
    indexes: { postgres: ['CREATE INDEX IF NOT EXISTS forja_slot_leases_name ON forja_slot_leases (name, expires_at)'] },
  },
  {
    // Logged, unlike the counters: a database restart must not hand every user a fresh quota.
    name: 'forja_byte_ledger',
    usedBy: 'server/db/coordination/postgres-byte-ledger.ts: bytes uploaded per user',
    create: { postgres: ['CREATE TABLE IF NOT EXISTS forja_byte_ledger (key text NOT NULL, at bigint NOT NULL, bytes bigint NOT NULL)'] },
    indexes: { postgres: ['CREATE INDEX IF NOT EXISTS forja_byte_ledger_key_at ON forja_byte_ledger (key, at)'] },
  },
];

const BY_NAME = new Map(OWNED_TABLES.map((table) => [table.name, table]));

/** Where the statements run: a Database, or a transaction of one (Kysely's `sql.raw(...).execute`). */
export interface SchemaTarget {
  /** The engine (Database.dialect.name): picks each table's statements. */
  readonly engine: string;
  run(statement: string): Promise<void>;
  /** The columns `table` has now (none when it does not exist). */
  columns(table: string): Promise<ReadonlySet<string>>;
}

/** The SchemaTarget of a Database: its own connection (or the caller's transaction, see Database.transaction). */
export function schemaTargetOf(database: Database): SchemaTarget {
  const { dialect, kysely } = database;
  return {
    engine: dialect.name,
    run: async (statement) => void (await database.run(sql.raw(statement).compile(kysely))),
    columns: async (table) => new Set((await database.all(dialect.columnsOf(table).compile(kysely))).map((row) => String(row.name))),
  };
}

/** The SchemaTarget of a Kysely connection or transaction (the schema migrations run in one). */
export function schemaTargetOnKysely(kysely: Kysely<any>, dialect: SqlDialect): SchemaTarget {
  return {
    engine: dialect.name,
    run: async (statement) => void (await sql.raw(statement).execute(kysely)),
    columns: async (table) => new Set((await dialect.columnsOf(table).execute(kysely)).rows.map((row) => row.name)),
  };
}

function statementsOf(ddl: Ddl | undefined, engine: string): readonly string[] {
  if (!ddl) return [];
  return Array.isArray(ddl) ? (ddl as readonly string[]) : ((ddl as Record<string, readonly string[]>)[engine] ?? []);
}

/**
 * Creates the tables Forja owns besides the entities and brings older ones up to date (every one
 * of OWNED_TABLES, or the named ones). Idempotent; run at start under the start-up lock
 * (server/http/create-server.ts), so instances starting together take turns.
 */
export async function createOwnedTables(target: Database | SchemaTarget, names?: readonly string[]): Promise<void> {
  const schema = 'kysely' in target ? schemaTargetOf(target) : target;
  const tables = names ? names.map(ownedTable) : OWNED_TABLES;
  for (const table of tables) {
    const create = statementsOf(table.create, schema.engine);
    if (create.length === 0) continue;
    for (const statement of create) await schema.run(statement);
    if (table.added?.some(({ ddl }) => statementsOf(ddl, schema.engine).length > 0)) {
      const columns = await schema.columns(table.name);
      for (const { column, ddl } of table.added) {
        if (columns.has(column)) continue;
        for (const statement of statementsOf(ddl, schema.engine)) await schema.run(statement);
      }
    }
    for (const statement of statementsOf(table.indexes, schema.engine)) await schema.run(statement);
  }
}

/** The entry of an owned table; a name not in OWNED_TABLES is a programming error. */
export function ownedTable(name: string): OwnedTable {
  const table = BY_NAME.get(name);
  if (!table) throw new Error(`"${name}" is not one of Forja's own tables (known: ${[...BY_NAME.keys()].join(', ')}); add it to OWNED_TABLES in server/db/owned-tables.ts`);
  return table;
}
