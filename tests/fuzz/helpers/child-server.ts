import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { until } from '../../helpers/until.ts';
import { freePort } from '../../helpers/free-port.ts';
export { freePort };

/** The real server as a child process (`node --import tsx server/main.ts` by default), so it can be killed -9. */
export interface ChildServer {
  process: ChildProcess;
  baseUrl: string;
  port: number;
  /** Everything it printed (pino JSON lines on stdout, anything on stderr). */
  output: () => string;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const CHILD_ADMIN_PASSWORD = 'Child-admin-1234';


export interface SpawnOptions {
  dataDir: string;
  env?: Record<string, string>;
  uid?: number;
  gid?: number;
  /** Wait for /api/health (default true); false returns at once (start-up failure tests). */
  waitReady?: boolean;
  port?: number;
  /** Node arguments that start the server (default: the TypeScript sources through tsx). */
  entry?: string[];
  /** Working directory of the server (default: this checkout; the A/B bench runs other commits' trees). */
  cwd?: string;
}

export async function spawnServer(options: SpawnOptions): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, options.entry ?? ['--import', 'tsx', 'server/main.ts'], {
    cwd: options.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      ADMIN_PASSWORD: CHILD_ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      RATE_LIMIT_LOGIN: '10000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid ?? options.uid } : {}),
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const server: ChildServer = {
    process: child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady === false) return server;
  let done = false;
  void exited.then(() => (done = true));
  const healthy = async () => (done ? 'exited' : (await fetch(`${server.baseUrl}/api/health`).then((r) => r.ok, () => false)) ? 'up' : 'starting');
  const state = await until(healthy, (s) => s !== 'starting', 'the server to answer /api/health', { tries: 400, everyMs: 150 }).catch(() => 'starting');
  if (state === 'up') return server;
  await server.kill();
  throw new Error(`server did not start (exit ${child.exitCode}):\n${output.slice(-3000)}`);
}

export async function login(baseUrl: string, password = CHILD_ADMIN_PASSWORD): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
  const body = (await res.json()) as { accessToken?: string };
  if (!res.ok || !body.accessToken) throw new Error(`login -> ${res.status} ${JSON.stringify(body)}`);
  return body.accessToken;
}

export async function call(baseUrl: string, token: string | null, method: string, p: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(baseUrl + p, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, text };
}
