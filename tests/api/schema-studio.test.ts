import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, userWith } from './helpers/fixtures.ts';

/**
 * The schema studio's API (server/studio): it exists only when switched on, needs schema:manage,
 * checks drafts with the generator's own rules, plans a save against the database, and writes
 * manifests/ and locales/ all or nothing, never elsewhere, never over someone else's save.
 * Runs on SQLite (api) and PostgreSQL (api-postgres): the plan reads the real database.
 */
const REPO = path.resolve(import.meta.dirname, '../..');

/** A project of just the folders the studio reads and writes, which the test may change freely. */
function studioProject(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-studio-'));
  for (const dir of ['manifests', 'locales']) fs.cpSync(path.join(REPO, dir), path.join(root, dir), { recursive: true });
  return root;
}

/** Every file under the project with its contents: "nothing was written" compares two of these. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(root, file)] = fs.readFileSync(file, 'utf8');
  }
  return out;
}

const readJson = (root: string, file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('schema studio: off unless switched on', () => {
  for (const env of [{}, { SCHEMA_STUDIO: 'false' }, { SCHEMA_STUDIO: 'false', FORJA_DEV: 'true' }]) {
    it(`answers 404 on every studio route with ${JSON.stringify(env)}`, async () => {
      const root = studioProject();
      const server = await startTestServer({ env: { ...env, SCHEMA_STUDIO_ROOT: root } });
      try {
        const before = snapshot(root);
        expect((await server.get('/api/studio/manifests')).status).toBe(404);
        expect((await server.get('/api/studio/manifests/contact')).status).toBe(404);
        expect((await server.post('/api/studio/validate', { manifest: { name: 'x' } })).status).toBe(404);
        expect((await server.post('/api/studio/plan', { manifest: { name: 'x' } })).status).toBe(404);
        const put = await server.raw('/api/studio/manifests/contact', { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': '"x"' }, body: JSON.stringify({ manifest: { name: 'contact' } }) });
        expect(put.status).toBe(404);
        expect(snapshot(root)).toEqual(before);
        const doc = (await server.get('/api/docs/json')).body as { paths: Record<string, unknown> };
        expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/studio'))).toEqual([]);
      } finally {
        await server.close();
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  }

  it('is on under npm run dev (FORJA_DEV=true) and refuses a SCHEMA_STUDIO value it cannot read', async () => {
    const root = studioProject();
    const server = await startTestServer({ env: { FORJA_DEV: 'true', SCHEMA_STUDIO_ROOT: root } });
    try {
      const list = await server.get('/api/studio/manifests');
      expect(list.status).toBe(200);
      expect(list.body.live).toBe('dev');
    } finally {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
    await expect(startTestServer({ env: { SCHEMA_STUDIO: 'yes' } })).rejects.toThrow(/SCHEMA_STUDIO must be true or false/);
  });
});

describe('schema studio API', { timeout: 120_000 }, () => {
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    root = studioProject();
    server = await startTestServer({ env: { SCHEMA_STUDIO: 'true', SCHEMA_STUDIO_ROOT: root } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function current(name: string) {
    const response = await server.get(`/api/studio/manifests/${name}`);
    expect(response.status, response.text).toBe(200);
    return response.body as { version: string; manifest: any; texts: Record<string, { es: string; en: string }> };
  }
  const save = (name: string, body: unknown, headers: Record<string, string>) =>
    server.raw(`/api/studio/manifests/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('needs schema:manage: 401 anonymous, 403 with other permissions (even contact:manage and role permissions), 200 with it', async () => {
    expect((await server.as(null).get('/api/studio/manifests')).status).toBe(401);
    for (const permissions of [['contact:manage'], ['setting:view', 'setting:update', 'role:permissions']]) {
      const { client } = await userWith(server, permissions);
      for (const response of [
        await client.get('/api/studio/manifests'),
        await client.get('/api/studio/manifests/contact'),
        await client.post('/api/studio/validate', { manifest: { name: 'contact' } }),
        await client.post('/api/studio/plan', { manifest: { name: 'contact' } }),
      ]) {
        expect(response.status).toBe(403);
        expectErrorShape(response.body);
      }
    }
    const { client } = await userWith(server, ['schema:manage']);
    expect((await client.get('/api/studio/manifests')).status).toBe(200);
    // The permission is in the catalogue, so the seeded Admin holds it.
    expect((await server.get('/api/permissions')).body).toContain('schema:manage');
  });

  it('lists every manifest with its version, texts and the meta-schema', async () => {
    const response = await server.get('/api/studio/manifests');
    expect(response.status).toBe(200);
    const names = response.body.manifests.map((m: { name: string }) => m.name);
    expect(names).toEqual(expect.arrayContaining(['contact', 'bot', 'setting', 'userApiKey']));
    expect(names).not.toContain('enums');
    expect(names).not.toContain('manifest.schema');
    const contact = response.body.manifests.find((m: { name: string }) => m.name === 'contact');
    expect(contact.version).toMatch(/^[0-9a-f]{20}$/);
    expect(contact.texts['entity.contact.label']).toEqual({ es: expect.any(String), en: expect.any(String) });
    expect(response.body.metaSchema.properties.fields).toBeDefined();
  });

  it('validates a draft with the generator\'s messages at named paths and its "did you mean", for several mistakes', async () => {
    const { manifest } = await current('contact');
    const cases: Array<[(m: any) => void, RegExp, string | undefined]> = [
      [(m) => (m.fields[0].type = 'strng'), /^fields\[\w+\]\.type$/, 'string'],
      [(m) => (m.fields[0].validation = { maxLenght: 3 }), /^fields\[\w+\]\.validation\.maxLenght$/, 'maxLength'],
      [(m) => (m.menu = { ...m.menu, icon: 'no-such-icon-here' }), /^menu\.icon$/, undefined],
      [(m) => m.fields.push({ name: 'extra', type: 'string', label: 'field.contact.nope' }), /^fields\[extra\]\.label$/, undefined],
    ];
    for (const [edit, pathPattern, suggestion] of cases) {
      const draft = structuredClone(manifest);
      edit(draft);
      const response = await server.post('/api/studio/validate', { manifest: draft });
      expect(response.status, response.text).toBe(200);
      expect(response.body.ok).toBe(false);
      const issue = response.body.issues.find((i: { path: string }) => pathPattern.test(i.path));
      expect(issue, JSON.stringify(response.body.issues)).toBeDefined();
      expect(issue.file).toBe('manifests/contact.json');
      if (suggestion) expect(issue.suggestion).toBe(suggestion);
    }
    // A missing locale key is fine once the draft brings its texts.
    const draft = structuredClone(manifest);
    draft.fields.push({ name: 'extra', type: 'string', label: 'field.contact.extra' });
    const ok = await server.post('/api/studio/validate', { manifest: draft, texts: { 'field.contact.extra': { es: 'Extra', en: 'Extra' } } });
    expect(ok.body.issues).toEqual([]);
    expect(ok.body.ok).toBe(true);
    expect(Object.keys(ok.body.preview.schema.properties)).toContain('extra');
    expect(ok.body.preview.model.name).toBe('contact');
  });

  it('plans a draft: diff, locale keys added, columns added and defaults backfilled in existing rows', async () => {
    await create(server, '/api/contacts', { name: 'Planned one', email: 'planned@example.com' });
    const { manifest } = await current('contact');
    const draft = structuredClone(manifest);
    draft.fields.push({ name: 'priority', type: 'enum', values: ['low', 'high'], default: 'low', label: 'field.contact.priority' });
    const texts = {
      'field.contact.priority': { es: 'Prioridad', en: 'Priority' },
      'enum.contact.priority.low': { es: 'Baja', en: 'Low' },
      'enum.contact.priority.high': { es: 'Alta', en: 'High' },
    };
    const response = await server.post('/api/studio/plan', { manifest: draft, texts });
    expect(response.status, response.text).toBe(200);
    expect(response.body.ok).toBe(true);
    expect(response.body.diff).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'fields[priority]', kind: 'added' })]));
    expect(response.body.localeKeys).toHaveLength(3);
    expect(response.body.localeKeys).toContainEqual(expect.objectContaining({ key: 'field.contact.priority', es: 'Prioridad', en: 'Priority', change: 'add' }));
    const kinds = response.body.plan.steps.map((s: { kind: string; column?: string }) => `${s.kind}:${s.column ?? ''}`);
    expect(kinds).toContain('addColumn:priority');
    expect(kinds).toContain('backfill:priority');
    expect(response.body.plan.text).toMatch(/backfill\s+contacts\.priority = "low"/);
  });

  it('saves with If-Match: writes the manifest and both locale files, and a second save of the old version is a 409 with the current one', async () => {
    const { manifest, version } = await current('contact');
    const draft = structuredClone(manifest);
    draft.fields.push({ name: 'website', type: 'string', label: 'field.contact.website', validation: { format: 'uri' } });
    const texts = { 'field.contact.website': { es: 'Sitio web', en: 'Website' } };
    const saved = await save('contact', { manifest: draft, texts }, { 'if-match': `"${version}"` });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.written).toEqual(['manifests/contact.json', 'locales/es.json', 'locales/en.json']);
    expect(saved.body.version).not.toBe(version);
    expect(saved.headers.get('etag')).toBe(`"${saved.body.version}"`);
    expect(readJson(root, 'manifests/contact.json')).toEqual(draft);
    expect(readJson(root, 'locales/es.json').field.contact.website).toBe('Sitio web');
    expect(readJson(root, 'locales/en.json').field.contact.website).toBe('Website');
    expect((await current('contact')).version).toBe(saved.body.version);
    // No temporary file is left beside the targets.
    for (const dir of ['manifests', 'locales']) expect(fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // A second editor who opened the old version: told it changed, given the new one, nothing written.
    const before = snapshot(root);
    const stale = structuredClone(manifest);
    stale.fields.push({ name: 'fax', type: 'string', label: 'field.contact.name' });
    for (const ifMatch of [`"${version}"`, version, `W/"${version}"`, '"0000"']) {
      const lost = await save('contact', { manifest: stale }, { 'if-match': ifMatch });
      expect(lost.status, lost.text).toBe(409);
      expect(lost.body.currentVersion).toBe(saved.body.version);
      expect(lost.body.current).toEqual(draft);
    }
    // Creating an entity that exists is the same conflict.
    expect((await save('contact', { manifest: stale }, { 'if-none-match': '*' })).status).toBe(409);
    // Without either header the save is refused outright.
    expect((await save('contact', { manifest: stale }, {})).status).toBe(400);
    expect(snapshot(root)).toEqual(before);
  });

  it('two saves of the same version at once: exactly one wins', async () => {
    const { manifest, version } = await current('tenant');
    const drafts = ['one', 'two', 'three'].map((suffix) => {
      const draft = structuredClone(manifest);
      draft.fields.push({ name: `note${suffix}`, type: 'string', label: 'field.tenant.name' });
      return draft;
    });
    const results = await Promise.all(drafts.map((draft) => save('tenant', { manifest: draft }, { 'if-match': `"${version}"` })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const winner = drafts[results.findIndex((r) => r.status === 200)];
    expect(readJson(root, 'manifests/tenant.json')).toEqual(winner);
  });

  it('creates a new entity with If-None-Match: * and its texts', async () => {
    const manifest = {
      $schema: './manifest.schema.json',
      name: 'faq',
      typeName: 'Faq',
      dbTable: 'faqs',
      api: { basePath: '/api/faqs' },
      route: { path: '/crud/faq' },
      label: 'entity.faq.label',
      labelPlural: 'entity.faq.plural',
      menu: { group: 'admin', icon: 'books' },
      displayField: 'question',
      fields: [{ name: 'question', type: 'string', label: 'field.faq.question', validation: { required: true } }],
    };
    const texts = {
      'entity.faq.label': { es: 'Pregunta frecuente', en: 'FAQ' },
      'entity.faq.plural': { es: 'Preguntas frecuentes', en: 'FAQs' },
      'field.faq.question': { es: 'Pregunta', en: 'Question' },
    };
    const validated = await server.post('/api/studio/validate', { manifest, texts });
    expect(validated.body.issues).toEqual([]);
    const plan = await server.post('/api/studio/plan', { manifest, texts });
    expect(plan.body.isNew).toBe(true);
    expect(plan.body.plan.steps).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'createTable', entity: 'faq' })]));
    const saved = await save('faq', { manifest, texts }, { 'if-none-match': '*' });
    expect(saved.status, saved.text).toBe(200);
    expect(readJson(root, 'manifests/faq.json')).toEqual(manifest);
    expect(readJson(root, 'locales/en.json').entity.faq.plural).toBe('FAQs');
  });

  it('a draft the generator refuses, or a plan that refuses a change, writes nothing', async () => {
    // A contact whose name does not convert to a number.
    await create(server, '/api/contacts', { name: 'Ana', email: 'ana@example.com' });
    const { manifest, version } = await current('contact');
    const lossy = structuredClone(manifest);
    const field = lossy.fields.find((f: { name: string }) => f.name === 'name');
    field.type = 'number';
    delete field.validation.minLength;
    delete field.validation.maxLength;
    const before = snapshot(root);
    const plan = await server.post('/api/studio/plan', { manifest: lossy });
    expect(plan.status).toBe(200);
    expect(plan.body.ok).toBe(false);
    expect(plan.body.plan.refusals[0]).toEqual(expect.objectContaining({ field: 'name', message: expect.stringMatching(/\d+ of \d+ stored value\(s\) do not convert .*e\.g\. record .* holds "/) }));
    const refused = await save('contact', { manifest: lossy, texts: { 'field.contact.unused': { es: 'x', en: 'x' } } }, { 'if-match': version });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toMatch(/refuses 1 change.*nothing was written/s);
    expect(refused.body.plan.refusals).toHaveLength(1);

    const broken = structuredClone(manifest);
    broken.fields[0].type = 'strng';
    const invalid = await save('contact', { manifest: broken }, { 'if-match': version });
    expect(invalid.status).toBe(422);
    expect(invalid.body.issues[0]).toEqual(expect.objectContaining({ path: expect.stringMatching(/^fields\[\w+\]\.type$/), suggestion: 'string' }));
    expect(snapshot(root)).toEqual(before);
  });

  it('never reads or writes outside manifests/<entity>.json and locales/{es,en}.json', async () => {
    const before = snapshot(root);
    const outside = path.join(path.dirname(root), `${path.basename(root)}-outside.json`);
    for (const name of ['..%2F..%2Fpackage', '..%2Fpackage', 'enums', 'manifest.schema', '%2Fetc%2Fpasswd', 'Contact', 'a.b', 'x%00y']) {
      const get = await server.get(`/api/studio/manifests/${name}`);
      expect([400, 404], `${name}: ${get.text}`).toContain(get.status);
      const put = await save(name, { manifest: { name } }, { 'if-none-match': '*' });
      expect([400, 404], `${name}: ${put.text}`).toContain(put.status);
    }
    for (const name of ['../package', '/etc/x', 'enums', 'a/b', 'x.json']) {
      const response = await server.post('/api/studio/validate', { manifest: { name } });
      expect(response.status, name).toBe(400);
    }
    // Locale keys that would escape the locale tree or break it.
    const { manifest, version } = await current('contact');
    for (const key of ['../x', 'field', '__proto__.x', 'field.contact.name.sub', 'field.contact']) {
      const response = await save('contact', { manifest, texts: { [key]: { es: 'x', en: 'x' } } }, { 'if-match': version });
      expect([400, 422], `${key}: ${response.text}`).toContain(response.status);
    }
    // Nothing leaked into every object of the server's process either.
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    for (const key of ['constructor.x', 'field.prototype.x', 'field.__proto__']) {
      const response = await save('contact', { manifest, texts: { [key]: { es: 'x', en: 'x' } } }, { 'if-match': version });
      expect(response.status, `${key}: ${response.text}`).toBe(400);
    }
    expect(fs.existsSync(outside)).toBe(false);
    expect(snapshot(root)).toEqual(before);
  });

  it('a manifest with the old key api.provider opens with it as api.endpoints, and a save writes the new key only', async () => {
    // As a product person's manifest written before the rename has it.
    const file = path.join(root, 'manifests/setting.json');
    const onDisk = fs.readFileSync(file, 'utf8');
    expect(onDisk).toContain('"endpoints": "custom"');
    fs.writeFileSync(file, onDisk.replace('"endpoints": "custom"', '"provider": "custom"'));
    const listed = (await server.get('/api/studio/manifests')).body.manifests.find((m: { name: string }) => m.name === 'setting');
    const opened = await current('setting');
    for (const manifest of [listed.manifest, opened.manifest]) {
      expect(manifest.api).toEqual({ basePath: '/api/settings', endpoints: 'custom' });
      expect(JSON.stringify(manifest)).not.toContain('"provider"');
    }
    // The form the studio draws from the meta-schema has no field for the old name.
    expect(Object.keys((await server.get('/api/studio/manifests')).body.metaSchema.properties.api.properties)).toEqual(['basePath', 'endpoints']);
    expect((await server.post('/api/studio/validate', { manifest: opened.manifest })).body.issues).toEqual([]);
    const saved = await save('setting', { manifest: opened.manifest }, { 'if-match': `"${opened.version}"` });
    expect(saved.status, saved.text).toBe(200);
    const written = fs.readFileSync(file, 'utf8');
    expect(written).not.toContain('"provider"');
    expect(readJson(root, 'manifests/setting.json').api).toEqual({ basePath: '/api/settings', endpoints: 'custom' });
    expect(Object.keys(readJson(root, 'manifests/setting.json'))).toEqual(Object.keys(JSON.parse(onDisk)));

    // A draft that still says api.provider (pasted into the JSON tab, or sent by a script) is saved with the new key.
    for (const [name, value] of [['role', 'generic'], ['userApiKey', 'generic']] as const) {
      const { manifest, version } = await current(name);
      const { endpoints: _endpoints, ...api } = manifest.api;
      const draft = { ...manifest, api: { ...api, provider: value } };
      expect((await server.post('/api/studio/validate', { manifest: draft })).body.issues).toEqual([]);
      const response = await save(name, { manifest: draft }, { 'if-match': `"${version}"` });
      expect(response.status, response.text).toBe(200);
      expect(readJson(root, `manifests/${name}.json`).api).toEqual({ ...api, endpoints: value });
    }

    // Both keys, disagreeing: the generator's message names both, and nothing is written.
    const { manifest, version } = await current('tenant');
    const before = snapshot(root);
    for (const [provider, endpoints] of [['custom', 'generic'], ['generic', 'custom']]) {
      const both = { ...manifest, api: { ...manifest.api, provider, endpoints } };
      const checked = await server.post('/api/studio/validate', { manifest: both });
      expect(checked.body.ok).toBe(false);
      expect(checked.body.issues).toEqual([expect.objectContaining({ file: 'manifests/tenant.json', path: 'api.provider', message: `"api.provider" (the old name of "api.endpoints") is "${provider}" but "api.endpoints" is "${endpoints}"` })]);
      const refused = await save('tenant', { manifest: both }, { 'if-match': `"${version}"` });
      expect(refused.status, refused.text).toBe(422);
    }
    expect(snapshot(root)).toEqual(before);
  });

  it('bounds bodies: a draft over the limit is a 413, texts over their limits a 400', async () => {
    const { manifest } = await current('contact');
    const big = await server.post('/api/studio/validate', { manifest: { ...manifest, description: 'x'.repeat(600 * 1024) } });
    expect(big.status).toBe(413);
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`field.contact.k${i}`, { es: 'a', en: 'b' }]));
    expect((await server.post('/api/studio/validate', { manifest, texts: many })).status).toBe(400);
    expect((await server.post('/api/studio/validate', { manifest, texts: { 'field.contact.x': { es: 'a'.repeat(2001), en: 'b' } } })).status).toBe(400);
    expect((await server.post('/api/studio/validate', { manifest, texts: { 'field.contact.x': { es: '', en: 'b' } } })).status).toBe(400);
  });
});
