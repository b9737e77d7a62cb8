import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedTraces, traceRows } from '../tests/bench/ab-compare.ts';
import { login, spawnServer } from '../tests/fuzz/helpers/child-server.ts';
const root = process.argv[2] ?? process.cwd();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-probe-'));
const env = { LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'probe-admin-password-1' };
const bundle = path.join(root, 'dist-server/main.mjs');
let server = await spawnServer({ dataDir, cwd: root, entry: [bundle], env });
await server.kill('SIGTERM');
seedTraces(path.join(dataDir, 'forja.db'), traceRows(Number(process.env.ROWS ?? 200000)));
server = await spawnServer({ dataDir, cwd: root, entry: [...(process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`] : []), bundle], env });
const token = await login(server.baseUrl, env.ADMIN_PASSWORD);
for (let i = 0; i < Number(process.env.N ?? 5); i++) {
  const t = performance.now();
  const res = await fetch(`${server.baseUrl}/api/bot-traces/export?format=CSV&limit=0`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { rowCount: number; time: number; url: string };
  const wall = performance.now() - t;
  console.log(`export ${body.rowCount} rows: request ${wall.toFixed(0)} ms, written in ${body.time} ms, ${Math.round(body.rowCount / wall * 1000)} rows/s`);
  fs.rmSync(path.join(dataDir, new URL(body.url, 'http://x').pathname.replace(/^\/files\//, '')), { force: true });
}
await server.kill('SIGTERM');
if (process.env.KEEP) console.log(`kept ${dataDir}`); else fs.rmSync(dataDir, { recursive: true, force: true });
