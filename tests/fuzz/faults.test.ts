import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/until.ts';
import { call, login, spawnServer, type ChildServer } from './helpers/child-server.ts';

/**
 * Faults: kill -9 in the middle of acknowledged writes, a read-only data directory, a full disk.
 * The server runs as a child process (`node --import tsx server/main.ts`) on its own DATA_DIR.
 */
const cleanup: (() => void | Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function integrity(dataDir: string): string {
  const db = new Database(path.join(dataDir, 'forja.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? '';
  } finally {
    db.close();
  }
}

const isErrorShape = (body: any) => body && typeof body === 'object' && typeof body.message === 'string';

describe('kill -9 during a stream of acknowledged writes', () => {
  it('every acknowledged write survives three crashes and the database stays intact', async () => {
    const dataDir = tempDir('forja-kill-');
    const acknowledged: string[] = [];
    let attempted = 0;
    for (let round = 0; round < 3; round++) {
      const server = await spawnServer({ dataDir });
      cleanup.push(() => void server.kill());
      const token = await login(server.baseUrl);
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          attempted += 1;
          try {
            const res = await call(server.baseUrl, token, 'POST', '/api/contacts', { name: `r${round} w${w} n${i}`, email: `r${round}w${w}n${i}@example.com` });
            if (res.status === 201) acknowledged.push(res.body._id);
            else if (!stop) throw new Error(`write refused: ${res.status} ${res.text}`);
          } catch (error) {
            if (!stop && !(String((error as Error).message).includes('fetch failed'))) throw error;
            return;
          }
        }
      };
      const writers = Array.from({ length: 6 }, (_, w) => writer(w));
      // Let writes flow (a different number acknowledged each round), then pull the plug mid-stream.
      const before = acknowledged.length;
      await until(() => acknowledged.length - before, (done) => done >= 40 + round * 25, 'writes to be acknowledged', { tries: 3000, everyMs: 10 });
      const killed = server.kill('SIGKILL');
      stop = true;
      await killed;
      await Promise.allSettled(writers);
      expect(integrity(dataDir)).toBe('ok');
    }
    const server = await spawnServer({ dataDir });
    cleanup.push(() => void server.kill());
    const token = await login(server.baseUrl);
    const missing: string[] = [];
    const stored = await call(server.baseUrl, token, 'GET', '/api/contacts/find?limit=10000');
    expect(stored.status, stored.text).toBe(200);
    const found = new Set((stored.body as any[]).map((c) => c._id));
    missing.push(...acknowledged.filter((id) => !found.has(id)));
    await server.kill('SIGTERM');
    expect(integrity(dataDir)).toBe('ok');
    console.log(`[faults] kill -9 x3: ${attempted} writes attempted, ${acknowledged.length} acknowledged, ${missing.length} missing, integrity ok`);
    expect(acknowledged.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  }, 180_000);
});

describe('read-only data directory', () => {
  it('gives a clear error and corrupts nothing', async () => {
    const dataDir = tempDir('forja-ro-');
    // Root ignores file modes, so the server runs as nobody (65534) on a directory it owns.
    fs.chownSync(dataDir, 65534, 65534);
    let server: ChildServer = await spawnServer({ dataDir, uid: 65534, gid: 65534 });
    let token = await login(server.baseUrl);
    const kept = await call(server.baseUrl, token, 'POST', '/api/contacts', { name: 'Before read-only', email: 'ro@example.com' });
    expect(kept.status).toBe(201);
    await server.kill('SIGTERM');
    execFileSync('chmod', ['-R', 'a-w', dataDir]);
    cleanup.push(() => void execFileSync('chmod', ['-R', 'u+w', dataDir]));

    server = await spawnServer({ dataDir, uid: 65534, gid: 65534, waitReady: false });
    cleanup.push(() => void server.kill());
    // Either start-up is refused with a clear message, or writes are refused with the error shape.
    const outcome = await Promise.race([
      server.exited.then((code) => ({ exited: code })),
      (async () => {
        await until(() => fetch(`${server.baseUrl}/api/health`).then((r) => r.ok, () => false), (ok) => ok, 'the read-only server to answer', { tries: 300, everyMs: 150 }).catch(() => false);
        return { exited: undefined };
      })(),
    ]);
    if (outcome.exited !== undefined) {
      expect(outcome.exited).not.toBe(0);
      expect(server.output()).toMatch(/readonly|read-only|EACCES|EROFS|permission|unable to open/i);
      console.log(`[faults] read-only DATA_DIR: start-up refused: ${server.output().match(/"msg":"[^"]*"|Error: [^\n]*/g)?.slice(-2).join(' | ')}`);
    } else {
      token = await login(server.baseUrl).catch(() => token);
      const write = await call(server.baseUrl, token, 'POST', '/api/contacts', { name: 'During read-only', email: 'ro2@example.com' });
      expect(write.status).toBeGreaterThanOrEqual(400);
      expect(isErrorShape(write.body)).toBe(true);
      console.log(`[faults] read-only DATA_DIR: server up, write answered ${write.status} ${write.text}`);
      await server.kill('SIGTERM');
    }
    execFileSync('chmod', ['-R', 'u+w', dataDir]);
    server = await spawnServer({ dataDir, uid: 65534, gid: 65534 });
    cleanup.push(() => void server.kill());
    token = await login(server.baseUrl);
    expect((await call(server.baseUrl, token, 'GET', `/api/contacts/${kept.body._id}`)).status).toBe(200);
    await server.kill('SIGTERM');
    expect(integrity(dataDir)).toBe('ok');
  }, 120_000);
});

describe('disk full', () => {
  it('writes fail with the error shape, reads go on, nothing is corrupted, and writes resume once space is back', async (context) => {
    const dataDir = tempDir('forja-full-');
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dataDir], { stdio: 'pipe' });
    } catch (error) {
      console.warn(`[faults] disk full SKIPPED: cannot mount a tmpfs here (${String((error as Error).message).split('\n')[0]})`);
      context.skip();
      return;
    }
    cleanup.push(() => void execFileSync('umount', ['-l', dataDir]));
    const server = await spawnServer({ dataDir });
    cleanup.push(() => void server.kill());
    const token = await login(server.baseUrl);
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await call(server.baseUrl, token, 'POST', '/api/contacts', { name: `full ${i}`, email: `full${i}@example.com` });
      expect(res.status).toBe(201);
      acknowledged.push(res.body._id);
    }
    // Fill the disk to the last byte.
    const filler = path.join(dataDir, 'filler.bin');
    const fd = fs.openSync(filler, 'w');
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(512, 1));
    } catch {
      // full
    }
    fs.closeSync(fd);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await call(server.baseUrl, token, 'POST', '/api/bots', { name: `full bot ${i}`, description: 'x'.repeat(2000) });
      statuses.push(res.status);
      if (res.status === 201) acknowledged.push(`bot:${res.body._id}`);
      else {
        // 507 Insufficient Storage with a message saying nothing was saved (server/http/error-handler.ts).
        expect(res.status, res.text).toBe(507);
        expect(isErrorShape(res.body), res.text).toBe(true);
      }
    }
    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array(256 * 1024)]), 'big.bin');
    const up = await fetch(`${server.baseUrl}/api/file`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: upload });
    const upBody = await up.json().catch(() => null);
    expect(up.status).toBe(507);
    expect(isErrorShape(upBody)).toBe(true);
    expect((await call(server.baseUrl, null, 'GET', '/api/health')).status).toBe(200);
    expect((await call(server.baseUrl, token, 'GET', `/api/contacts/${acknowledged[0]}`)).status).toBe(200);
    console.log(`[faults] disk full: bot writes answered ${JSON.stringify(statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}))}, upload ${up.status} ${JSON.stringify(upBody)}`);

    fs.rmSync(filler);
    const again = await call(server.baseUrl, token, 'POST', '/api/contacts', { name: 'after space is back', email: 'back@example.com' });
    expect(again.status, again.text).toBe(201);
    for (const id of acknowledged.filter((id) => !id.startsWith('bot:'))) expect((await call(server.baseUrl, token, 'GET', `/api/contacts/${id}`)).status).toBe(200);
    for (const id of acknowledged.filter((id) => id.startsWith('bot:'))) expect((await call(server.baseUrl, token, 'GET', `/api/bots/${id.slice(4)}`)).status).toBe(200);
    await server.kill('SIGTERM');
    expect(integrity(dataDir)).toBe('ok');
  }, 120_000);
});
