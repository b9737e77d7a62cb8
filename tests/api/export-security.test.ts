import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qs, startTestServer, type TestServer } from './helpers/test-server.ts';
import { until } from './helpers/until.ts';
import { create, minimalBot, userWith } from './helpers/fixtures.ts';

/**
 * Issue 16 "Exports" and the resource limits of file work: download links that only the exporting
 * user's signature opens, for a short time, as attachments; export files that go away; quotas
 * and caps that keep one user from filling the disk or the event loop. Limits are set small
 * through the environment the server reads at start (server/files/file-limits.ts).
 */
const LIMITS = {
  // Long enough for a test's many requests on a busy CI machine; the expiry test below starts a
  // server of its own with a 1 s lifetime.
  EXPORT_LINK_TTL_SECONDS: '120',
  EXPORT_RETENTION_HOURS: String(3 / 3600), // 3 s, swept every 1.5 s
  EXPORT_QUOTA_BYTES: '60000',
  UPLOAD_QUOTA_BYTES: '5000',
  IMPORT_MAX_ROWS: '30000',
};
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: LIMITS });
  await create(server, '/api/bots', minimalBot('Exported bot', { description: '=HYPERLINK("http://evil","x")' }));
});
afterAll(async () => {
  await server.close();
});

async function exportUrl(client = server as Pick<TestServer, 'get'>, format = 'CSV'): Promise<string> {
  const res = await client.get(`/api/bots/export${qs({ format, headers: 'name,description' })}`);
  expect(res.status, res.text).toBe(200);
  return res.body.url as string;
}

const fetchAnon = (url: string) => fetch(server.baseUrl + url);

