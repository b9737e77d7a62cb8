import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchProject } from './helpers/scratch-project.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

// The README's recipes, run as written in a copy of the project: "Adding a field to an entity" on
// every manifest, and "Add an entity". The copy's own generator, models and server are used, so
// what is checked is what a product person gets after the same edits.

const FIELD = 'note';
const copies: { remove: () => void }[] = [];
afterAll(() => { for (const copy of copies) copy.remove(); });

/** A script run in the copy with its own tsx: starts its server on SQLite and reports JSON. */
function driver(body: string): string {
  return `import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { startTestServer } from './tests/api/helpers/test-server.ts';
import { entities } from './src/generated/entities.ts';
import { graphqlDocuments } from './src/generated/graphql-operations.ts';
const out: Record<string, unknown> = {};
const server = await startTestServer();
try {
${body}
} finally {
  await server.close();
}
console.log(JSON.stringify(out));
`;
}

function runDriver(copy: ReturnType<typeof scratchProject>, body: string): Record<string, any> {
  writeFileSync(path.join(copy.root, 'recipe-check.ts'), driver(body));
  const result = copy.run(path.join(copy.root, 'node_modules/.bin/tsx'), ['recipe-check.ts']);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!);
}

// The copy's driver starts its own server on SQLite, outside this runner (PostgreSQL test databases
// are handed out by the api-postgres project's global setup): under api-postgres it would only
// repeat the SQLite run, so it runs once, in the api project.
describe.skipIf(TEST_BACKEND === 'postgres')('README recipes, run in a scratch copy', () => {
  it('"Adding a field to an entity": a field added to each of the 12 manifests reaches every layer', () => {
    const copy = scratchProject('add-field');
    copies.push(copy);
    const manifests = readdirSync(path.join(copy.root, 'manifests')).filter((f) => f.endsWith('.json') && f !== 'manifest.schema.json' && f !== 'enums.json');
    expect(manifests).toHaveLength(12);
    const keys: Record<string, [string, string]> = {};
    for (const file of manifests) {
      // Step 1: edit the manifest's fields, nothing else.
      const full = path.join(copy.root, 'manifests', file);
      const manifest = JSON.parse(readFileSync(full, 'utf8'));
      const label = `field.${manifest.name.toLowerCase()}.${FIELD}`;
      manifest.fields.push({ name: FIELD, type: 'string', label, validation: { maxLength: 200 }, searchable: true });
      writeFileSync(full, JSON.stringify(manifest, null, 2));
      keys[label] = ['Nota', 'Note'];
    }
    // Step 2: the labels, in one step; step 3: generate.
    const added = copy.run('npx', ['tsx', 'scripts/add-locale-keys.ts', JSON.stringify(keys)]);
    expect(added.status, added.stderr).toBe(0);
    const generated = copy.run('npm', ['run', 'generate']);
    expect(generated.status, generated.stderr + generated.stdout).toBe(0);

    const report = runDriver(copy, `
  const openapi = (await server.get('/api/docs/json')).body;
  const db = new Database(server.dataDir + '/forja.db', { readonly: true });
  for (const model of Object.values(entities)) {
    const r: Record<string, unknown> = {};
    r.table = model.table.columns.includes('${FIELD}');
    r.filter = model.filters.some((f) => f.field === '${FIELD}');
    r.export = model.export.headers.includes('${FIELD}');
    r.import = model.import.fields.includes('${FIELD}');
    const schema = JSON.parse(readFileSync('src/generated/schemas/' + model.name + '.schema.json', 'utf8'));
    r.form = Boolean(schema.properties?.${FIELD});
    const text = JSON.stringify(openapi.components?.schemas?.[model.typeName] ?? openapi.components?.schemas?.[model.typeName + 'Record'] ?? null);
    r.openapi = text.includes('"${FIELD}"');
    if (model.api.endpoints === 'generic') {
      const list = await server.get(model.api.basePath + '?filters=' + encodeURIComponent('${FIELD};like;x') + '&search=x');
      r.rest = list.status;
      const docs = graphqlDocuments[model.name as keyof typeof graphqlDocuments];
      if (docs) {
        const answer = await server.post('/graphql', { query: docs.paginate, variables: { filters: [{ field: '${FIELD}', operator: 'like', value: 'x' }] } });
        r.graphql = answer.status === 200 && !answer.body.errors && docs.paginate.includes('${FIELD}') ? 'ok' : JSON.stringify(answer.body).slice(0, 300);
      }
    }
    out[model.name] = r;
  }
  // The column exists in every table, and a value written over REST is stored and read back.
  for (const model of Object.values(entities)) {
    const table = (await import('./server/generated/entities.ts')).entities[model.name].storage.table;
    (out[model.name] as Record<string, unknown>).database = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]).some((c) => c.name === '${FIELD}');
  }
  db.close();
  const created = await server.post('/api/bot-trace-statuses', { name: 'recipe', ${FIELD}: 'written over REST' });
  out.roundTrip = (await server.get('/api/bot-trace-statuses/' + created.body._id)).body.${FIELD};
  const tooLong = await server.post('/api/tenants', { name: 'recipe', ${FIELD}: 'x'.repeat(201) });
  out.validated = tooLong.status;
`);
    const models = Object.keys(report).filter((key) => key !== 'roundTrip' && key !== 'validated');
    expect(models).toHaveLength(12);
    for (const name of models) {
      const r = report[name];
      expect({ name, ...r }).toMatchObject({ name, table: true, filter: true, export: true, import: true, form: true, database: true, openapi: true });
      if (r.rest !== undefined) expect(r.rest, name).toBe(200);
      if (r.graphql !== undefined) expect(r.graphql, name).toBe('ok');
    }
    expect(models.filter((name) => report[name].rest !== undefined).length).toBeGreaterThanOrEqual(10);
    expect(models.filter((name) => report[name].graphql !== undefined).length).toBeGreaterThanOrEqual(10);
    expect(report.roundTrip).toBe('written over REST');
    expect(report.validated).toBe(400);
  }, 120_000);

  it('"Add an entity": one command scaffolds faq, which generates, starts and is listable over REST', () => {
    const copy = scratchProject('new-entity');
    copies.push(copy);
    const scaffold = copy.run('npm', ['run', 'new-entity', '--', 'faq']);
    expect(scaffold.status, scaffold.stderr).toBe(0);
    expect(scaffold.stdout).toContain('wrote manifests/faq.json');
    // Refusals: the same name again, a name that is not one, a name differing only in case.
    for (const [name, message] of [['faq', 'manifests/faq.json already exists'], ['Faq-item', 'is not an entity name'], ['fAq', 'already exists'], ['bot', 'already exists']] as const) {
      const refused = copy.run(path.join(copy.root, 'node_modules/.bin/tsx'), ['scripts/new-entity.ts', name]);
      expect(refused.status, name).toBe(1);
      expect(refused.stderr, name).toContain(message);
    }
    const generated = copy.run('npm', ['run', 'generate']);
    expect(generated.status, generated.stderr + generated.stdout).toBe(0);
    const report = runDriver(copy, `
  out.model = { route: entities.faq.route?.path, menu: entities.faq.menu?.icon, columns: entities.faq.table.columns };
  const created = await server.post('/api/faqs', { name: 'How do I add an entity?' });
  out.created = created.status;
  const list = await server.get('/api/faqs');
  out.listed = list.status;
  out.names = list.body.items.map((item: { name: string }) => item.name);
  out.graphql = (await server.post('/graphql', { query: graphqlDocuments.faq!.paginate, variables: {} })).body.data?.result?.total;
`);
    expect(report).toEqual({
      model: { route: '/crud/faq', menu: 'file-text', columns: ['name'] },
      created: 201,
      listed: 200,
      names: ['How do I add an entity?'],
      graphql: 1,
    });
  }, 120_000);
});
