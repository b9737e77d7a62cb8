// Shared e2e harness: what `npm start` runs — the server bundle under plain node (fresh SQLite
// under a temp DATA_DIR, known admin password) serving the production build of the console with
// its real headers, CSP included — plus Debian's Chromium via playwright-core.
//
// The console and the server bundle are built once per run (tests/e2e/helpers/build-once.ts, the
// project's globalSetup). A green suite once hid create and edit dialogs that did nothing under
// the CSP because it ran on the Vite dev server, which sends no CSP: E2E_CONSOLE=dev still runs the
// dev server (faster to iterate on a screen), but CI never does.
//
// Every page records page errors, console errors and CSP violations; tests/e2e/helpers/
// fail-on-browser-errors.ts fails the test that opened it when any were recorded and not expected.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { freePort } from '../../helpers/free-port.ts';
import { buildConsole, buildServerBundle, consoleVariant } from './build-once.ts';
import { until } from '../../helpers/until.ts';
import { watchBrowserErrors, type WatchedPage } from './browser-errors.ts';
export { freePort };

export const root = path.resolve(import.meta.dirname, '../../..');
export const screenshotDir = path.join(root, 'tests/e2e/screenshots');
export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'Admin-e2e-Pass1';

export interface AppUnderTest {
  /** Console origin, e.g. http://localhost:5174 (the API is proxied under /api). */
  webUrl: string;
  /** API origin, for direct calls from the test. */
  apiUrl: string;
  dataDir: string;
  browser: Browser;
  adminUsername: string;
  adminPassword: string;
  /**
   * Opens a fresh page (own context: own localStorage). It records page errors, console errors and
   * CSP violations in `errors`; the test fails at its end when any are there that it did not
   * declare with `page.expectErrors(pattern)`.
   */
  newPage(options?: { colorScheme?: 'dark' | 'light' }): Promise<WatchedPage>;
  /** Signs in through the login page; resolves once the console left /login. */
  signIn(page: Page, username?: string, password?: string): Promise<void>;
  /** Bearer token for direct API calls. */
  apiToken(username?: string, password?: string): Promise<string>;
  /** fetch against the API with JSON body and optional token; throws on non-2xx. */
  api<T = unknown>(method: string, urlPath: string, body?: unknown, token?: string): Promise<T>;
  /** Saves tests/e2e/screenshots/<name>.png; fullPage false for dialogs (fixed overlays tile oddly in full-page shots). */
  screenshot(page: Page, name: string, options?: { fullPage?: boolean }): Promise<string>;
  stop(): Promise<void>;
}


async function waitFor(url: string, timeoutMs: number, child: ChildProcess, log: () => string): Promise<void> {
  const state = async () => (child.exitCode !== null ? 'exited' : (await fetch(url).then((r) => r.ok, () => false)) ? 'up' : 'starting');
  const reached = await until(state, (s) => s !== 'starting', `${url} to come up`, { tries: Math.ceil(timeoutMs / 250), everyMs: 250 }).catch(() => 'starting');
  if (reached === 'exited') throw new Error(`${url}: process exited with ${child.exitCode}\n${log()}`);
  if (reached === 'starting') throw new Error(`${url} did not come up within ${timeoutMs} ms\n${log()}`);
}

export interface StartOptions {
  /** Server environment. */
  env?: NodeJS.ProcessEnv;
  /** Console build-time environment (e.g. VITE_TRANSPORT): the console is then built for this app alone. */
  consoleEnv?: NodeJS.ProcessEnv;
}

/** What the e2e globalSetup built for the run; nothing outside vitest (the benches build their own). */
function provided<K extends 'e2eDistDir' | 'e2eServerBundle' | 'e2eConsoleVariants'>(key: K): ReturnType<typeof inject<K>> | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

export async function startApp(options: StartOptions = {}): Promise<AppUnderTest> {
  const children: ChildProcess[] = [];
  const contexts: Array<{ close(): Promise<void> }> = [];
  const start = (args: string[], env: NodeJS.ProcessEnv) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    children.push(child);
    return { child, log: () => output };
  };

  /** Folders this app made for itself (a console built for it alone), removed by stop(). */
  const ownDirs: string[] = [];
  const apiPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-e2e-'));
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const apiEnv = { PORT: String(apiPort), DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD, ...options.env };

  let webUrl: string;
  let api: ReturnType<typeof start>;
  if (process.env.E2E_CONSOLE !== 'dev') {
    // As in production (npm start): `node dist-server/main.mjs` serving the built console, with
    // its headers, caching and pre-compressed assets.
    const sharedDist = options.consoleEnv ? provided('e2eConsoleVariants')?.[consoleVariant(options.consoleEnv)] : provided('e2eDistDir');
    const distDir = sharedDist ?? buildConsole(options.consoleEnv);
    if (distDir !== sharedDist) ownDirs.push(distDir);
    const bundle = provided('e2eServerBundle') ?? (await buildServerBundle());
    api = start([bundle], { ...apiEnv, DIST_DIR: distDir });
    webUrl = `http://localhost:${apiPort}`;
    await waitFor(`${apiUrl}/api/health`, 60_000, api.child, api.log);
  } else {
    const webPort = await freePort();
    api = start(['--import', 'tsx', 'server/main.ts'], apiEnv);
    const web = start(['node_modules/vite/bin/vite.js', '--port', String(webPort), '--strictPort'], { PORT: String(apiPort), ...options.consoleEnv });
    webUrl = `http://localhost:${webPort}`;
    await waitFor(`${apiUrl}/api/health`, 60_000, api.child, api.log);
    await waitFor(webUrl, 60_000, web.child, web.log);
  }

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });

  async function apiCall<T>(method: string, urlPath: string, body?: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${apiUrl}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${urlPath} -> ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  const app: AppUnderTest = {
    webUrl,
    apiUrl,
    dataDir,
    browser,
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
    async newPage(pageOptions = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: pageOptions.colorScheme ?? 'dark' });
      contexts.push(context);
      return watchBrowserErrors(await context.newPage());
    },
    async signIn(page, username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
      if (!page.url().includes('/login')) await page.goto(`${webUrl}/login`);
      await page.getByTestId('login-username').fill(username);
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 15_000 });
    },
    async apiToken(username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
      const { accessToken } = await apiCall<{ accessToken: string }>('POST', '/api/auth/login', { username, password });
      return accessToken;
    },
    api: apiCall,
    async screenshot(page, name, screenshotOptions = {}) {
      fs.mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: screenshotOptions.fullPage ?? true });
      return file;
    },
    async stop() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      for (const child of children) {
        if (child.pid && child.exitCode === null) {
          try {
            process.kill(-child.pid, 'SIGTERM');
          } catch {
            // already gone
          }
        }
      }
      for (const dir of [dataDir, ...ownDirs]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return app;
}
