import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { median } from '../bench/ab-compare.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('npm run bench:ab (tests/bench/ab-compare.ts)', () => {
  it('takes medians of odd and even counts, in any order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  // The command as the README gives it, at a tiny size: HEAD through a temporary git worktree
  // against the working tree. Checks the script runs end to end and prints every figure, not
  // any speed.
  it('compares HEAD with the working tree and prints every figure with its ratios', async () => {
    const listWorktrees = async () => (await run('git', ['worktree', 'list', '--porcelain'], { cwd: ROOT })).stdout.split('\n').filter((line) => line.startsWith('worktree '));
    const before = new Set(await listWorktrees());
    const { stdout } = await run('npm', ['run', '--silent', 'bench:ab', '--', 'HEAD', '.'], {
      cwd: ROOT,
      env: { ...process.env, ...TINY },
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toContain('| figure | A req/s | B req/s | B/A req/s (per-round min-max) |');
    for (const figure of ['GET by id', 'page 1, limit 10', 'page + status filter', 'page + search', 'export CSV (rows)']) expectFigure(stdout, figure);
    expect(stdout).toMatch(/filtered page CPU over the floor \(median of the rounds\): A \d+(\.\d)?x, B \d+(\.\d)?x/);
    // The temporary worktree is gone again (others, e.g. kept by an earlier run, are not its business).
    expect((await listWorktrees()).filter((line) => !before.has(line))).toEqual([]);
  }, 300_000);

  // How a regression is found: only the figure in question, both servers profiled.
  it('runs only the figures BENCH_ONLY names and writes each side\'s CPU profile under BENCH_CPU_PROF', async () => {
    const profiles = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-ab-prof-'));
    try {
      const { stdout } = await run('npm', ['run', '--silent', 'bench:ab', '--', 'HEAD', '.'], {
        cwd: ROOT,
        env: { ...process.env, ...TINY, BENCH_ONLY: 'byId,export', BENCH_CPU_PROF: profiles },
        maxBuffer: 16 * 1024 * 1024,
      });
      expectFigure(stdout, 'GET by id');
      expectFigure(stdout, 'export CSV (rows)');
      expect(stdout).not.toContain('| page 1, limit 10 |');
      expect(stdout).toContain('raw SQLite floor: not measured (the run has no filtered page figure)');
      for (const side of ['a', 'b']) {
        const files = fs.readdirSync(path.join(profiles, side)).filter((name) => name.endsWith('.cpuprofile'));
        expect(files.length, `profiles of side ${side}`).toBeGreaterThan(0);
        const profile = JSON.parse(fs.readFileSync(path.join(profiles, side, files[0]), 'utf8')) as { nodes: unknown[] };
        expect(profile.nodes.length).toBeGreaterThan(10);
      }
    } finally {
      fs.rmSync(profiles, { recursive: true, force: true });
    }
  }, 300_000);

  it('refuses a figure it does not know, naming the ones it has', async () => {
    const failed = await run('npm', ['run', '--silent', 'bench:ab', '--', 'HEAD', '.'], { cwd: ROOT, env: { ...process.env, ...TINY, BENCH_ONLY: 'byid' } }).catch((error: { stderr: string }) => error);
    expect((failed as { stderr: string }).stderr).toContain('unknown figure "byid" in BENCH_ONLY: use byId, page, filter, search, export');
  }, 300_000);
});

const TINY = { BENCH_ROWS: '300', BENCH_ROUNDS: '1', BENCH_SECONDS: '0.3', BENCH_CONNECTIONS: '2', BENCH_WARM_SECONDS: '0', BENCH_AB_KEEP: '0' };

/** The figure's row is there, every cell a positive number, each ratio followed by its per-round range. */
function expectFigure(stdout: string, figure: string): void {
  const line = stdout.split('\n').find((l) => l.startsWith(`| ${figure} |`));
  expect(line, `${figure} row in:\n${stdout}`).toBeDefined();
  const cells = line!.split('|').slice(2, -1).map((c) => c.trim());
  expect(cells.every((cell) => Number(/^[\d,.]+/.exec(cell)?.[0].replaceAll(',', '')) > 0), line).toBe(true);
  expect(cells[2]).toMatch(/^\d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\)$/);
  expect(cells[5]).toMatch(/^\d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\)$/);
}
