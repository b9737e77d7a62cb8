import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CHILD_ADMIN_PASSWORD, call, freePort, login } from '../fuzz/helpers/child-server.ts';
import { scratchCopy } from '../helpers/scratch-copy.ts';
import { until } from './helpers/until.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

/**
 * The API half of `npm run dev` (scripts/dev-server.ts): a saved manifest is applied to the running
 * server without a restart, the data kept; a broken one is refused with the generator's message
 * and the server keeps serving the last good model. (Save-to-live time: tests/bench/dev-live.bench.ts.)
 */
const root = scratchCopy('forja-dev-server-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function addField(name: string, extra: Record<string, unknown> = {}): void {
  const file = path.join(root, 'manifests', 'contact.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  manifest.fields.push({ name, type: 'string', label: 'field.contact.name', validation: { maxLength: 30 }, ...extra });
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
}

describe.skipIf(TEST_BACKEND === 'postgres')('npm run dev: manifests applied live', { timeout: 240_000 }, () => {
  it('adds a saved field to the running server (same process, data kept), and keeps the last good model on a broken save', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev-server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(root, 'data'), ADMIN_PASSWORD: CHILD_ADMIN_PASSWORD, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await until(() => fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false), Boolean, `the dev server\n${output}`, { tries: 1200, everyMs: 100 });
      const token = await login(baseUrl);
      const kept = await call(baseUrl, token, 'POST', '/api/contacts', { name: 'Kept contact', email: 'kept@example.com' });
      expect(kept.status, kept.text).toBe(201);

      addField('nickname');
      // (A request during the switch, a fraction of a second, finds the port closed.)
      const created = await until(
        () => call(baseUrl, token, 'POST', '/api/contacts', { name: 'Live contact', nickname: 'live' }).catch(() => ({ status: 0, body: null, text: '' })),
        (response) => response.status === 201,
        `the nickname field to be accepted\n${output}`,
        { tries: 1200, everyMs: 100 },
      );
      expect((await call(baseUrl, token, 'GET', `/api/contacts/${created.body._id}`)).body.nickname).toBe('live');
      expect(output).toMatch(/\[dev\] reloaded \(manifests\/contact\.json saved\)/);
      // The same token, the same data: no restart lost anything.
      expect((await call(baseUrl, token, 'GET', `/api/contacts/${kept.body._id}`)).body.email).toBe('kept@example.com');

      const reloads = output.match(/\[dev\] reloaded/g)!.length;
      addField('broken', { type: 'strng' });
      await until(async () => output, (text) => /the running server keeps the last good model/.test(text), `the refusal\n${output}`, { tries: 1200, everyMs: 100 });
      expect(output).toMatch(/manifests\/contact\.json: fields\[(5|broken)\]\.type/);
      expect(output.match(/\[dev\] reloaded/g)!.length).toBe(reloads);
      const still = await call(baseUrl, token, 'POST', '/api/contacts', { name: 'Still served', nickname: 'ok' });
      expect(still.status, still.text).toBe(201);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
