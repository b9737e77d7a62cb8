import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/**
 * The schema studio addresses a manifest by its entity name (its "name"), and reads and writes the
 * file that holds it, whatever that file is called: manifests/botTrace.json holds "bottrace",
 * knowledgeSource.json "knowledgesource", botTraceStatus.json "bottracestatus" (and here one more,
 * made up: contact.json renamed conTact.json). Open, check, plan and save each (a field added,
 * a label changed), with no second file and the lost-update check on the real file; a file whose
 * name matches keeps working; renaming an entity, or a new entity whose file name another entity's
 * file already has (in any letter case), is refused with a message saying why and what to do.
 * SQLite (api) and PostgreSQL (api-postgres): the plan reads the real database.
 */
const REPO = path.resolve(import.meta.dirname, '../..');

/** [entity name, the file that holds it in the test project]: the shipped mismatches, a made-up one, and two that match. */
const ENTITIES: Array<[string, string]> = [
  ['bottrace', 'manifests/botTrace.json'],
  ['bottracestatus', 'manifests/botTraceStatus.json'],
  ['knowledgesource', 'manifests/knowledgeSource.json'],
  ['contact', 'manifests/conTact.json'],
  ['bot', 'manifests/bot.json'],
  ['userApiKey', 'manifests/userApiKey.json'],
];

