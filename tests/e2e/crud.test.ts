// One full CRUD round trip in Chromium: API server + Vite dev server as child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
let browser: Browser;
let webUrl = '';
let dataDir = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  return child;
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

beforeAll(async () => {
  const apiPort = await freePort();
  const webPort = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-e2e-'));
  start(process.execPath, ['--import', 'tsx', 'server/main.ts'], { PORT: String(apiPort), DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  start(process.execPath, ['node_modules/vite/bin/vite.js', '--port', String(webPort), '--strictPort'], { PORT: String(apiPort) });
  webUrl = `http://localhost:${webPort}`;
  await waitFor(`http://127.0.0.1:${apiPort}/api/health`, 60_000);
  await waitFor(webUrl, 60_000);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  for (const child of children) {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('CRUD page in Chromium', () => {
  it('creates, edits and deletes a bot trace status', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${webUrl}/`);
    await page.getByRole('link', { name: 'Estados de traza' }).click();
    await page.getByRole('heading', { name: 'Estados de traza' }).waitFor();

    await page.getByRole('button', { name: 'Crear' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('E2E status');
    await dialog.getByRole('textbox', { name: 'Descripción' }).fill('made in chromium');
    await dialog.getByRole('button', { name: 'Crear' }).click();
    await page.getByRole('cell', { name: 'E2E status' }).waitFor();
    await page.getByText('¡Entidad creada correctamente!').waitFor();

    await page.getByRole('button', { name: 'Editar' }).click();
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('E2E renamed');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('cell', { name: 'E2E renamed' }).waitFor();

    await page.getByRole('button', { name: 'Eliminar' }).click();
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText('No hay registros').waitFor();
    expect(await page.getByRole('cell', { name: 'E2E renamed' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
