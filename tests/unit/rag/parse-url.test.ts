import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../server/rag/parse/address-policy.ts';
import { parseUrl } from '../../../server/rag/parse/parse-url.ts';

let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits += 1;
    const url = new URL(req.url ?? '/', 'http://x');
    const hop = Number(url.searchParams.get('n') ?? 0);
    switch (url.pathname) {
      case '/page':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end('<html><head><title>Envíos</title></head><body><nav>menu</nav><p>El envío es gratuito.</p></body></html>');
        return;
      case '/latin1':
        res.setHeader('content-type', 'text/plain; charset=iso-8859-1');
        res.end(Buffer.from('Canci\xf3n', 'latin1'));
        return;
      case '/gzip':
        res.setHeader('content-type', 'text/plain');
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync(Buffer.from('comprimido '.repeat(50))));
        return;
      case '/bomb':
        res.setHeader('content-type', 'text/plain');
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync(Buffer.alloc(2_000_000, 0x61)));
        return;
      case '/redirect':
        res.statusCode = 302;
        res.setHeader('location', hop > 0 ? `/redirect?n=${hop - 1}` : '/page');
        res.end();
        return;
      case '/redirect-internal':
        res.statusCode = 301;
        res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
        res.end();
        return;
      case '/big':
        res.setHeader('content-type', 'text/plain');
        res.setHeader('content-length', String(10_000_000));
        res.write('x'.repeat(1000));
        return; // never finishes: the declared length alone must refuse it
      case '/stream':
        res.setHeader('content-type', 'text/plain');
        // No content-length: the cap must cut the stream itself.
        for (let i = 0; i < 200; i += 1) res.write('y'.repeat(10_000));
        res.end();
        return;
      case '/slow':
        res.setHeader('content-type', 'text/plain');
        res.write('starting');
        return; // hangs
      case '/image':
        res.setHeader('content-type', 'image/png');
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        return;
      case '/missing':
        res.statusCode = 404;
        res.end('no');
        return;
      default:
        res.statusCode = 500;
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const local = { allowPrivate: true };

describe('parseUrl against a local server (allowPrivate)', () => {
  it('fetches a page and extracts its readable text', async () => {
    expect(await parseUrl(`${base}/page`, local)).toEqual({
      type: 'html',
      content: 'Envíos\n\nEl envío es gratuito.',
      url: `${base}/page`,
    });
  });

  it('decodes the declared charset and gzip', async () => {
    expect((await parseUrl(`${base}/latin1`, local)).content).toBe('Canción');
    expect((await parseUrl(`${base}/gzip`, local)).content).toBe('comprimido '.repeat(50).trim());
  });

  it('follows up to 5 redirects and refuses a sixth', async () => {
    expect((await parseUrl(`${base}/redirect?n=4`, local)).url).toBe(`${base}/page`);
    await expect(parseUrl(`${base}/redirect?n=5`, local)).rejects.toMatchObject({ statusCode: 400, code: 'urlUnreachable', message: expect.stringMatching(/redirects/) });
  });

  it('re-checks every redirect hop against the address policy', async () => {
    // A policy that admits the test server (as if it were public) and nothing else private: the
    // first hop passes, the redirect to the cloud metadata address must not.
    const onlyTestServer = (address: string) => address === '127.0.0.1' || isPublicAddress(address);
    const before = hits;
    await expect(parseUrl(`${base}/redirect-internal`, { isAllowedAddress: onlyTestServer })).rejects.toMatchObject({ code: 'urlRefused' });
    expect(hits).toBe(before + 1);
    expect((await parseUrl(`${base}/redirect?n=1`, { isAllowedAddress: onlyTestServer })).content).toContain('gratuito');
  });

  it('caps the size by declared length, while streaming, and after decompression', async () => {
    await expect(parseUrl(`${base}/big`, { ...local, maxBytes: 1_000_000 })).rejects.toMatchObject({ statusCode: 413, code: 'tooLarge' });
    await expect(parseUrl(`${base}/stream`, { ...local, maxBytes: 100_000 })).rejects.toMatchObject({ statusCode: 413 });
    await expect(parseUrl(`${base}/bomb`, { ...local, maxBytes: 100_000 })).rejects.toMatchObject({ statusCode: 413 });
    expect((await parseUrl(`${base}/stream`, { ...local, maxBytes: 3_000_000 })).content.length).toBe(2_000_000);
  });

  it('times out', async () => {
    const started = Date.now();
    await expect(parseUrl(`${base}/slow`, { ...local, timeoutMs: 300 })).rejects.toMatchObject({ statusCode: 408, code: 'urlTimeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('answers typed errors for unsupported types, HTTP errors and unreachable hosts', async () => {
    await expect(parseUrl(`${base}/image`, local)).rejects.toMatchObject({ statusCode: 415 });
    await expect(parseUrl(`${base}/missing`, local)).rejects.toMatchObject({ statusCode: 400, code: 'urlHttpStatus' });
    const closed = `http://127.0.0.1:1/`;
    await expect(parseUrl(closed, local)).rejects.toMatchObject({ statusCode: 400, code: 'urlUnreachable' });
    await expect(parseUrl('http://no-such-host.invalid/', local)).rejects.toMatchObject({ code: 'urlUnreachable' });
  });

  it('validates the URL itself', async () => {
    for (const bad of ['', 'nota url', 'ftp://x/y', 'file:///etc/passwd', 'http://user:pw@example.com/', 42, `http://x/${'a'.repeat(3000)}`]) {
      await expect(parseUrl(bad, local)).rejects.toMatchObject({ statusCode: 400, code: 'invalidInput', field: 'url' });
    }
  });
});

describe('parseUrl refuses non-public addresses', () => {
  it.each([
    'http://127.0.0.1/', 'http://[::1]/', 'http://10.0.0.5/', 'http://192.168.1.10/', 'http://172.16.0.1/',
    'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://0.0.0.0/',
    'http://[::]/', 'http://[fe80::1]/', 'http://[fd00::1]/', 'http://224.0.0.1/', 'http://100.64.0.1/', 'http://localhost/',
    'http://2130706433/', 'http://0x7f.1/',
  ])('%s', async (url) => {
    const before = hits;
    await expect(parseUrl(url)).rejects.toMatchObject({ statusCode: 400, code: 'urlRefused', field: 'url' });
    expect(hits).toBe(before);
  });

  it('refuses a host name if ANY of its addresses is private', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    await expect(parseUrl('http://mixed.example/', { resolve })).rejects.toMatchObject({ code: 'urlRefused' });
  });

  it('connects to the address it checked, not to a second DNS answer (rebinding)', async () => {
    // The resolver is asked once per hop; the connection uses its answer via a pinned lookup.
    let calls = 0;
    const port = new URL(base).port;
    const resolve = async () => {
      calls += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const parsed = await parseUrl(`http://rebind.example:${port}/page`, { resolve, allowPrivate: true });
    expect(parsed.content).toContain('gratuito');
    expect(calls).toBe(1);
  });

  it('classifies addresses', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2001:4860:4860::8888')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    for (const a of ['127.0.0.1', '::1', '10.1.1.1', '192.168.0.1', '169.254.1.1', '::ffff:10.0.0.1', 'fc00::1', 'ff02::1', '::', 'not-an-ip']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});
