import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import { buildInputSchema, buildRecordSchema } from '../../generator/emit/json-schema.ts';
import { modelsFromManifests } from '../../generator/models-from-manifests.ts';
import { MIGRATIONS_TABLE } from '../../server/db/schema-snapshot.ts';
import { formatPlan, planMigrations } from '../../server/db/plan-migrations.ts';
import type { Database } from '../../server/db/database.ts';
import type { EntitySchemas } from '../../server/generated/schemas.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create } from './helpers/fixtures.ts';
import { TEST_BACKEND, withOtherConnection } from './helpers/test-database.ts';

// A product person's round trip on a scratch copy of manifests/ and locales/: add fields (one with
// a default), rename one, change a type, have a lossy change refused, remove a field and prune it,
// each time through the commands README.md "Change or rename a field" gives.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-evolution-root-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-evolution-data-'));
fs.cpSync(path.join(repo, 'manifests'), path.join(root, 'manifests'), { recursive: true });
fs.cpSync(path.join(repo, 'locales'), path.join(root, 'locales'), { recursive: true });
afterAll(async () => {
  // The last server's close removes the data (and its PostgreSQL database).
  const last = await startTestServer({ dataDir, ...project() });
  await last.close();
  fs.rmSync(root, { recursive: true, force: true });
});

type ManifestField = Record<string, unknown> & { name: string };
const contactFile = path.join(root, 'manifests/contact.json');
const original = JSON.parse(fs.readFileSync(contactFile, 'utf8'));

/** Writes manifests/contact.json with these extra fields (and their labels in every locale). */
function editContact(extra: ManifestField[], drop: string[] = []): void {
  const manifest = structuredClone(original);
  manifest.fields = [...manifest.fields.filter((f: ManifestField) => !drop.includes(f.name)), ...extra];
  fs.writeFileSync(contactFile, JSON.stringify(manifest, null, 2));
  for (const locale of ['en', 'es']) {
    const file = path.join(root, `locales/${locale}.json`);
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const field of extra) {
      json.field.contact[field.name] = field.name;
      for (const value of (field.values as string[] | undefined) ?? []) {
        ((json.enum.contact ??= {})[field.name] ??= {})[value] = value;
      }
    }
    fs.writeFileSync(file, JSON.stringify(json, null, 2));
  }
}

/** The models and schemas `npm run generate` would emit for the scratch manifests. */
function project(): { entities: EntityModelMap; schemas: Record<string, EntitySchemas> } {
  const entities = modelsFromManifests(root);
  if (!entities) throw new Error('the scratch manifests do not validate (see the output above)');
  const schemas = Object.fromEntries(Object.values(entities).map((model) => [model.name, {
    create: buildInputSchema(model, 'create'), update: buildInputSchema(model, 'update'), record: buildRecordSchema(model, entities),
  }]));
  return { entities, schemas };
}

