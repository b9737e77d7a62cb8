import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

/** A test server for the describe block, serving `dist` as `write` fills it; `cleanup` is removed after. Returns a GET. */
function serving(dist: string, cleanup: string, write: () => void) {
  let server: TestServer;
  beforeAll(async () => {
    write();
    server = await startTestServer({ distDir: dist, signIn: false });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(cleanup, { recursive: true, force: true });
  });
  return (p: string, headers: Record<string, string> = {}) => fetch(server.baseUrl + p, { headers });
}

/** The built console at /: single-page fallback, caching by content hash, pre-compressed assets. */
describe('serving the built console', () => {
  // Under a folder named "assets" itself: only the build's own assets/ may be cached for good.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-dist-'));
  const dist = path.join(parent, 'assets', 'console');
  const script = 'console.log("forja");'.repeat(100);
  const get = serving(dist, parent, () => {
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Forja</title>');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-C2nG0oPA.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'app-C2nG0oPA.js.br'), brotliCompressSync(script));
  });

  it('deep links get the app, never cached, so a new release is picked up at once', async () => {
    for (const url of ['/', '/index.html', '/crud/bot', '/login']) {
      const res = await get(url, { accept: 'text/html' });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>Forja</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('files outside assets/ are checked on every visit', async () => {
    expect((await get('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
  });

  it('hashed assets are immutable for a year and travel compressed to browsers that take it', async () => {
    const br = await get('/assets/app-C2nG0oPA.js', { 'accept-encoding': 'br, gzip' });
    expect(br.status).toBe(200);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await br.text()).toBe(script); // fetch decodes it
    const plain = await get('/assets/app-C2nG0oPA.js', { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
  });

  it('a missing asset or API path is a 404 in the error shape, not the app', async () => {
    const asset = await get('/assets/gone-123.js');
    expect(asset.status).toBe(404);
    expect(await asset.json()).toMatchObject({ message: expect.stringContaining('not found') });
    expect((await get('/api/nothing-here')).status).toBe(404);
  });
});

/** A page the build prerendered (prerendered/login.html) is the HTML of its path, compressed when the browser takes it. */
describe('serving a prerendered page', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-dist-'));
  const page = '<!doctype html><title>Forja</title><div id="root" data-prerendered="/login"><form></form></div>';
  const get = serving(dist, dist, () => {
    fs.mkdirSync(path.join(dist, 'prerendered'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Forja</title><div id="root"></div>');
    const file = path.join(dist, 'prerendered', 'login.html');
    fs.writeFileSync(file, page);
    fs.writeFileSync(`${file}.br`, brotliCompressSync(page));
    fs.writeFileSync(`${file}.gz`, gzipSync(page));
  });

  it('serves it at its path, query string or not, never cached', async () => {
    for (const url of ['/login', '/login?redirect=%2Fcrud%2Fbot']) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'identity' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.text()).toBe(page);
    }
  });

  it('sends the brotli or gzip copy to a browser that takes it, and says the answer varies by it', async () => {
    for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['br;q=0.5, gzip;q=1', 'gzip'], ['deflate', null]] as const) {
      const res = await get('/login', { 'accept-encoding': accept });
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await res.text()).toBe(page); // fetch decodes it
    }
  });

  it('other paths, and paths that only start like it, get the app', async () => {
    for (const url of ['/', '/crud/bot', '/login/google/callback', '/loginx', '/LOGIN']) {
      expect(await (await get(url, { accept: 'text/html' })).text(), url).toContain('<div id="root"></div>');
    }
  });
});
