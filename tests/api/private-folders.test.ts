import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVATE_FOLDERS } from '../../server/files/private-folders.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { expectErrorShape } from './helpers/fixtures.ts';

/**
 * Issue 31 item 5: every private DATA_DIR folder (server/files/private-folders.ts) is out of reach
 * of GET /files/*, POST /api/rag/parse-file and uploads, however its path is spelled.
 */
let server: TestServer;
const FOLDERS = Object.keys(PRIVATE_FOLDERS);
const NAME = 'planted.txt';

beforeAll(async () => {
  server = await startTestServer();
  // A real outbox mail too (no SMTP configured), so the folder the red team read exists as the server made it.
  const recovery = await server.as(null).post('/api/users/password/recovery/request', { email: 'admin@example.com' });
  expect(recovery.status).toBe(200);
  for (const folder of FOLDERS) {
    fs.mkdirSync(path.join(server.dataDir, folder), { recursive: true });
    fs.writeFileSync(path.join(server.dataDir, folder, NAME), `private ${folder}`);
  }
}, 60_000);
afterAll(async () => server?.close());

/** Ways to name DATA_DIR/<folder>/<file> in a URL or a filepath. */
function spellings(folder: string, file: string): string[] {
  const upper = folder.toUpperCase();
  const capital = folder[0].toUpperCase() + folder.slice(1);
  const encodedFirst = `%${folder.charCodeAt(0).toString(16)}${folder.slice(1)}`;
  return [
    `${folder}/${file}`,
    `${upper}/${file}`,
    `${capital}/${file}`,
    `${folder}./${file}`,
    `${folder}/${file}/`,
    `${folder}//${file}`,
    `./${folder}/${file}`,
    `files/../${folder}/${file}`,
    `${encodedFirst}/${file}`,
    `${folder}%2F${file}`,
    `${folder}%2f${file}`,
    `files%2F..%2F${folder}%2F${file}`,
    `${folder}%5C${file}`,
  ];
}

describe('private folders are never served', () => {
  it('a file in an ordinary upload folder is served (the control)', async () => {
    const up = await server.upload('/api/file/avatars', { name: 'a.txt', content: 'public', type: 'text/plain' });
    expect(up.status, up.text).toBe(201);
    const res = await server.as(null).get(`/files/${up.body.filepath}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('public');
  });

  it.each(FOLDERS)('GET /files/ under %s: never the content, anonymous or signed in', async (folder) => {
    const names = [NAME, ...fs.readdirSync(path.join(server.dataDir, folder)).filter((n) => n !== NAME).slice(0, 2)];
    for (const name of names) {
      for (const spelled of spellings(folder, name)) {
        for (const client of [server.as(null), server]) {
          const res = await client.get(`/files/${spelled}`);
          // /files/exports/* is the signed download route: 403 without a valid signature.
          expect([400, 403, 404], `${spelled}: ${res.status}`).toContain(res.status);
          expect(res.text).not.toContain(`private ${folder}`);
          expect(res.text).not.toMatch(/recovery|Subject:/i);
        }
      }
    }
  });

  it.each(FOLDERS)('POST /api/rag/parse-file under %s: 404, nothing read', async (folder) => {
    for (const spelled of spellings(folder, NAME).map(decodeURIComponentSafe)) {
      const res = await server.post('/api/rag/parse-file', { filepath: spelled });
      expect(res.status, `${spelled}: ${res.text}`).toBe(404);
      expectErrorShape(res.body);
      expect(res.text).not.toContain(`private ${folder}`);
    }
  });

  it.each(FOLDERS)('uploads into %s are refused with 400 (REST and GraphQL), nothing written', async (folder) => {
    const before = fs.readdirSync(path.join(server.dataDir, folder)).length;
    for (const dir of [folder, folder.toUpperCase(), folder[0].toUpperCase() + folder.slice(1)]) {
      const res = await server.upload(`/api/file/${dir}`, { name: 'x.txt', content: 'planted', type: 'text/plain' });
      expect(res.status, `${dir}: ${res.text}`).toBe(400);
      expect(res.body.message).toContain('reserved');
      const form = new FormData();
      form.append('operations', JSON.stringify({ query: 'mutation($file: Upload!, $dir: String) { uploadFile(file: $file, dir: $dir) { filepath } }', variables: { file: null, dir } }));
      form.append('map', JSON.stringify({ 0: ['variables.file'] }));
      form.append('0', new Blob(['planted'], { type: 'text/plain' }), 'x.txt');
      const gql = await server.raw('/graphql', { method: 'POST', body: form });
      expect(gql.text, dir).not.toContain('"filepath"');
      expect(JSON.stringify(gql.body.errors?.[0]?.extensions ?? {}), gql.text).toMatch(/"status":400/);
    }
    for (const dir of [`${folder}.`, `../${folder}`, `${folder}%2Fsub`]) {
      const res = await server.upload(`/api/file/${encodeURIComponent(dir)}`, { name: 'x.txt', content: 'planted', type: 'text/plain' });
      expect(res.status, `${dir}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(fs.readdirSync(path.join(server.dataDir, folder)).length).toBe(before);
  });
});

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
