import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape } from './helpers/fixtures.ts';

/** Bugs the fuzz and fault suites found (tests/fuzz), pinned as plain API tests. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ maxUploadBytes: 64 * 1024 });
});
afterAll(async () => {
  await server?.close();
});

describe('regressions found by tests/fuzz', () => {
  it('GET <base>/ids/:ids accepts more than two ids (was a 404: Fastify maxParamLength 100)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await create(server, '/api/contacts', { name: `ids ${i}`, email: `ids${i}@example.com` }))._id);
    const res = await server.get(`/api/contacts/ids/${ids.join(',')}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((c: any) => c._id)).toEqual(ids);
  });

  it('a malformed multipart body is a 400, not a 500, on every upload route', async () => {
    for (const url of ['/api/contacts/import', '/api/file/docs', '/api/users/avatar']) {
      const res = await server.raw(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zzz' }, body: '{"name":"x"}' });
      expect(res.status, url).toBe(400);
      expectErrorShape(res.body);
    }
  });

  it('a ref list of 100,000 ids is a 400 naming the fields, not a 500 (too many SQL variables)', async () => {
    const res = await server.post('/api/knowledge', { name: 'k', toolDescription: 't', sources: Array.from({ length: 100_000 }, (_, i) => `missing${i}`) });
    expect(res.status).toBe(400);
    expect(res.body.inputErrors[0]).toEqual({ field: 'sources.0', reason: 'validation.refNotFound' });
  });

  it('an upload rejected before its body is read does not stall the next request on the connection', async () => {
    for (let i = 0; i < 3; i++) {
      const form = new FormData();
      form.append('not-file', new Blob([new Uint8Array(256 * 1024)]), 'big.bin');
      const res = await server.raw('/api/file', { method: 'POST', body: form });
      expect(res.status).toBe(400);
      const started = Date.now();
      expect((await server.get('/api/health')).status).toBe(200);
      expect((await server.get('/api/auth/me')).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it('the server\'s secrets folder (JWT signing key, API-key pepper) is never served nor written by uploads', async () => {
    // Without JWT_SECRET / API_KEY_SECRET the server generates them into DATA_DIR/secrets (secret-store.ts).
    fs.mkdirSync(path.join(server.dataDir, 'secrets'), { recursive: true });
    fs.writeFileSync(path.join(server.dataDir, 'secrets', 'jwt-secret'), 'the-signing-key-0123456789abcdef0123456789');
    for (const p of ['/files/secrets/jwt-secret', '/files/Secrets/jwt-secret', '/files/secrets/api-key-secret', '/files/secrets/../secrets/jwt-secret']) {
      const res = await server.as(null).get(p);
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain('the-signing-key');
    }
    const upload = await server.upload('/api/file/secrets', { name: 'jwt-secret', content: 'forged' });
    expect(upload.status).toBe(400);
    expectErrorShape(upload.body);
  });
});
