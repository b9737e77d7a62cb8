// npm run bench:ab -- <commitA> <commitB>: the request path of two commits side by side on the
// same seeded bot traces (tests/bench/ab-compare.ts; "." is this working tree, uncommitted
// changes included). BENCH_ROWS (default 200,000), BENCH_ROUNDS (5), BENCH_SECONDS (3 per figure,
// per side, per round), BENCH_CONNECTIONS (16), BENCH_WARM_SECONDS (2), BENCH_ONLY (some figures: byId,page,filter,search,export),
// BENCH_CPU_PROF (a folder: both servers run with --cpu-prof and write their profiles under it on stop).
// Prints a table of medians with the ratios B/A and their per-round spread.
// The commits' worktrees stay in $TMPDIR/forja-bench-ab-worktrees for the next run (BENCH_AB_KEEP=0
// removes them at the end; `git worktree remove` or `git worktree prune` after deleting the folder).
import os from 'node:os';
import path from 'node:path';
import { abCompare } from './ab-compare.ts';

const [commitA, commitB] = process.argv.slice(2);
if (!commitA || !commitB) {
  console.error('usage: npm run bench:ab -- <commitA> <commitB>   (a commit, branch or tag; "." is the working tree), e.g. npm run bench:ab -- e5bfcd8 .');
  process.exit(2);
}
const result = await abCompare({
  commitA,
  commitB,
  rows: Number(process.env.BENCH_ROWS ?? 200_000),
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  seconds: Number(process.env.BENCH_SECONDS ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmSeconds: Number(process.env.BENCH_WARM_SECONDS ?? 2),
  only: process.env.BENCH_ONLY?.split(',').map((key) => key.trim()).filter(Boolean),
  cpuProfileDir: process.env.BENCH_CPU_PROF?.trim() || null,
  worktreeCache: process.env.BENCH_AB_KEEP === '0' ? null : path.join(os.tmpdir(), 'forja-bench-ab-worktrees'),
});
console.log(`\n${result.table}`);
