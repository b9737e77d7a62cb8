import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { expectErrorShape } from './helpers/fixtures.ts';

const LIMIT = 64 * 1024;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ maxUploadBytes: LIMIT });
  fs.writeFileSync(path.join(server.dataDir, 'secret.txt'), 'top secret');
});
afterAll(async () => server.close());

/** Sends a path byte for byte (fetch would normalise ../ away before sending). */
function rawGet(pathText: string): Promise<{ status: number; body: string }> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${pathText} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    });
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('end', () => resolve({ status: Number(data.split(' ')[1]), body: data.split('\r\n\r\n').slice(1).join('\r\n\r\n') }));
    socket.on('error', reject);
  });
}

describe('upload and download', () => {
  it('stores under DATA_DIR/<dir>/<yyyy>/<mm>/ with a generated name and serves it back', async () => {
    const res = await server.upload('/api/file/avatars', { name: 'My Photo (1).PNG', content: Buffer.from('png-bytes'), type: 'image/png' });
    expect(res.status).toBe(201);
    const now = new Date();
    const prefix = `avatars/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/`;
    expect(res.body).toEqual({
      filename: 'My Photo (1).PNG',
      filepath: expect.stringMatching(new RegExp(`^${prefix}[0-9a-f]{32}\\.png$`)),
      size: 9,
      mimetype: 'image/png',
      url: `/files/${res.body.filepath}`,
    });
    expect(fs.readFileSync(path.join(server.dataDir, res.body.filepath), 'utf8')).toBe('png-bytes');
    const download = await fetch(server.baseUrl + res.body.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await download.text()).toBe('png-bytes');
  });

  it('defaults to the "files" dir and sanitises hostile names', async () => {
    const res = await server.upload('/api/file', { name: '../../etc/pass<wd>.sh', content: 'x' });
    expect(res.status).toBe(201);
    expect(res.body.filename).toBe('pass_wd_.sh');
    expect(res.body.filepath).toMatch(/^files\/\d{4}\/\d{2}\/[0-9a-f]{32}\.sh$/);
  });

  it('rejects a bad dir, a missing file field and a non-multipart body', async () => {
    const bad = await server.upload('/api/file/bad.dir', { name: 'a.txt', content: 'x' });
    expect(bad.status).toBe(400);
    expectErrorShape(bad.body);
    const dots = await server.upload('/api/file/..', { name: 'a.txt', content: 'x' });
    expect([400, 404]).toContain(dots.status);
    const wrongField = await server.upload('/api/file/files', { name: 'a.txt', content: 'x' }, 'other');
    expect(wrongField.status).toBe(400);
    const json = await server.post('/api/file/files', { file: 'x' });
    expect(json.status).toBe(415);
  });

  it('answers 413 in the error shape above the size limit and leaves no partial file', async () => {
    const res = await server.upload('/api/file/big', { name: 'big.bin', content: Buffer.alloc(LIMIT + 1, 1) });
    expect(res.status).toBe(413);
    expectErrorShape(res.body);
    const dir = path.join(server.dataDir, 'big');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => fs.statSync(path.join(dir, String(f))).isFile()) : [];
    expect(files).toEqual([]);
    const ok = await server.upload('/api/file/big', { name: 'ok.bin', content: Buffer.alloc(LIMIT, 1) });
    expect(ok.status).toBe(201);
    expect(ok.body.size).toBe(LIMIT);
  });
});

describe('no path traversal out of DATA_DIR', () => {
  const attempts = [
    '/files/../secret.txt',
    '/files/%2e%2e/secret.txt',
    '/files/files/%2e%2e/%2e%2e/secret.txt',
    '/files/files/..%2f..%2fsecret.txt',
    '/files/%252e%252e/secret.txt',
    '/files/..%5csecret.txt',
    '/files//etc/passwd',
    '/files/%2fetc%2fpasswd',
    '/files/secret.txt',
    '/files/forja.db',
    '/files/files/x%00.txt',
    '/files/.hidden/x',
  ];
  for (const attempt of attempts) {
    it(`refuses ${attempt}`, async () => {
      const res = await rawGet(attempt);
      expect([400, 404]).toContain(res.status);
      expect(res.body).not.toContain('top secret');
      expect(res.body).not.toContain('SQLite format');
    });
  }
});
