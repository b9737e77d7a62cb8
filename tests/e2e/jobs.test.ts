// The jobs panel in Chromium (production build, real CSP): a training that waits on a slow page
// shows as a running job with a moving progress bar, an export as a finished one, and a queued or
// running job can be cancelled from the panel.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;
let site: http.Server;
let siteUrl = '';
const held: http.ServerResponse[] = [];
const release = () => {
  for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/plain' }).end('Los pedidos llegan en 48 horas.');
};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url?.startsWith('/hold')) held.push(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  app = await startApp({ env: { RAG_ALLOW_PRIVATE_URLS: 'true', JOBS_HEARTBEAT_SECONDS: '0.5', JOBS_STALE_SECONDS: '2' } });
});

afterAll(async () => {
  release();
  await app?.stop();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

describe('jobs panel in Chromium', () => {
  it('shows a running training with its progress bar, a finished export, and cancels a job', async () => {
    const token = await app.apiToken();
    await app.api('GET', '/api/bots/export?format=CSV', undefined, token);
    const trained = await app.api<{ _id: string }>('POST', '/api/knowledge', { name: 'Pedidos', toolDescription: 'pedidos', urls: [{ title: 'web', url: `${siteUrl}/hold-1` }] }, token);
    const cancelled = await app.api<{ _id: string }>('POST', '/api/knowledge', { name: 'Devoluciones', toolDescription: 'devoluciones', urls: [{ title: 'web', url: `${siteUrl}/hold-2` }] }, token);
    // The training requests wait for their jobs; the panel is what this test looks at.
    const first = fetch(`${app.apiUrl}/api/rag/train/${trained._id}`, { headers: { authorization: `Bearer ${token}` } });
    const second = fetch(`${app.apiUrl}/api/rag/train/${cancelled._id}`, { headers: { authorization: `Bearer ${token}` } });

    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/jobs`);
    const panel = page.getByTestId('jobs-panel');
    await panel.getByRole('heading', { name: 'Tareas' }).waitFor();
    const trainings = panel.locator('[data-testid="job-train"][data-state="running"]');
    await expect.poll(() => trainings.count(), { timeout: 20_000 }).toBe(2);
    const running = panel.locator('[data-testid="job-train"]', { hasText: 'Pedidos' });
    expect(await running.textContent()).toContain('En curso');
    expect(await running.textContent()).toContain('Leyendo fuentes');
    await running.getByTestId('job-progress').waitFor();
    const exported = panel.locator('[data-testid="job-export"]').first();
    expect(await exported.getAttribute('data-state')).toBe('done');
    expect(await exported.textContent()).toContain('Exportación · Bots · CSV');
    await app.screenshot(page, 'jobs-panel-training');

    // Cancel the second training from the panel: its request ends with 409, the row says so.
    await panel.locator('[data-testid="job-train"]', { hasText: 'Devoluciones' }).getByTestId('job-cancel').click();
    // Both trainings are waiting on their page by now: answering earlier would leave one hanging.
    await expect.poll(() => held.length, { timeout: 20_000 }).toBe(2);
    release();
    expect((await second).status).toBe(409);
    expect((await first).status).toBe(200);
    const done = panel.locator('[data-testid="job-train"]', { hasText: 'Pedidos' });
    await expect.poll(() => done.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
    const gone = panel.locator('[data-testid="job-train"]', { hasText: 'Devoluciones' });
    await expect.poll(() => gone.getAttribute('data-state'), { timeout: 20_000 }).toBe('cancelled');
    expect(await gone.textContent()).toContain('Cancelada');
    expect(await done.textContent()).toContain('1 de 1');
    await app.screenshot(page, 'jobs-panel-finished');
  }, 120_000);
});
