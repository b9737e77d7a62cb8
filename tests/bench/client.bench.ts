// npm run bench:client — the console in headless Chromium against its production build:
//   1. navigation to a rendered CRUD table of 100 rows (bot traces),
//   2. keystroke-to-paint latency in the largest generated form (bot: long prompt textareas),
//   3. the gzip size of the JavaScript a CRUD route loads.
// Goals (issue 5): table < 300 ms, keystroke < 16 ms, CRUD route JS < 350 KB gzip.
import { gzipSync } from 'node:zlib';
import { startApp } from '../e2e/helpers/app-under-test.ts';

process.env.E2E_CONSOLE = 'build';
const app = await startApp();
try {
  const token = await app.apiToken();
  const statuses = await app.api<{ items: { _id: string }[] }>('GET', '/api/bot-trace-statuses?limit=1', undefined, token);
  const bot = await app.api<{ _id: string }>('POST', '/api/bots', { name: 'Bench bot', description: 'bench' }, token);
  for (let i = 0; i < 120; i++) {
    await app.api('POST', '/api/bot-traces', {
      status: statuses.items[0]._id, bot: bot._id, userMessage: `¿Pregunta número ${i}?`, assistantMessage: `Respuesta ${i}`,
      provider: 'offline', model: 'extractive-v1', inputTokens: 40, outputTokens: 12, tokens: 52, latency: 1000 + i,
    }, token);
  }

  const page = await app.newPage();
  await app.signIn(page);
  // The page sizes offered are 5 to 50; the issue asks for 100 rows, so the list request is widened.
  await page.route('**/api/bot-traces?*', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('limit', '100');
    return route.continue({ url: url.toString() });
  });

  const tableTimes: number[] = [];
  for (let run = 0; run < 5; run++) {
    await page.goto(`${app.webUrl}/`);
    await page.waitForLoadState('networkidle');
    const started = Date.now();
    await page.goto(`${app.webUrl}/crud/bottrace`);
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length >= 100, undefined, { timeout: 30_000 });
    tableTimes.push(Date.now() - started);
  }

  // JavaScript of a CRUD route, as a first visit in a fresh browser context loads it.
  const fresh = await app.newPage();
  const scripts = new Map<string, number>();
  fresh.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    try {
      scripts.set(response.url(), gzipSync(await response.body()).length);
    } catch { /* redirected or aborted */ }
  });
  await app.signIn(fresh);
  await fresh.goto(`${app.webUrl}/crud/bottrace`);
  await fresh.waitForFunction(() => document.querySelectorAll('tbody tr').length > 0, undefined, { timeout: 30_000 });
  await fresh.waitForLoadState('networkidle');
  const routeKb = [...scripts.values()].reduce((a, b) => a + b, 0) / 1024;

  // Keystroke to paint in the bot form: time from keydown to the next animation frame after it.
  await page.goto(`${app.webUrl}/crud/bot`);
  await page.getByRole('button', { name: 'Crear' }).first().click();
  const name = page.getByRole('dialog').getByRole('textbox', { name: 'Nombre' });
  await name.waitFor();
  await name.click();
  await page.evaluate(() => {
    const w = window as unknown as { __latencies: number[] };
    w.__latencies = [];
    document.addEventListener('keydown', () => {
      const t0 = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => w.__latencies.push(performance.now() - t0)));
    }, true);
  });
  await page.keyboard.type('Asistente de soporte para devoluciones y envíos', { delay: 60 });
  await page.waitForTimeout(300);
  const latencies = await page.evaluate(() => (window as unknown as { __latencies: number[] }).__latencies);

  const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length - 1) * p))];
  // The double rAF spans one frame boundary (~16.7 ms at 60 Hz) even when the work is instant, so
  // the keystroke's own cost is the latency minus that frame.
  const frame = 1000 / 60;
  console.log(`table of 100 rows: median ${pct(tableTimes, 0.5)} ms, worst ${Math.max(...tableTimes)} ms (${tableTimes.length} navigations) - goal < 300 ms`);
  console.log(`keystroke to paint: p50 ${pct(latencies, 0.5).toFixed(1)} ms, p95 ${pct(latencies, 0.95).toFixed(1)} ms over ${latencies.length} keys (work beyond the frame: p50 ${Math.max(0, pct(latencies, 0.5) - frame).toFixed(1)} ms) - goal < 16 ms`);
  console.log(`CRUD route JavaScript: ${routeKb.toFixed(0)} KB gzip in ${scripts.size} files - goal < 350 KB`);
} finally {
  await app.stop();
}
