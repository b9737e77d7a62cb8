import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createServer, type CreateServerOptions } from '../../server/http/create-server.ts';
import { createAppSwitch, type AppSwitch } from '../../server/http/app-switch.ts';
import { installRunningApply } from '../../server/studio/running-apply.ts';
import { installLiveApply, liveApply } from '../../server/dev/live-apply.ts';
import { startTestServer } from './helpers/test-server.ts';
import { testDatabaseUrl } from './helpers/test-database.ts';

/**
 * The schema studio under `npm start` (SCHEMA_STUDIO=true): server/main.ts puts the app behind one
 * socket (server/http/app-switch.ts) and a save swaps in an app on the new model
 * (server/studio/running-apply.ts). Here the same wiring, in process: each save is served by REST,
 * GraphQL and GET /api/live-model as soon as it is answered, and requests sent all along (reads,
 * writes, health) never fail during the swaps. A model the generator refuses leaves the running one
 * serving. SQLite (api) and PostgreSQL (api-postgres).
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'Admin-live-1234';

let root: string;
let dataDir: string;
let appSwitch: AppSwitch;
let uninstall: () => void;
let base: string;
let token: string;

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-studio-live-'));
  for (const dir of ['manifests', 'locales']) fs.cpSync(path.join(REPO, dir), path.join(root, dir), { recursive: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-studio-live-data-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), databaseUrl: await testDatabaseUrl(dataDir), port: 0, host: '127.0.0.1', distDir: path.join(dataDir, 'no-dist') };
  const serverOptions: CreateServerOptions = {
    config,
    logger: false,
    env: { SCHEMA_STUDIO: 'true', SCHEMA_STUDIO_ROOT: root },
    identity: { adminUsername: 'admin', adminPassword: PASSWORD, jwtSecret: randomBytes(32).toString('hex'), apiKeySecret: randomBytes(32).toString('hex') },
  };
  const first = await createServer(serverOptions);
  appSwitch = createAppSwitch();
  appSwitch.track(first, config.shutdownGraceMs);
  await first.ready();
  appSwitch.use(first);
  uninstall = installRunningApply({ serverOptions, root, appSwitch, log: () => undefined });
  await appSwitch.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${appSwitch.port()}`;
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }) });
  token = ((await login.json()) as { accessToken: string }).accessToken;
}, 120_000);

afterAll(async () => {
  uninstall?.();
  await appSwitch?.close();
  for (const dir of [root, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Requests sent back to back from a few clients until stopped: every status they got. */
