import { execFile } from 'node:child_process';
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
      env: { ...process.env, BENCH_ROWS: '300', BENCH_ROUNDS: '1', BENCH_SECONDS: '0.3', BENCH_CONNECTIONS: '2', BENCH_WARM_SECONDS: '0', BENCH_AB_KEEP: '0' },
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toContain('| figure | A req/s | B req/s | B/A req/s |');
    for (const figure of ['GET by id', 'page 1, limit 10', 'page + status filter', 'page + search', 'export CSV (rows)']) {
      const line = stdout.split('\n').find((l) => l.startsWith(`| ${figure} |`));
      expect(line, `${figure} row in:\n${stdout}`).toBeDefined();
      const cells = line!.split('|').slice(2, -1).map((c) => Number(c.trim().replaceAll(',', '')));
      expect(cells.every((n) => Number.isFinite(n) && n > 0), line).toBe(true);
    }
    expect(stdout).toMatch(/filtered page CPU over the floor: A \d+(\.\d)?x, B \d+(\.\d)?x/);
    // The temporary worktree is gone again (others, e.g. kept by an earlier run, are not its business).
    expect((await listWorktrees()).filter((line) => !before.has(line))).toEqual([]);
  }, 300_000);
});