const readJson = (root: string, file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

/** Every file under the project with its contents: "nothing was written" compares two of these. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[path.relative(root, path.join(entry.parentPath, entry.name))] = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

describe('schema studio: manifests whose file name is not their entity name', { timeout: 180_000 }, () => {
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-studio-files-'));
    for (const dir of ['manifests', 'locales']) fs.cpSync(path.join(REPO, dir), path.join(root, dir), { recursive: true });
    fs.renameSync(path.join(root, 'manifests/contact.json'), path.join(root, 'manifests/conTact.json'));
    server = await startTestServer({ env: { SCHEMA_STUDIO: 'true', SCHEMA_STUDIO_ROOT: root } });
  });
  afterAll(async () => {
    await server?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const save = (name: string, body: unknown, headers: Record<string, string>) =>
    server.raw(`/api/studio/manifests/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const manifestFiles = () => fs.readdirSync(path.join(root, 'manifests')).sort();

  it('lists each manifest under its entity name with the file that holds it', async () => {
    const listed = (await server.get('/api/studio/manifests')).body.manifests as Array<{ name: string; file: string; manifest: { name: string } }>;
    for (const [name, file] of ENTITIES) expect(listed.find((m) => m.name === name), name).toMatchObject({ file, manifest: { name } });
    // Every entry's name is its manifest's: a reference picker offers only names a ref may use.
    for (const entry of listed) expect(entry.name).toBe(entry.manifest.name);
    expect(listed.map((m) => m.name)).not.toContain('botTrace');
  });

  for (const [name, file] of ENTITIES) {
    it(`${name} (${file}): opened, checked, planned and saved into its own file; a stale save is a 409`, async () => {
      const opened = await server.get(`/api/studio/manifests/${name}`);
      expect(opened.status, opened.text).toBe(200);
      expect(opened.body).toMatchObject({ name, file });
      expect(opened.headers.get('etag')).toBe(`"${opened.body.version}"`);
      const filesBefore = manifestFiles();

      const draft = structuredClone(opened.body.manifest);
      draft.fields.push({ name: 'reviewNote', type: 'string', label: `field.${name}.reviewNote` });
      const labelKey = draft.label as string;
      const texts = {
        [`field.${name}.reviewNote`]: { es: 'Nota de revisión', en: 'Review note' },
        [labelKey]: { es: `${opened.body.texts[labelKey].es} (revisado)`, en: `${opened.body.texts[labelKey].en} (reviewed)` },
      };
      const checked = await server.post('/api/studio/validate', { manifest: draft, texts, entity: name });
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body.issues).toEqual([]);
      expect(checked.body.preview.model.name).toBe(name);
      // Sent without "entity" (an older client, a script), the draft is still its entity's.
      expect((await server.post('/api/studio/validate', { manifest: draft, texts })).body.issues).toEqual([]);

      const planned = await server.post('/api/studio/plan', { manifest: draft, texts, entity: name });
      expect(planned.status, planned.text).toBe(200);
      expect(planned.body).toMatchObject({ ok: true, isNew: false, version: opened.body.version });
      expect(planned.body.diff).toEqual([expect.objectContaining({ path: 'fields[reviewNote]', kind: 'added' })]);
      expect(planned.body.localeKeys).toEqual(expect.arrayContaining([
        expect.objectContaining({ key: `field.${name}.reviewNote`, change: 'add' }),
        expect.objectContaining({ key: labelKey, change: 'change' }),
      ]));
      // (The entities saved before this one are not migrated here, so only this entity's steps count.)
      const steps = planned.body.plan.steps.filter((s: { entity: string }) => s.entity === name);
      expect(steps.map((s: { kind: string; column?: string }) => `${s.kind}:${s.column ?? ''}`)).toEqual(['addColumn:reviewNote']);

      const saved = await save(name, { manifest: draft, texts, entity: name }, { 'if-match': `"${opened.body.version}"` });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body).toMatchObject({ name, file, written: [file, 'locales/es.json', 'locales/en.json'] });
      expect(readJson(root, file)).toEqual(draft);
      expect(manifestFiles()).toEqual(filesBefore);
      expect(readJson(root, 'locales/en.json').field[name].reviewNote).toBe('Review note');
      const reopened = await server.get(`/api/studio/manifests/${name}`);
      expect(reopened.body.version).toBe(saved.body.version);
      expect(reopened.body.texts[labelKey].en).toMatch(/\(reviewed\)$/);

      // Someone who opened the old version: told it changed, given the current one; nothing written.
      const before = snapshot(root);
      const stale = structuredClone(opened.body.manifest);
      stale.fields.push({ name: 'staleNote', type: 'string', label: labelKey });
      const lost = await save(name, { manifest: stale, entity: name }, { 'if-match': `"${opened.body.version}"` });
      expect(lost.status, lost.text).toBe(409);
      expect(lost.body.message).toContain(file);
      expect(lost.body.currentVersion).toBe(saved.body.version);
      expect(lost.body.current).toEqual(draft);
      // A label change alone (texts only) is a save too, on the current version.
      const relabelled = await save(name, { manifest: draft, texts: { [labelKey]: opened.body.texts[labelKey] }, entity: name }, { 'if-match': `"${saved.body.version}"` });
      expect(relabelled.status, relabelled.text).toBe(200);
      expect(relabelled.body.written).toEqual([file, 'locales/es.json', 'locales/en.json']);
      expect(snapshot(root)).toEqual({ ...before, 'locales/es.json': expect.any(String), 'locales/en.json': expect.any(String) });
      expect(manifestFiles()).toEqual(filesBefore);
    });
  }

  it('renaming an entity is refused where the name is, with what to do instead; nothing is written', async () => {
    for (const [name, file] of ENTITIES.slice(0, 4)) {
      const { body: opened } = await server.get(`/api/studio/manifests/${name}`);
      const before = snapshot(root);
      for (const renamed of [`${name}s`, 'zzRenamed', name.toUpperCase().replace(/^./, (c) => c.toLowerCase())]) {
        if (renamed === name) continue;
        const draft = { ...opened.manifest, name: renamed };
        for (const route of ['/api/studio/validate', '/api/studio/plan']) {
          const checked = await server.post(route, { manifest: draft, entity: name });
          expect(checked.status, checked.text).toBe(200);
          expect(checked.body.ok).toBe(false);
          expect(checked.body.issues).toEqual([expect.objectContaining({ file, path: 'name', found: renamed })]);
          expect(checked.body.issues[0].message).toContain(`holds the entity "${name}"`);
          expect(checked.body.issues[0].fix).toContain(`"${name}"`);
        }
        const put = await save(name, { manifest: draft, entity: name }, { 'if-match': `"${opened.version}"` });
        expect(put.status, put.text).toBe(400);
        expect(put.body.message).toContain(`${file} holds the entity "${name}"`);
        // The draft's own name in the URL: no manifest holds it, so it is not a save of this file either.
        const elsewhere = await save(renamed, { manifest: draft }, { 'if-match': `"${opened.version}"` });
        expect([400, 409], elsewhere.text).toContain(elsewhere.status);
      }
      expect(snapshot(root)).toEqual(before);
    }
  });

  it('a new entity whose file name another entity\'s file has (any letter case) is refused: its file is not overwritten', async () => {
    const before = snapshot(root);
    for (const [taken, holder, file] of [
      ['botTrace', 'bottrace', 'manifests/botTrace.json'],
      ['knowledgeSOURCE', 'knowledgesource', 'manifests/knowledgeSource.json'],
      ['contacT', 'contact', 'manifests/conTact.json'],
    ]) {
      const manifest = { name: taken, typeName: 'Taken', label: 'entity.contact.label', labelPlural: 'entity.contact.plural', dbTable: `t_${taken.toLowerCase()}`, api: { basePath: `/api/t-${taken.toLowerCase()}` }, fields: [{ name: 'name', type: 'string', label: 'field.contact.name' }] };
      for (const route of ['/api/studio/validate', '/api/studio/plan']) {
        const checked = await server.post(route, { manifest });
        expect(checked.status, checked.text).toBe(200);
        expect(checked.body.issues).toEqual([expect.objectContaining({ file, path: 'name', found: taken })]);
        expect(checked.body.issues[0].message).toContain(`holds the entity "${holder}"`);
      }
      const created = await save(taken, { manifest }, { 'if-none-match': '*' });
      expect(created.status, created.text).toBe(409);
      expect(created.body.message).toContain(`${file} holds the entity "${holder}"`);
      const read = await server.get(`/api/studio/manifests/${taken}`);
      expect(read.status, read.text).toBe(404);
      expect(read.body.message).toContain(`${file} holds the entity "${holder}"`);
      expect(read.body.message).toContain(`/api/studio/manifests/${holder}`);
    }
    expect(snapshot(root)).toEqual(before);
  });

  it('adding an entity still creates manifests/<name>.json, which then opens and saves like any other', async () => {
    const manifest = {
      $schema: './manifest.schema.json', name: 'traceNote', typeName: 'TraceNote', dbTable: 'trace_notes', api: { basePath: '/api/trace-notes' },
      label: 'entity.traceNote.label', labelPlural: 'entity.traceNote.plural', route: { path: '/crud/trace-note' }, menu: { group: 'bot', icon: 'timeline' }, displayField: 'note',
      fields: [{ name: 'note', type: 'string', label: 'field.traceNote.note' }, { name: 'trace', type: 'ref', label: 'field.traceNote.trace', ref: { entity: 'bottrace', display: 'chatId' } }],
    };
    const texts = { 'entity.traceNote.label': { es: 'Nota', en: 'Note' }, 'entity.traceNote.plural': { es: 'Notas', en: 'Notes' }, 'field.traceNote.note': { es: 'Nota', en: 'Note' }, 'field.traceNote.trace': { es: 'Traza', en: 'Trace' } };
    const planned = await server.post('/api/studio/plan', { manifest, texts });
    expect(planned.body.issues).toEqual([]);
    expect(planned.body).toMatchObject({ ok: true, isNew: true, version: 'none' });
    const created = await save('traceNote', { manifest, texts }, { 'if-none-match': '*' });
    expect(created.status, created.text).toBe(200);
    expect(created.body.file).toBe('manifests/traceNote.json');
    expect(readJson(root, 'manifests/traceNote.json')).toEqual(manifest);
    const opened = await server.get('/api/studio/manifests/traceNote');
    expect(opened.body).toMatchObject({ file: 'manifests/traceNote.json', version: created.body.version });
    const again = await save('traceNote', { manifest: { ...manifest, fields: [...manifest.fields, { name: 'author', type: 'string', label: 'field.traceNote.note' }] }, entity: 'traceNote' }, { 'if-match': `"${created.body.version}"` });
    expect(again.status, again.text).toBe(200);
    expect((await save('traceNote', { manifest, texts }, { 'if-none-match': '*' })).status).toBe(409);
  });

  it('a manifest file that is not valid JSON: listed under its file name with the parser\'s message, named by every check, never a 500', async () => {
    const broken = path.join(root, 'manifests/brokenOne.json');
    fs.writeFileSync(broken, '{ "name": "brokenOne", ');
    try {
      const listed = (await server.get('/api/studio/manifests')).body.manifests.find((m: { file: string }) => m.file === 'manifests/brokenOne.json');
      expect(listed).toMatchObject({ name: 'brokenOne', manifest: null, error: expect.stringMatching(/^manifests\/brokenOne\.json is not valid JSON: .+; fix it in an editor/) });
      const read = await server.get('/api/studio/manifests/brokenOne');
      expect(read.status, read.text).toBe(409);
      expect(read.body.message).toContain('manifests/brokenOne.json is not valid JSON');
      const { body: opened } = await server.get('/api/studio/manifests/bottrace');
      for (const route of ['/api/studio/validate', '/api/studio/plan']) {
        const checked = await server.post(route, { manifest: opened.manifest, entity: 'bottrace' });
        expect(checked.status, checked.text).toBe(200);
        expect(checked.body.issues).toEqual([expect.objectContaining({ file: 'manifests/brokenOne.json', path: '', message: expect.stringMatching(/^is not valid JSON: /) })]);
      }
      // A new entity whose file would be that one (any letter case) is refused, not written over it.
      const created = await save('brokenone', { manifest: { name: 'brokenone' } }, { 'if-none-match': '*' });
      expect(created.status, created.text).toBe(409);
      expect(created.body.message).toContain('manifests/brokenOne.json is not valid JSON');
      expect(fs.readFileSync(broken, 'utf8')).toBe('{ "name": "brokenOne", ');
    } finally {
      fs.rmSync(broken);
    }
  });

  it('two files holding the same entity: the studio names both and writes neither', async () => {
    const copy = path.join(root, 'manifests/botTraceCopy.json');
    fs.copyFileSync(path.join(root, 'manifests/botTrace.json'), copy);
    try {
      const before = snapshot(root);
      const read = await server.get('/api/studio/manifests/bottrace');
      expect(read.status, read.text).toBe(409);
      expect(read.body.message).toContain('manifests/botTrace.json and manifests/botTraceCopy.json both hold the entity "bottrace"');
      const manifest = readJson(root, 'manifests/botTrace.json');
      const checked = await server.post('/api/studio/validate', { manifest, entity: 'bottrace' });
      expect(checked.body.issues).toEqual([expect.objectContaining({ path: 'name', message: expect.stringContaining('both hold the entity "bottrace"') })]);
      const put = await save('bottrace', { manifest, entity: 'bottrace' }, { 'if-match': '"x"' });
      expect(put.status, put.text).toBe(409);
      expect(put.body.message).toContain('both hold the entity "bottrace"');
      expect(snapshot(root)).toEqual(before);
    } finally {
      fs.rmSync(copy);
    }
  });
});
