/**
 * Save-to-live in development (issue 25 item 6): with `npm run dev` running in a scratch copy of
 * the repository, a field is added to manifests/contact.json (and its label to the locales) and
 * the time is taken until
 *   - api:     the running server accepts and returns the field over REST (POST then GET), and
 *   - console: the Vite dev server serves src/generated/entities.ts with the field (what HMR sends).
 * Several rounds, each a new field; the contact created in the first round must still be there at
 * the end (the data is kept). Run: npx tsx tests/bench/dev-live.bench.ts  (DEV_LIVE_ROUNDS=5)
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { scratchCopy } from '../helpers/scratch-copy.ts';
import { freePort } from '../helpers/free-port.ts';

const ROUNDS = Number(process.env.DEV_LIVE_ROUNDS ?? 3);
const PASSWORD = 'Dev-live-bench-1234';
const POLL_MS = 25;

const root = scratchCopy('forja-dev-live-');
const apiPort = await freePort();
const vitePort = await freePort();
const api = `http://127.0.0.1:${apiPort}`;
const vite = `http://127.0.0.1:${vitePort}`;
let output = '';
const dev = spawn('npm', ['run', 'dev'], {
  cwd: root,
  env: { ...process.env, PORT: String(apiPort), HOST: '127.0.0.1', VITE_PORT: String(vitePort), DATA_DIR: path.join(root, 'data'), ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', FORCE_COLOR: '0' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

function stop(): void {
  if (dev.exitCode === null) process.kill(-dev.pid!, 'SIGTERM');
}
process.on('exit', () => {
  stop();
  fs.rmSync(root, { recursive: true, force: true });
});

async function until<T>(what: string, read: () => Promise<T | null>, limitMs = 120_000): Promise<T> {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline) {
    const value = await read().catch(() => null);
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`timed out waiting for ${what}\n${output.slice(-4000)}`);
}

async function json(method: string, url: string, token: string | null, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

await until('the API server', async () => ((await fetch(`${api}/api/health`)).ok ? true : null));
await until('the Vite dev server', async () => ((await fetch(`${vite}/src/generated/entities.ts`)).ok ? true : null));
const token = (await json('POST', `${api}/api/auth/login`, null, { username: 'admin', password: PASSWORD })).body.accessToken as string;
const first = await json('POST', `${api}/api/contacts`, token, { name: 'Kept across changes', email: 'kept@example.com' });
if (first.status !== 201) throw new Error(`could not create the first contact: ${JSON.stringify(first)}`);

const manifestFile = path.join(root, 'manifests', 'contact.json');
const figures: Array<{ field: string; apiMs: number; consoleMs: number }> = [];
for (let round = 1; round <= ROUNDS; round++) {
  const field = `live${round}`;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  manifest.fields.push({ name: field, type: 'string', label: `field.contact.${field}`, validation: { maxLength: 40 } });
  const started = performance.now();
  // The save: the label in both locales, then the manifest (an editor saving two files).
  for (const [locale, text] of [['es', `Vivo ${round}`], ['en', `Live ${round}`]]) {
    const file = path.join(root, 'locales', `${locale}.json`);
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), [`field.contact.${field}`]: text }, null, 2));
  }
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  const apiLive = until(`${field} over REST`, async () => {
    const created = await json('POST', `${api}/api/contacts`, token, { name: `Contact ${field}`, [field]: 'yes' });
    if (created.status !== 201) return null;
    const read = await json('GET', `${api}/api/contacts/${created.body._id}`, token);
    return read.body?.[field] === 'yes' ? performance.now() - started : null;
  });
  const consoleLive = until(`${field} in the console`, async () => {
    const text = await (await fetch(`${vite}/src/generated/entities.ts`)).text();
    return text.includes(`field.contact.${field}`) ? performance.now() - started : null;
  });
  const [apiMs, consoleMs] = await Promise.all([apiLive, consoleLive]);
  figures.push({ field, apiMs: Math.round(apiMs), consoleMs: Math.round(consoleMs) });
  console.log(`round ${round}: ${field} live over REST after ${Math.round(apiMs)} ms, in the console's module after ${Math.round(consoleMs)} ms`);
}
const kept = await json('GET', `${api}/api/contacts/${first.body._id}`, token);
if (kept.status !== 200 || kept.body.email !== 'kept@example.com') throw new Error(`the first contact was not kept: ${JSON.stringify(kept)}`);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const api_ = sorted(figures.map((f) => f.apiMs));
const console_ = sorted(figures.map((f) => f.consoleMs));
console.log(`save-to-live over ${ROUNDS} rounds: REST median ${api_[Math.floor(api_.length / 2)]} ms (max ${api_.at(-1)}), console median ${console_[Math.floor(console_.length / 2)]} ms (max ${console_.at(-1)}); data kept`);
if (process.env.DEV_LIVE_OUTPUT) console.log(output);
stop();
process.exit(0);
