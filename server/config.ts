import net from 'node:net';
import path from 'node:path';
import type { EmbeddingSettings, LlmSettings } from './llm/llm-settings.ts';
import { readChatLimits, type ChatLimits } from './chat/chat-limits.ts';
import { loadFileLimits, type FileLimits } from './files/file-limits.ts';
import { loadIdentityConfig, type IdentityConfig } from './identity/identity-config.ts';
import { loadJobSettings, type JobSettings } from './jobs/job-settings.ts';
import { readLlmEnvironment } from './config/read-llm-environment.ts';
import { loadStudioConfig, type StudioConfig } from './studio/studio-config.ts';

/**
 * Server settings, read once from the environment at start-up.
 *
 * | Variable          | Default                        | Meaning                                        |
 * |-------------------|--------------------------------|------------------------------------------------|
 * | PORT              | 3000                           | HTTP port (0 picks a free one)                 |
 * | HOST              | 0.0.0.0                        | Interface to listen on                         |
 * | DATA_DIR          | ./data                         | Database file, uploads and exports live here   |
 * | DATABASE_URL      | (unset: SQLite DATA_DIR/forja.db) | sqlite:<path>, a file path, or postgres://...  |
 * | PG_POOL_SIZE      | 10                             | PostgreSQL connections per instance            |
 * | REDIS_URL         | (unset: PostgreSQL or memory)  | redis://... shares rate limits across instances |
 * | TRUST_PROXY       | (unset: no proxy trusted)      | behind a proxy: its addresses or CIDRs         |
 * |                   |                                | (comma-separated), or a hop count; `true` is   |
 * |                   |                                | refused (it trusts a client's own header)      |
 * | INSTANCE_MODE     | single                         | multi: several instances (README.md "Scaling out");  |
 * |                   |                                | with multi or REDIS_URL, JWT_SECRET and        |
 * |                   |                                | API_KEY_SECRET must be set (start refused)     |
 * | LOG_LEVEL         | info                           | pino level: fatal, error, warn, info, debug... |
 * | MAX_UPLOAD_BYTES  | 26214400 (25 MB)               | Largest accepted upload / import file          |
 * | DIST_DIR          | ./dist                         | The built console, served at /                 |
 * | SHUTDOWN_GRACE_MS | 10000                          | On SIGTERM, in-flight requests get this long;  |
 * |                   |                                | then their connections are dropped (logged)    |
 */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL connections of this instance (PG_POOL_SIZE). */
  pgPoolSize: number;
  /** Shared store of the rate-limit counters; null keeps them in PostgreSQL when that is the database, else in this process's memory. */
  redisUrl: string | null;
  /** 'multi' when several instances serve the same database (README.md "Scaling out"). */
  instanceMode: 'single' | 'multi';
  /** Fastify's trustProxy: client addresses (rate limits, API-key allow lists) from X-Forwarded-For. */
  trustProxy: false | number | string[];
  logLevel: string;
  maxUploadBytes: number;
  /** Built console served at / (single-page fallback); ignored when the folder does not exist. */
  distDir: string;
  /** SHUTDOWN_GRACE_MS: how long a stopping server lets in-flight requests finish before it drops their connections. */
  shutdownGraceMs: number;
}

export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Long enough for an ordinary request, well inside a container platform's stop timeout (Kubernetes: 30 s). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ServerConfig {
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(logLevel)}`);
  }
  return {
    port: readPort(env),
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || './data'),
    databaseUrl: env.DATABASE_URL?.trim() || null,
    pgPoolSize: readPositiveInteger(env, 'PG_POOL_SIZE', 10),
    redisUrl: env.REDIS_URL?.trim() || null,
    instanceMode: readInstanceMode(env),
    trustProxy: readTrustProxy(env),
    logLevel,
    maxUploadBytes: readInteger(env, 'MAX_UPLOAD_BYTES', DEFAULT_MAX_UPLOAD_BYTES),
    distDir: path.resolve(cwd, env.DIST_DIR?.trim() || 'dist'),
    shutdownGraceMs: readInteger(env, 'SHUTDOWN_GRACE_MS', DEFAULT_SHUTDOWN_GRACE_MS),
  };
}

/** PORT: 1-65535, or 0 for a free port the system picks (tests). */
function readPort(env: NodeJS.ProcessEnv): number {
  const raw = env.PORT?.trim();
  if (!raw) return 3000;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 65_535) throw new Error(`PORT ${raw}: must be a port number, 1-65535 (0 picks a free one)`);
  return value;
}

/** LOG_LEVEL debug or trace: a refused start prints its stack trace too (server/main.ts). */
export function wantsStartupStack(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['debug', 'trace'].includes(env.LOG_LEVEL?.trim() ?? '');
}

function readInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer; got ${JSON.stringify(raw)}`);
  }
  return value;
}

function readPositiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = readInteger(env, name, fallback);
  if (value <= 0) throw new Error(`${name} must be a positive integer; got ${JSON.stringify(env[name])}`);
  return value;
}

function readInstanceMode(env: NodeJS.ProcessEnv): 'single' | 'multi' {
  const raw = env.INSTANCE_MODE?.trim().toLowerCase() || 'single';
  if (raw !== 'single' && raw !== 'multi') throw new Error(`INSTANCE_MODE must be single or multi; got ${JSON.stringify(env.INSTANCE_MODE)}`);
  return raw;
}

/** proxy-addr's names for address ranges, accepted beside addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For is believed. `true` would believe every hop, so
 * any client could name the address it likes (API-key IP allow lists and per-IP rate limits
 * bypassed with one header): refused at start with the values to use instead.
 */