function keepCalling(): { stop(): Promise<number[]> } {
  let running = true;
  const statuses: number[] = [];
  const paths = ['/api/health', '/api/contacts?limit=5', '/api/roles?limit=5'];
  const loops = paths.map(async (url, n) => {
    while (running) {
      if (n === 0) {
        const created = await call('POST', '/api/contacts', { name: `Load ${statuses.length}`, email: `load${statuses.length}-${randomBytes(3).toString('hex')}@example.com` }).catch(() => ({ status: 0 }));
        statuses.push(created.status);
      }
      statuses.push(await call('GET', url).then((r) => r.status, () => 0));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

describe('schema studio: a save applies live in the running server', { timeout: 180_000 }, () => {
  it('a field added to contact is served by REST, GraphQL and /api/live-model when the save is answered; no request fails meanwhile', async () => {
    expect((await call('GET', '/api/live-model')).body).toEqual({ changed: {}, menu: null, texts: null });
    const load = keepCalling();
    const current = await call('GET', '/api/studio/manifests/contact');
    const manifest = current.body.manifest;
    manifest.fields.push({ name: 'website', type: 'string', label: 'field.contact.website' });
    const saved = await call('PUT', '/api/studio/manifests/contact', { manifest, texts: { 'field.contact.website': { es: 'Sitio web', en: 'Website' } } }, { 'if-match': `"${current.body.version}"` });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ live: 'applied' });
    expect(saved.body.applyMs).toBeGreaterThan(0);

    const created = await call('POST', '/api/contacts', { name: 'Ana', email: 'ana@example.com', website: 'https://ana.example' });
    expect(created.status).toBe(201);
    expect(created.body.website).toBe('https://ana.example');
    const graphql = await call('POST', '/graphql', { query: '{ contactPaginate(limit: 50) { items { name website } } }' });
    expect(graphql.body.data.contactPaginate.items).toContainEqual({ name: 'Ana', website: 'https://ana.example' });
    const live = await call('GET', '/api/live-model');
    expect(Object.keys(live.body.changed)).toEqual(['contact']);
    expect(live.body.changed.contact.schema.properties.website).toMatchObject({ title: 'field.contact.website' });
    expect(live.body.changed.contact.model).not.toHaveProperty('storage');
    expect(live.body.texts.en.field.contact.website).toBe('Website');

    const statuses = await load.stop();
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);
  });

  it('a new entity gets its REST routes, its permissions on the Admin role and its menu entry at once', async () => {
    const load = keepCalling();
    const manifest = {
      name: 'faqItem', typeName: 'FaqItem', label: 'entity.faqItem.label', labelPlural: 'entity.faqItem.plural', dbTable: 'faq_items',
      api: { basePath: '/api/faq-items' }, route: { path: '/crud/faq-item' }, menu: { group: 'knowledge', icon: 'books', order: 50 },
      fields: [{ name: 'name', type: 'string', label: 'field.faqItem.name', validation: { required: true, maxLength: 200 } }],
    };
    const texts = { 'entity.faqItem.label': { es: 'Pregunta', en: 'Question' }, 'entity.faqItem.plural': { es: 'Preguntas', en: 'Questions' }, 'field.faqItem.name': { es: 'Nombre', en: 'Name' } };
    const saved = await call('PUT', '/api/studio/manifests/faqItem', { manifest, texts }, { 'if-none-match': '*' });
    expect(saved.status).toBe(200);
    expect(saved.body.live).toBe('applied');
    expect((await call('POST', '/api/faq-items', { name: '¿Horario?' })).status).toBe(201);
    expect((await call('GET', '/api/faq-items')).body.items.map((row: { name: string }) => row.name)).toEqual(['¿Horario?']);
    const me = await call('GET', '/api/auth/me');
    expect(me.body.role.permissions).toContain('faqItem:manage');
    const live = await call('GET', '/api/live-model');
    expect(Object.keys(live.body.changed).sort()).toEqual(['contact', 'faqItem']);
    const knowledge = live.body.menu.find((group: { group: string }) => group.group === 'knowledge');
    expect(knowledge.items.map((item: { path: string }) => item.path)).toContain('/crud/faq-item');
    const statuses = await load.stop();
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);
  });

  it('a model the generator refuses is not applied: the running app keeps serving the last good one', async () => {
    const file = path.join(root, 'manifests', 'faqItem.json');
    const good = fs.readFileSync(file, 'utf8');
    for (const broken of ['{ "name": "faqItem", ', JSON.stringify({ ...JSON.parse(good), fields: [{ name: 'name', type: 'nosuchtype', label: 'field.faqItem.name' }] })]) {
      fs.writeFileSync(file, broken);
      const result = await liveApply('test: a broken manifest');
      expect(result).toMatchObject({ applied: false, outcome: 'refused' });
      expect(result!.message).toContain('manifests/faqItem.json');
      expect((await call('GET', '/api/faq-items')).status).toBe(200);
    }
    fs.writeFileSync(file, good);
  });

  it('a manifest whose file is not named as its entity (botTraceStatus.json holds "bottracestatus") is saved in that file and applied live', async () => {
    const load = keepCalling();
    const filesBefore = fs.readdirSync(path.join(root, 'manifests')).sort();
    const current = await call('GET', '/api/studio/manifests/bottracestatus');
    expect(current.body.file).toBe('manifests/botTraceStatus.json');
    const manifest = current.body.manifest;
    manifest.fields.push({ name: 'color', type: 'string', label: 'field.bottracestatus.color', validation: { maxLength: 20 } });
    const saved = await call('PUT', '/api/studio/manifests/bottracestatus', { manifest, entity: 'bottracestatus', texts: { 'field.bottracestatus.color': { es: 'Color', en: 'Colour' } } }, { 'if-match': `"${current.body.version}"` });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ live: 'applied', file: 'manifests/botTraceStatus.json' });
    // The generator's in-memory run read the saved file, and no second manifest of the entity beside it.
    expect(fs.readdirSync(path.join(root, 'manifests')).sort()).toEqual(filesBefore);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'manifests/botTraceStatus.json'), 'utf8')).fields.at(-1).name).toBe('color');

    const created = await call('POST', '/api/bot-trace-statuses', { name: 'Reviewed', color: 'green' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.color).toBe('green');
    const refused = await call('POST', '/api/bot-trace-statuses', { name: 'Too long', color: 'x'.repeat(21) });
    expect(refused.status).toBe(400);
    const live = await call('GET', '/api/live-model');
    expect(live.body.changed.bottracestatus.schema.properties.color).toMatchObject({ title: 'field.bottracestatus.color' });
    expect(live.body.texts.en.field.bottracestatus.color).toBe('Colour');
    const statuses = await load.stop();
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);
  });
});

