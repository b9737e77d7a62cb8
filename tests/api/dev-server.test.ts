import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_ADMIN_PASSWORD, call, freePort, login } from '../fuzz/helpers/child-server.ts';
import { scratchCopy } from '../helpers/scratch-copy.ts';
import { until } from './helpers/until.ts';
import { TEST_BACKEND, dropTestPostgresDatabase, testDatabaseUrl } from './helpers/test-database.ts';

/**
 * The API half of `npm run dev` (scripts/dev-server.ts): a saved manifest is applied to the running
 * server without a restart, the data kept, and no request is refused or failed while the new app
 * takes over; the event stream the console's Vite plugin listens to says `applied` only once the
 * new model serves. A broken manifest is refused with the generator's message and the server keeps
 * serving the last good model. (Save-to-live time: tests/bench/dev-live.bench.ts.)
 */
const root = scratchCopy('forja-dev-server-');
const dataDir = path.join(root, 'data');
let databaseUrl: string | null = null;
let child: ChildProcess;
let exited: Promise<void>;
let output = '';
let baseUrl = '';
let token = '';

function addField(name: string, extra: Record<string, unknown> = {}): void {
  const file = path.join(root, 'manifests', 'contact.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  manifest.fields.push({ name, type: 'string', label: 'field.contact.name', validation: { maxLength: 30 }, ...extra });
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
}

/** The dev server's event stream, as the Vite plugin reads it: every event name with its data. */
function events(): { seen: Array<{ event: string; data: any }>; close: () => void } {
  const seen: Array<{ event: string; data: any }> = [];
  const request = http.get(`${baseUrl}/__forja-dev/events`, (response) => {
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        seen.push({ event: /^event: (\w+)/m.exec(block)![1]!, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) });
      }
    });
  });
  request.on('error', () => undefined);
  return { seen, close: () => request.destroy() };
}

interface Outcome {
  at: number;
  /** 0: no answer (refused, reset): what a handover must never cause. */
  status: number;
  error?: string;
  newModel?: boolean;
}

/**
 * Requests one after another until `stop()`, each kind on its own connection habits: reads and
 * writes on a keep-alive connection, and reads that open a connection each (`connection: close`).
 */
function hammer(kind: 'read' | 'write' | 'fresh-connection', keptId: string, field: string) {
  const outcomes: Outcome[] = [];
  let running = true;
  const agent = new http.Agent({ keepAlive: kind !== 'fresh-connection', maxSockets: 1 });
  const once = () =>
    new Promise<Outcome>((resolve) => {
      const at = performance.now();
      const write = kind === 'write';
      const body = write ? JSON.stringify({ name: `Hammered ${outcomes.length}` }) : undefined;
      const request = http.request(
        `${baseUrl}${write ? '/api/contacts' : `/api/contacts/${keptId}`}`,
        {
          method: write ? 'POST' : 'GET',
          agent,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...(kind === 'fresh-connection' ? { connection: 'close' } : {}) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            const json = (() => {
              try {
                return JSON.parse(text);
              } catch {
                return null;
              }
            })();
            resolve({ at, status: response.statusCode ?? 0, newModel: json ? field in json : undefined, ...(response.statusCode! >= 500 ? { error: text } : {}) });
          });
        },
      );
      request.on('error', (error) => resolve({ at, status: 0, error: `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}` }));
      request.end(body);
    });
  const done = (async () => {
    while (running) outcomes.push(await once());
    agent.destroy();
  })();
  return {
    outcomes,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  fs.mkdirSync(dataDir, { recursive: true });
  databaseUrl = await testDatabaseUrl(dataDir);
  child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: CHILD_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await until(() => fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false), Boolean, `the dev server\n${output}`, { tries: 1800, everyMs: 100 });
  token = await login(baseUrl);
}, 240_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await exited;
  if (databaseUrl) await dropTestPostgresDatabase(databaseUrl);
  fs.rmSync(root, { recursive: true, force: true });
});

describe(`npm run dev: manifests applied live (${TEST_BACKEND})`, { timeout: 240_000 }, () => {
  it('applies a saved field in the same process, keeps the data, and answers every request during the handover', async () => {
    const kept = await call(baseUrl, token, 'POST', '/api/contacts', { name: 'Kept contact', email: 'kept@example.com' });
    expect(kept.status, kept.text).toBe(201);
    const stream = events();
    await until(async () => stream.seen, (seen) => seen.some((e) => e.event === 'hello'), 'the event stream');
    const load = (['read', 'write', 'fresh-connection'] as const).map((kind) => hammer(kind, kept.body._id, 'nickname'));
    try {
      // Requests are flowing on the old model before the save.
      await until(async () => load.every((l) => l.outcomes.length >= 3), Boolean, `requests before the save\n${output}`, { tries: 1200, everyMs: 50 });
      addField('nickname');
      const applied = await until(async () => stream.seen.find((e) => e.event === 'applied'), Boolean, `the applied event\n${output}`, { tries: 2400, everyMs: 50 });
      const appliedAt = performance.now();
      // `applied` means served: the console reloads on it, so the new field must be accepted now.
      const created = await call(baseUrl, token, 'POST', '/api/contacts', { name: 'Live contact', nickname: 'live' });
      expect(created.status, created.text).toBe(201);
      expect(applied!.data.reason).toMatch(/manifests\/contact\.json saved/);
      // Keep the load on until the old app has surely closed: every kind has been answered by the
      // new model several times, and the dev server reported the reload.
      await until(
        async () => load.every((l) => l.outcomes.filter((o) => o.at > appliedAt && o.status > 0).length >= 5) && /\[dev\] reloaded/.test(output),
        Boolean,
        `requests after the switch\n${output}`,
        { tries: 2400, everyMs: 50 },
      );
    } finally {
      await Promise.all(load.map((l) => l.stop()));
      stream.close();
    }
    for (const { outcomes } of load) {
      expect(outcomes.filter((o) => o.status === 0 || o.status >= 500)).toEqual([]);
      expect(outcomes.every((o) => o.status === 200 || o.status === 201)).toBe(true);
    }
    // Reads crossed the switch: answered by the old model, then by the new one.
    const reads = load[0]!.outcomes;
    expect(reads.some((o) => o.newModel === false)).toBe(true);
    expect(reads.at(-1)!.newModel).toBe(true);
    expect(output).toMatch(/\[dev\] reloaded \(manifests\/contact\.json saved\) in \d+ ms: modules \d+ \(\d+ re-evaluated, \d+ kept\)/);
    // The same token, the same data: no restart lost anything.
    expect((await call(baseUrl, token, 'GET', `/api/contacts/${kept.body._id}`)).body.email).toBe('kept@example.com');
  });

  it('refuses a broken manifest with the generator message and keeps serving the last good model', async () => {
    const reloads = output.match(/\[dev\] reloaded/g)!.length;
    addField('broken', { type: 'strng' });
    await until(async () => output, (text) => /the running server keeps the last good model/.test(text), `the refusal\n${output}`, { tries: 1200, everyMs: 100 });
    expect(output).toMatch(/manifests\/contact\.json: fields\[(\d+|broken)\]\.type/);
    expect(output.match(/\[dev\] reloaded/g)!.length).toBe(reloads);
    const still = await call(baseUrl, token, 'POST', '/api/contacts', { name: 'Still served', nickname: 'ok' });
    expect(still.status, still.text).toBe(201);
    expect(child.exitCode).toBeNull();
  });
});
