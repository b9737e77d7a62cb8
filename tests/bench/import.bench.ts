// npx tsx tests/bench/import.bench.ts — /api/health latency while one user runs a large import
// (issue 16: a 12 MB dry run used to hold every other request for tens of seconds). Starts a
// server, builds a ~12 MB CSV of bot traces (refs written as display values, as an export writes
// them), then probes /api/health every 20 ms during the dry run and during the real import.
// BENCH_IMPORT_MB (default 12) sets the file size; rows stay under IMPORT_MAX_ROWS (raised here).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { call, login, spawnServer } from '../fuzz/helpers/child-server.ts';

const MEGABYTES = Number(process.env.BENCH_IMPORT_MB ?? 12);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-bench-import-'));
const server = await spawnServer({ dataDir, env: { LOG_LEVEL: 'warn', IMPORT_MAX_ROWS: '200000', MAX_UPLOAD_BYTES: String(64 * 1024 * 1024) } });
const base = server.baseUrl;

try {
  const token = await login(base);
  const bot = await call(base, token, 'POST', '/api/bots', { name: 'Bench bot', description: 'imports' });
  if (bot.status !== 201) throw new Error(`bot: ${bot.status} ${bot.text}`);

  const lines = ['status;bot;chatId;userMessage;assistantMessage;tokens;latency;knowledgeBase'];
  let size = lines[0].length;
  for (let i = 0; size < MEGABYTES * 1024 * 1024; i++) {
    const line = `ok;Bench bot;chat-${i};=Pregunta número ${i} sobre horarios y precios del servicio;Respuesta ${i}: abrimos de 9 a 18 h, de lunes a viernes, salvo festivos;${i % 500};${i % 3000};"[{""source"":""s${i % 7}"",""hash"":""h"",""content"":""c""}]"`;
    lines.push(line);
    size += line.length + 1;
  }
  const content = lines.join('\n');
  console.log(`file: ${(Buffer.byteLength(content) / 1024 / 1024).toFixed(1)} MB, ${(lines.length - 1).toLocaleString('en')} rows`);

  for (const dryRun of [true, false]) {
    const latencies: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const started = performance.now();
        const res = await fetch(`${base}/api/health`);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/csv' }), 'traces.csv');
    const started = performance.now();
    const res = await fetch(`${base}/api/bot-traces/import?dryRun=${dryRun}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { total?: number; valid?: number; created?: number; message?: string };
    const took = (performance.now() - started) / 1000;
    running = false;
    await probe;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
    console.log(
      `${dryRun ? 'dry run' : 'import '}: ${res.status} in ${took.toFixed(1)} s (${JSON.stringify(body).slice(0, 120)}); ` +
        `/api/health ${latencies.length} probes: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
  }
} finally {
  await server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