describe('schema studio: a save that cannot be applied keeps nothing', { timeout: 120_000 }, () => {
  /** Every file under the project with its contents. */
  const snapshot = (dir: string) => Object.fromEntries(
    (fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => [path.relative(dir, path.join(entry.parentPath, entry.name)), fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')]),
  );

  for (const outcome of ['failed', 'refused'] as const) {
    it(`an apply that ${outcome}: 422 with its message, the manifest and locale files as they were (a changed entity and a new one)`, async () => {
      const project = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-studio-unapplied-'));
      for (const dir of ['manifests', 'locales']) fs.cpSync(path.join(REPO, dir), path.join(project, dir), { recursive: true });
      // The applier server/main.ts installs, made to fail as an app that cannot start (or a refused model) would.
      const remove = installLiveApply(async () => ({ applied: false, outcome, message: `the new app ${outcome}: boom`, ms: 1 }));
      const server = await startTestServer({ env: { SCHEMA_STUDIO: 'true', SCHEMA_STUDIO_ROOT: project } });
      try {
        const before = snapshot(project);
        const current = await server.get('/api/studio/manifests/contact');
        const manifest = current.body.manifest;
        manifest.fields.push({ name: 'website', type: 'string', label: 'field.contact.website' });
        const changed = await server.raw('/api/studio/manifests/contact', {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'if-match': `"${current.body.version}"` },
          body: JSON.stringify({ manifest, texts: { 'field.contact.website': { es: 'Sitio web', en: 'Website' } } }),
        });
        expect(changed.status).toBe(422);
        expect(String((changed.body as { message: string }).message)).toContain(`the new app ${outcome}: boom`);
        const created = await server.raw('/api/studio/manifests/note', {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'if-none-match': '*' },
          body: JSON.stringify({
            manifest: { name: 'note', typeName: 'Note', label: 'entity.note.label', labelPlural: 'entity.note.plural', dbTable: 'notes', api: { basePath: '/api/notes' }, fields: [{ name: 'name', type: 'string', label: 'field.note.name' }] },
            texts: { 'entity.note.label': { es: 'Nota', en: 'Note' }, 'entity.note.plural': { es: 'Notas', en: 'Notes' }, 'field.note.name': { es: 'Nombre', en: 'Name' } },
          }),
        });
        expect(created.status).toBe(422);
        expect(String((created.body as { message: string }).message)).toContain(`the new app ${outcome}: boom`);
        expect(snapshot(project)).toEqual(before);
      } finally {
        remove();
        await server.close();
        fs.rmSync(project, { recursive: true, force: true });
      }
    });
  }
});
