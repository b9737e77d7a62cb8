import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadEnvironmentDefaults, loadFeatureConfig } from '../../../server/config.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const EXAMPLE = path.join(ROOT, '.env.example');

/** The variables .env.example lists, commented out (`# NAME=...`) or set (`NAME=...`). */
function listed(): Set<string> {
  const names = new Set<string>();
  for (const line of fs.readFileSync(EXAMPLE, 'utf8').split('\n')) {
    const match = /^#?\s?([A-Z][A-Z0-9_]*)=/.exec(line);
    if (match) names.add(match[1]);
  }
  return names;
}

function serverFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes(`${path.sep}generated`))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Every variable named in a server module that reads the environment (`process.env`, or an `env`
 * parameter): `env.NAME`, `env['NAME']`, and the quoted names those modules pass to their readers
 * (`readInteger(env, 'PORT', ...)`, `text('SMTP_HOST')`).
 */
function readInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of serverFiles(path.join(ROOT, 'server'))) {
    const source = fs.readFileSync(file, 'utf8');
    if (!/process\.env|\benv\b/.test(source)) continue;
    const code = source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
    for (const match of code.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|['"]([A-Z][A-Z0-9]*_[A-Z0-9_]+|PORT|HOST)['"]/g)) {
      found.set(match[1] ?? match[2] ?? match[3], path.relative(ROOT, file));
    }
  }
  return found;
}

/** What the start-up readers actually ask the environment for (a recording proxy). */
function readAtRunTime(): Set<string> {
  const asked = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(_target, key) {
      if (typeof key === 'string') asked.add(key);
      return undefined;
    },
  });
  loadConfig(env, ROOT);
  loadEnvironmentDefaults(env);
  loadFeatureConfig(env);
  return asked;
}

describe('.env.example', () => {
  it('lists every variable the server reads, found in its sources and asked for at start', () => {
    const names = listed();
    const fromSources = readInSources();
    const atRunTime = readAtRunTime();
    // The scan sees what the recording proxy sees (it would miss a reader otherwise).
    expect([...atRunTime].filter((name) => !fromSources.has(name))).toEqual([]);
    expect(fromSources.size).toBeGreaterThan(40);
    const missing = [...fromSources].filter(([name]) => !names.has(name)).map(([name, file]) => `${name} (read in ${file})`);
    expect(missing, 'add these to .env.example, commented, with their default and meaning').toEqual([]);
  });

  it('lists no variable the server does not read', () => {
    const fromSources = readInSources();
    expect([...listed()].filter((name) => !fromSources.has(name))).toEqual([]);
  });

  it('parses as an env file: every line a comment, blank, or NAME=value', () => {
    for (const [index, line] of fs.readFileSync(EXAMPLE, 'utf8').split('\n').entries()) {
      expect(line === '' || line.startsWith('#') || /^[A-Z][A-Z0-9_]*=/.test(line), `.env.example line ${index + 1}: ${line}`).toBe(true);
    }
  });
});

describe('.env loading (server/config/load-env-file.ts)', () => {
  it('loads .env from the working directory, the real environment winning, and nothing when there is none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-env-'));
    try {
      // In a child process: process.loadEnvFile writes to this process's environment.
      const script = `import { loadEnvFile } from ${JSON.stringify(path.join(ROOT, 'server/config/load-env-file.ts'))};
        const file = loadEnvFile(${JSON.stringify(dir)});
        console.log(JSON.stringify({ file, port: process.env.PORT ?? null, level: process.env.LOG_LEVEL ?? null, quoted: process.env.SMTP_FROM ?? null }));`;
      const run = (env: Record<string, string>) =>
        JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' }));
      expect(run({})).toEqual({ file: null, port: null, level: null, quoted: null });
      fs.writeFileSync(path.join(dir, '.env'), '# a comment\nPORT=4123\nLOG_LEVEL=warn\nSMTP_FROM="Forja <no-reply@example.com>"\n');
      expect(run({})).toEqual({ file: path.join(dir, '.env'), port: '4123', level: 'warn', quoted: 'Forja <no-reply@example.com>' });
      expect(run({ PORT: '5000' })).toMatchObject({ port: '5000', level: 'warn' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
   }, 60_000);

  it('server/main.ts loads it before reading the configuration', () => {
    const main = fs.readFileSync(path.join(ROOT, 'server/main.ts'), 'utf8');
    expect(main.indexOf('loadEnvFile()')).toBeGreaterThan(0);
    expect(main.indexOf('loadEnvFile()')).toBeLessThan(main.indexOf('loadConfig()'));
  });
});