/** Runs an npm script of the README the way a person would, on the test's database. */
function npm(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const marker = path.join(dataDir, '.forja-test-database-url');
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: TEST_BACKEND === 'postgres' ? fs.readFileSync(marker, 'utf8').trim() : '' };
  return new Promise((resolve) => {
    const options = args.includes('--') ? ['--root', root] : ['--', '--root', root];
    execFile('npm', ['run', '--silent', ...args, ...options], { cwd: repo, env, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The same plan in-process (each npm call costs seconds): the text the command prints, "" when nothing is to do. */
async function planText(): Promise<string> {
  const plan = await withOtherConnection(dataDir, (db) => planMigrations(db, Object.values(project().entities)));
  return formatPlan(plan);
}

async function columnsOf(database: Database, table: string): Promise<Record<string, string>> {
  const tables = await database.kysely.introspection.getTables();
  const found = tables.find((t) => t.name === table)!;
  return Object.fromEntries(found.columns.map((c) => [c.name, c.dataType.toLowerCase()]));
}

const migrations = (database: Database) =>
  database.kysely.selectFrom(MIGRATIONS_TABLE).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n));

const priority: ManifestField = { name: 'priority', type: 'enum', label: 'field.contact.priority', values: ['low', 'normal', 'high'], default: 'normal', filterable: true };
const website: ManifestField = { name: 'website', type: 'string', label: 'field.contact.website', searchable: true };
const homepage: ManifestField = { name: 'homepage', type: 'string', label: 'field.contact.homepage', searchable: true, renamedFrom: 'website' };
const scoreText: ManifestField = { name: 'score', type: 'string', label: 'field.contact.score' };
const scoreNumber: ManifestField = { ...scoreText, type: 'number' };
const ids: Record<string, string> = {};
let server: TestServer;

describe.sequential('changing fields of an entity with data in it', { timeout: 180_000 }, () => {
  it('a new field with a default is written into every existing row; the plan says so before', async () => {
    server = await startTestServer({ dataDir, ...project() });
    for (const name of ['Ann', 'Bob', 'Cy']) ids[name] = (await create(server, '/api/contacts', { name, email: `${name.toLowerCase()}@example.com` }))._id;
    await server.close({ keepData: true });

    editContact([priority, website, scoreText]);
    const plan = await npm('generate', '--', '--plan');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('add column   contacts.priority (text)');
    expect(plan.stdout).toContain('backfill     contacts.priority = "normal" in 3 existing row(s)');
    expect(plan.stdout).toContain('add column   contacts.website (text)');
    expect(plan.stdout).toContain('add index    idx_contacts_priority_createdAt on contacts (priority, createdAt)');
    expect(plan.stdout).not.toContain('backfill     contacts.website');
    // Planning changed nothing.
    expect(await withOtherConnection(dataDir, (db) => columnsOf(db, 'contacts'))).not.toHaveProperty('priority');

    server = await startTestServer({ dataDir, ...project() });
    for (const name of ['Ann', 'Bob', 'Cy']) {
      expect((await server.get(`/api/contacts/${ids[name]}`)).body).toMatchObject({ name, priority: 'normal', website: null, score: null });
    }
    ids.Dee = (await create(server, '/api/contacts', { name: 'Dee', priority: 'high', website: 'https://dee.example', score: '12' }))._id;
    await server.put(`/api/contacts/${ids.Ann}`, { website: 'https://ann.example', score: '3.5', priority: 'low' });
    await server.put(`/api/contacts/${ids.Bob}`, { score: ' 7 ' });
    await server.close({ keepData: true });
    // Nothing is left to do: the plan is empty and a restart adds no migration.
    expect(await planText()).toBe('');
  });

  it('"renamedFrom" moves the column and its data to the new name', async () => {
    editContact([priority, homepage, scoreText]);
    const plan = await planText();
    expect(plan).toContain('rename       contacts.website -> homepage (data moved)');
    expect(plan).not.toContain('add column');
    server = await startTestServer({ dataDir, ...project() });
    expect((await server.get(`/api/contacts/${ids.Ann}`)).body).toMatchObject({ homepage: 'https://ann.example', priority: 'low' });
    expect((await server.get(`/api/contacts/${ids.Dee}`)).body).toMatchObject({ homepage: 'https://dee.example' });
    expect((await server.get('/api/contacts?search=dee.example')).body.total).toBe(1);
    await server.close({ keepData: true });
    const columns = await withOtherConnection(dataDir, (db) => columnsOf(db, 'contacts'));
    expect(columns).toHaveProperty('homepage');
    expect(columns).not.toHaveProperty('website');
    // "renamedFrom" may stay in the manifest: once moved, there is nothing left to move.
    expect(await planText()).toBe('');
  });

  it('a type change is applied when every stored value converts', async () => {
    editContact([priority, homepage, scoreNumber]);
    expect(await planText()).toContain('convert      contacts.score from string to number (real): 3 value(s), all convertible');
    server = await startTestServer({ dataDir, ...project() });
    expect((await server.get(`/api/contacts/${ids.Ann}`)).body.score).toBe(3.5);
    expect((await server.get(`/api/contacts/${ids.Bob}`)).body.score).toBe(7);
    expect((await server.get(`/api/contacts/${ids.Dee}`)).body.score).toBe(12);
    expect((await server.get(`/api/contacts/${ids.Cy}`)).body.score).toBeNull();
    expect((await server.post('/api/contacts', { name: 'Eve', score: 'high' })).status).toBe(400);
    await server.close({ keepData: true });
    const stored = await withOtherConnection(dataDir, async (db) => ({
      type: (await columnsOf(db, 'contacts')).score,
      // Stored as numbers, so they compare as numbers (text would put "12" before "7").
      above: (await db.kysely.selectFrom('contacts').select('name').where('score', '>', 5).orderBy('score').execute()).map((r) => r.name),
    }));
    expect(stored.type).toBe(TEST_BACKEND === 'postgres' ? 'float8' : 'real');
    expect(stored.above).toEqual(['Bob', 'Dee']);
  });

  const lossy: Array<{ change: string; fields: ManifestField[]; field: string; message: RegExp; viaNpm?: true }> = [
    {
      change: 'enum to number',
      fields: [{ ...priority, type: 'number', values: undefined, default: undefined }, homepage, scoreNumber],
      field: 'priority',
      viaNpm: true,
      message: /4 of 4 stored value\(s\) do not convert from enum \[low, normal, high\] to number \(real\), e.g. record \S+ holds "(low|normal|high)"/,
    },
    {
      change: 'enum values narrowed',
      fields: [{ ...priority, values: ['normal', 'high'] }, homepage, scoreNumber],
      field: 'priority',
      message: /1 of 4 stored value\(s\) do not convert from enum \[low, normal, high\] to enum \[normal, high\], e.g. record \S+ holds "low"/,
    },
    {
      change: 'real to integer',
      fields: [priority, homepage, { ...scoreNumber, validation: { integer: true } }],
      field: 'score',
      message: /1 of 3 stored value\(s\) do not convert from number \(real\) to number \(integer\), e.g. record \S+ holds 3.5/,
    },
    {
      change: 'string to object (no conversion)',
      fields: [priority, { ...homepage, type: 'object', objectFields: [{ name: 'url', type: 'string', label: 'field.contact.homepage' }] }, scoreNumber],
      field: 'homepage',
      message: /the type cannot change from string to object/,
    },
  ];
  for (const variant of lossy) {
    it(`a lossy type change (${variant.change}) is refused by the plan and the start, naming the file, entity and field; nothing changes`, async () => {
      const before = await withOtherConnection(dataDir, async (db) => ({
        count: await migrations(db), columns: await columnsOf(db, 'contacts'),
        rows: await db.kysely.selectFrom('contacts').selectAll().orderBy('_id').execute(),
      }));
      // A harmless change beside it (a new field with a default) is not applied either.
      editContact([...variant.fields, { name: 'extra', type: 'string', label: 'field.contact.extra', default: 'x' }]);
      const expected = `manifests/contact.json: entity "contact", field "${variant.field}": `;
      if (variant.viaNpm) {
        const plan = await npm('generate', '--', '--plan');
        expect(plan.code).toBe(1);
        expect(plan.stderr).toContain(expected);
        expect(plan.stderr).toMatch(variant.message);
        expect(plan.stderr).toContain('Fix: ');
      } else {
        expect(await planText()).toMatch(variant.message);
      }
      const start = await startTestServer({ dataDir, ...project() }).then(() => null, (error: Error) => error);
      expect(start?.name).toBe('MigrationRefusedError');
      expect(start?.message).toContain(expected);
      expect(start?.message).toMatch(variant.message);
      const after = await withOtherConnection(dataDir, async (db) => ({
        count: await migrations(db), columns: await columnsOf(db, 'contacts'),
        rows: await db.kysely.selectFrom('contacts').selectAll().orderBy('_id').execute(),
      }));
      expect(after).toEqual(before);
    });
  }

  it('a removed field keeps its column and data until `npm run db:prune -- --yes` drops it', async () => {
    editContact([priority, scoreNumber]);
    expect(await planText()).toContain('keep         contacts.homepage: no field declares it any more');
    server = await startTestServer({ dataDir, ...project() });
    expect((await server.get(`/api/contacts/${ids.Ann}`)).body).not.toHaveProperty('homepage');
    await server.close({ keepData: true });

    const look = await npm('db:prune');
    expect(look.code, look.stderr).toBe(0);
    expect(look.stdout).toContain('contacts.homepage: 2 row(s) with a value, e.g. ');
    expect(look.stdout).toMatch(/"https:\/\/(ann|dee)\.example"/);
    expect(look.stdout).toContain('Nothing was dropped');
    const kept = await withOtherConnection(dataDir, (db) => db.kysely.selectFrom('contacts').select('homepage').where('_id', '=', ids.Ann).executeTakeFirst());
    expect(kept?.homepage).toBe('https://ann.example');

    const prune = await npm('db:prune', '--', '--yes');
    expect(prune.code, prune.stderr).toBe(0);
    expect(prune.stdout).toContain('dropped 1 column(s)');
    expect(await withOtherConnection(dataDir, (db) => columnsOf(db, 'contacts'))).not.toHaveProperty('homepage');
    expect(await planText()).toBe('');
    // The data of the other fields is untouched.
    server = await startTestServer({ dataDir, ...project() });
    expect((await server.get(`/api/contacts/${ids.Ann}`)).body).toMatchObject({ name: 'Ann', priority: 'low', score: 3.5 });
    await server.close({ keepData: true });
  });

  it.runIf(TEST_BACKEND === 'postgres')('instances starting together apply a plan once', async () => {
    editContact([priority, scoreNumber, { name: 'tier', type: 'enum', label: 'field.contact.tier', values: ['gold', 'silver'], default: 'silver' }]);
    const before = await withOtherConnection(dataDir, migrations);
    const models = project();
    const servers = await Promise.all([0, 1, 2].map(() => startTestServer({ dataDir, ...models })));
    for (const one of servers) expect((await one.get(`/api/contacts/${ids.Cy}`)).body.tier).toBe('silver');
    for (const one of servers) await one.close({ keepData: true });
    expect(await withOtherConnection(dataDir, migrations)).toBe(before + 1);
    const steps = await withOtherConnection(dataDir, (db) =>
      sql<{ steps: string }>`SELECT steps FROM forja_migrations ORDER BY seq DESC LIMIT 1`.execute(db.kysely).then((r) => JSON.parse(r.rows[0].steps)));
    expect(steps).toEqual(['add column   contacts.tier (text)', 'backfill     contacts.tier = "silver" in 4 existing row(s)']);
  });
});