export function readTrustProxy(env: NodeJS.ProcessEnv): false | number | string[] {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') {
    throw new Error(
      'TRUST_PROXY=true is refused: it trusts every X-Forwarded-For hop, so any client could choose its own address and ' +
        'get around API-key IP allow lists and per-IP rate limits. Set the proxy addresses or CIDRs (TRUST_PROXY=127.0.0.1 or ' +
        '10.0.0.0/8,192.168.1.5) or the number of proxies in front of the server (TRUST_PROXY=1); see README.md "Scaling out"',
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new Error(`TRUST_PROXY as a hop count must be between 1 and 10; got ${raw}`);
    return hops;
  }
  const entries = raw.split(',').map((a) => a.trim()).filter((a) => a !== '');
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (bad.length > 0) {
    throw new Error(
      `TRUST_PROXY must be a hop count or comma-separated IP addresses or CIDRs (e.g. 127.0.0.1,10.0.0.0/8); ` +
        `not an address: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    );
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const version = net.isIP(address);
  if (version === 0) return false;
  if (slash < 0) return true;
  const bits = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return net.isIP(bits) === 4 && version === 4; // a netmask: 10.0.0.0/255.0.0.0
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * The environment's part of the effective configuration (LLM, embeddings, RAG fetching, GraphQL),
 * read once when the server is created (createServer's `env` option, else process.env). These are
 * defaults: the Settings rows win where an administrator set them, and a Settings change applies
 * to the next call without a restart (server/config/resolve-effective-config.ts).
 *
 * | Variable                | Default | Meaning                                                      |
 * |-------------------------|---------|--------------------------------------------------------------|
 * | LLM_* / EMBEDDING_*     | unset   | see server/config/read-llm-environment.ts                     |
 * | RAG_ALLOW_PRIVATE_URLS  | false   | `true`: parse-url and training may fetch private addresses   |
 * | GRAPHQL_INTROSPECTION   | true    | `false` turns off GraphiQL and introspection at /graphql     |
 * | SMTP_HOST, SMTP_PORT    | unset   | SMTP server (unset: mails go to DATA_DIR/outbox), its port   |
 * | SMTP_SECURE             | false   | `true`: TLS from the start (465)                             |
 * | SMTP_USER, SMTP_PASSWORD| unset   | credentials, sent only to SMTP_HOST                          |
 * | SMTP_FROM               | unset   | sender                                                       |
 * | GOOGLE_CLIENT_ID        | unset   | Google sign-in client id (setting google.clientId wins)      |
 * | PUBLIC_URL              | unset   | origin of e-mail links (setting app.publicUrl wins)          |
 */
export interface EnvironmentDefaults {
  llm: LlmSettings;
  embedding: EmbeddingSettings;
  allowPrivateUrls: boolean;
  graphqlIntrospection: boolean;
  /** Each null when its variable is unset. */
  smtp: { host: string | null; port: number | null; secure: boolean | null; user: string | null; password: string | null; from: string | null };
  googleClientId: string | null;
  publicUrl: string | null;
}

export function loadEnvironmentDefaults(env: NodeJS.ProcessEnv = process.env): EnvironmentDefaults {
  const { llm, embedding } = readLlmEnvironment(env);
  return {
    llm,
    embedding,
    allowPrivateUrls: env.RAG_ALLOW_PRIVATE_URLS?.trim().toLowerCase() === 'true',
    graphqlIntrospection: env.GRAPHQL_INTROSPECTION?.trim() !== 'false',
    smtp: readSmtp(env),
    googleClientId: env.GOOGLE_CLIENT_ID?.trim() || null,
    publicUrl: env.PUBLIC_URL?.trim() || null,
  };
}

function readSmtp(env: NodeJS.ProcessEnv): EnvironmentDefaults['smtp'] {
  const text = (name: string) => env[name]?.trim() || null;
  const port = text('SMTP_PORT');
  if (port !== null && !(Number.isInteger(Number(port)) && Number(port) > 0 && Number(port) < 65536)) {
    throw new Error(`SMTP_PORT must be a port number; got ${JSON.stringify(port)}`);
  }
  const secure = text('SMTP_SECURE')?.toLowerCase() ?? null;
  return {
    host: text('SMTP_HOST'),
    port: port === null ? null : Number(port),
    secure: secure === null ? null : secure === 'true',
    user: text('SMTP_USER'),
    password: text('SMTP_PASSWORD'),
    from: text('SMTP_FROM'),
  };
}

/**
 * The features' start-up configuration, each part parsed by its own module from the same
 * environment, read once when the server is created: identity (server/identity/identity-config.ts),
 * file quotas and retention (server/files/file-limits.ts), chat limits (server/chat/chat-limits.ts).
 */
export interface FeatureConfig {
  identity: IdentityConfig;
  files: FileLimits;
  chat: ChatLimits;
  /** The job queue's worker, heartbeat and retention (server/jobs/job-settings.ts). */
  jobs: JobSettings;
  /** The schema studio: on under `npm run dev` or with SCHEMA_STUDIO=true (server/studio/studio-config.ts). */
  studio: StudioConfig;
}

export function loadFeatureConfig(env: NodeJS.ProcessEnv = process.env): FeatureConfig {
  return { identity: loadIdentityConfig(env), files: loadFileLimits(env), chat: readChatLimits(env), jobs: loadJobSettings(env), studio: loadStudioConfig(env) };
}