describe('export downloads', () => {
  it('come as attachments, never cached, from a link that works without a token', async () => {
    for (const format of ['CSV', 'JSON']) {
      const url = await exportUrl(server, format);
      const res = await fetchAnon(url);
      expect(res.status).toBe(200);
      const extension = format.toLowerCase();
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="bot-\\d{4}-\\d{2}-\\d{2}-\\d{2}-\\d{2}-\\d{2}\\.${extension}"$`));
      expect(res.headers.get('content-type')).toBe(format === 'CSV' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const text = await res.text();
      // The formula is written as text (leading quote), inside CSV quotes because of its own quotes.
      if (format === 'CSV') expect(text).toContain(`Exported bot;"'=HYPERLINK(""http://evil"",""x"")"`);
    }
  });

  it('refuses every path, signature, user or expiry that was not signed together', async () => {
    const url = new URL(await exportUrl(), 'http://x');
    const name = url.pathname.split('/').pop()!;
    const params = Object.fromEntries(url.searchParams);
    const other = await userWith(server, ['bot:view']);
    const variants: [string, number][] = [
      [`/files/exports/${name}`, 403], // the old unsigned URL
      [`/files/exports/${name}?expires=${params.expires}&user=${params.user}`, 403],
      [`/files/exports/${name}?${new URLSearchParams({ ...params, signature: params.signature.slice(0, -2) + 'AA' })}`, 403],
      [`/files/exports/${name}?${new URLSearchParams({ ...params, signature: '' })}`, 403],
      [`/files/exports/${name}?${new URLSearchParams({ ...params, expires: String(Number(params.expires) + 3_600_000) })}`, 403],
      [`/files/exports/${name}?${new URLSearchParams({ ...params, user: other.user._id })}`, 403],
      [`/files/exports/${name}?${new URLSearchParams({ ...params, user: '' })}`, 403],
      [`/files/exports/${name.replace(/^bot-/, 'bottrace-')}?${url.searchParams}`, 403],
      // Another last character (a fixed '0' was the same name one time in sixteen).
      [`/files/exports/${name.replace(/([0-9a-f])(\.csv)$/, (_match, last: string, ext: string) => (last === '0' ? '1' : '0') + ext)}?${url.searchParams}`, 403],
      [`/files/exports/..%2fexports%2f${name}?${url.searchParams}`, 403],
      [`/files/exports/x/${name}?${url.searchParams}`, 404], // the general file route never serves exports
      [`/files/exports%2f${name}?${url.searchParams}`, 404],
      [`/files/./exports/${name}`, 403],
      [`/files/Exports/${name}`, 404],
    ];
    for (const [variant, status] of variants) {
      const res = await fetchAnon(variant);
      expect(res.status, variant).toBe(status);
      const body = await res.json();
      expect(body.message, variant).toEqual(expect.any(String));
      expect(JSON.stringify(body)).not.toContain('Exported bot');
    }
    // The untouched link still works: nothing above consumed or broke it.
    expect((await fetchAnon(`${url.pathname}${url.search}`)).status).toBe(200);
  });

  it('a link dies with its account and after its lifetime (410)', async () => {
    const viewer = await userWith(server, ['bot:view']);
    const url = await exportUrl(viewer.client);
    expect((await fetchAnon(url)).status).toBe(200);
    expect((await server.put(`/api/users/${viewer.user._id}`, { active: false })).status).toBe(200);
    expect((await fetchAnon(url)).status).toBe(403);

    const shortLived = await startTestServer({ env: { ...LIMITS, EXPORT_LINK_TTL_SECONDS: '1' } });
    try {
      const late = (await shortLived.get(`/api/bots/export${qs({ format: 'CSV', headers: 'name' })}`)).body.url as string;
      // Good until its second is over, then gone for good.
      const issued = Date.now();
      const expired = await until(() => fetch(shortLived.baseUrl + late), (res) => res.status !== 200, 'the link to expire', { tries: 100, everyMs: 100 });
      expect(Date.now() - issued).toBeGreaterThanOrEqual(900);
      expect(expired.status).toBe(410);
      expect(await expired.json()).toMatchObject({ i18nMessage: 'error.exportLinkExpired' });
    } finally {
      await shortLived.close();
    }
  });

  it('files are deleted after the retention period by the server itself', async () => {
    const url = await exportUrl();
    const file = path.join(server.dataDir, new URL(url, 'http://x').pathname.replace(/^\/files\//, ''));
    expect(fs.existsSync(file)).toBe(true);
    await until(() => fs.existsSync(file), (exists) => !exists, 'the export file to be swept', { tries: 80, everyMs: 250 });
  });

  it('uploads cannot write into the exports folder, and knowledge cannot read from it', async () => {
    const res = await server.upload('/api/file/exports', { name: 'x.csv', content: 'a' });
    expect(res.status).toBe(400);
    expect(fs.existsSync(path.join(server.dataDir, 'exports', String(new Date().getUTCFullYear())))).toBe(false);
  });
});

describe('quotas and caps', () => {
  it('a user holding EXPORT_QUOTA_BYTES of exports gets 413 and no partial file', async () => {
    const writer = await userWith(server, ['bottrace:view', 'bot:create', 'bot:view']);
    for (let i = 0; i < 40; i++) await create(server, '/api/bots', minimalBot(`Quota bot ${i}`, { description: 'x'.repeat(1900) }));
    const exportsDir = path.join(server.dataDir, 'exports');
    const before = fs.readdirSync(exportsDir).length;
    // One export of ~80 KB is more than the 60 KB quota: cut off while writing, file removed.
    const big = await writer.client.get(`/api/bots/export${qs({ format: 'JSON' })}`);
    expect(big.status, big.text).toBe(413);
    expect(big.body).toMatchObject({ i18nMessage: 'error.exportQuota' });
    expect(fs.readdirSync(exportsDir).length).toBe(before);
    // Small exports fit until the quota is used up; other users keep theirs.
    let refused = 0;
    for (let i = 0; i < 12 && refused === 0; i++) {
      const res = await writer.client.get(`/api/bots/export${qs({ format: 'CSV', headers: 'name,description', filters: 'name;like;Quota bot 1' })}`);
      if (res.status === 413) refused++;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBe(1);
    expect((await server.get(`/api/bots/export${qs({ format: 'CSV', headers: 'name' })}`)).status).toBe(200);
  });

  it('uploads stop at UPLOAD_QUOTA_BYTES per user per day (413), per user', async () => {
    const uploader = await userWith(server, ['bot:view']);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await uploader.client.upload('/api/file', { name: `f${i}.txt`, content: 'u'.repeat(2000) })).status);
    expect(statuses).toEqual([201, 201, 201, 413]);
    const other = await userWith(server, ['bot:view']);
    expect((await other.client.upload('/api/file', { name: 'g.txt', content: 'g' })).status).toBe(201);
  });

  it('an import over IMPORT_MAX_ROWS is a 413 that names the limit, for CSV and JSON, and creates nothing', async () => {
    const before = (await server.get('/api/bot-trace-statuses')).body.total;
    const rows = Array.from({ length: 30001 }, (_, i) => `cap-${i}`);
    const csv = await server.upload('/api/bot-trace-statuses/import', { name: 's.csv', content: ['name', ...rows].join('\n') });
    expect(csv.status).toBe(413);
    expect(csv.body).toMatchObject({ message: expect.stringContaining('more than 30000 rows'), i18nMessage: 'error.importTooManyRows' });
    const json = await server.upload('/api/bot-trace-statuses/import', { name: 's.json', content: JSON.stringify(rows.map((name) => ({ name }))) });
    expect(json.status).toBe(413);
    expect((await server.get('/api/bot-trace-statuses')).body.total).toBe(before);
  });

  it('a large import dry run keeps /api/health answering within 300 ms', async () => {
    const lines = ['name;description'];
    for (let i = 0; i < 29_000; i++) lines.push(`health-${i};${'d'.repeat(60)} =1+1`);
    const content = lines.join('\n');
    let running = true;
    const latencies: number[] = [];
    const probe = (async () => {
      while (running) {
        const started = performance.now();
        const res = await fetch(`${server.baseUrl}/api/health`);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        // Pacing of the probe (a load of its own), not a wait for a state.
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const res = await server.upload('/api/bot-trace-statuses/import?dryRun=true', { name: 'big.csv', content });
    running = false;
    await probe;
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ total: 29_000, valid: 29_000 });
    // Probes were answered while the import ran (a blocked event loop answers one, at the end).
    // Latency figures are the bench's job (tests/bench/import.bench.ts), not a test's.
    expect(latencies.length).toBeGreaterThan(5);
  }, 120_000); // tens of thousands of rows, several at once: well over 30 s on a busy 2-core CI machine

  it('a third concurrent import of the same user is refused with 429, others are not', async () => {
    const importer = await userWith(server, ['bottracestatus:create', 'bottracestatus:view']);
    // Large enough that all four are still running when the third and fourth ask for a slot.
    const content = ['name', ...Array.from({ length: 30_000 }, (_, i) => `conc-${i}`)].join('\n');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => importer.client.upload('/api/bot-trace-statuses/import?dryRun=true', { name: 'c.csv', content })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(results.find((r) => r.status === 429)!.body).toMatchObject({ i18nMessage: 'error.tooManyConcurrent' });
    // The slots are given back: the next one runs.
    expect((await importer.client.upload('/api/bot-trace-statuses/import?dryRun=true', { name: 'c.csv', content: 'name\nafter\n' })).status).toBe(200);
  }, 120_000); // tens of thousands of rows, several at once: well over 30 s on a busy 2-core CI machine
});
