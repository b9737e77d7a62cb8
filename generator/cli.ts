import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { readInput, readMetaSchema } from './load/read-input.ts';
import { generate } from './generate.ts';
import { emitSettingValidators } from './emit/contract/emit-setting-validators.ts';
import { diffArtefacts, writeArtefacts } from './write-artefacts.ts';
import { ManifestValidationError, formatIssue, formatWarning, type ManifestIssue } from './validate/manifest-issue.ts';
import { addLocaleKeysCommand } from './validate/manifest-rules.ts';
import { printMigrationPlan } from './print-migration-plan.ts';

const USAGE = `Usage: npm run generate -- [--check] [--watch] [--plan] [--quiet] [--root DIR]

Reads manifests/*.json, validates them, and writes src/generated/ and server/generated/.
  --check   write nothing; exit 1 and name the stale files if the artefacts differ
  --watch   regenerate whenever a manifest or locale file changes
  --plan    write nothing; print what the next start will change in the database (exit 1 if it refuses)
  --quiet   print only the summary line and errors
  --root    project root (default: the folder holding generator/)`;

interface Options { check: boolean; watch: boolean; plan: boolean; quiet: boolean; root: string }

function parseArgs(argv: string[]): Options {
  const options: Options = {
    check: false, watch: false, plan: false, quiet: false,
    root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--watch') options.watch = true;
    else if (arg === '--plan') options.plan = true;
    else if (arg === '--quiet') options.quiet = true;
    else if (arg === '--root') options.root = path.resolve(argv[++i] ?? '.');
    else if (arg === '--help' || arg === '-h') { console.log(USAGE); process.exit(0); }
    else { console.error(`Unknown option "${arg}".\n\n${USAGE}`); process.exit(2); }
  }
  if (options.check && options.watch) { console.error('--check and --watch cannot be combined.'); process.exit(2); }
  return options;
}

/** They depend on contract/ code alone, loaded once per process: computed once (watch mode runs often). */
let settingValidatorFiles: ReturnType<typeof emitSettingValidators> | null = null;
function settingValidators(): ReturnType<typeof emitSettingValidators> {
  settingValidatorFiles ??= emitSettingValidators();
  return settingValidatorFiles;
}

/** One generation pass; returns the process exit code. */
export function runOnce(options: Options): number {
  const started = performance.now();
  let result;
  try {
    result = generate(readInput(options.root), readMetaSchema(options.root));
  } catch (error) {
    if (error instanceof ManifestValidationError) {
      printWarnings(error.warnings);
      console.error(error.issues.map(formatIssue).join('\n\n'));
      const missingKeys = [...new Set(error.issues.flatMap((issue) => issue.missingLocaleKey ?? []))];
      if (missingKeys.length > 1) console.error(`\nAdd every missing locale key at once (then write the texts):\n  ${addLocaleKeysCommand(missingKeys)}`);
      console.error(`\n✖ ${error.issues.length} problem(s) in the manifests; nothing was written.`);
      return 1;
    }
    throw error;
  }
  printWarnings(result.warnings);
  // Not from the manifests: contract/ artefacts every project has (the fixture projects too).
  result = { ...result, files: new Map([...result.files, ...settingValidators()]) };
  const diff = diffArtefacts(options.root, result.files);
  const stale = [...diff.added, ...diff.changed, ...diff.removed];
  const ms = Math.round(performance.now() - started);
  if (!options.quiet) {
    for (const model of Object.values(result.models)) {
      const own = [...result.files.keys()].filter((f) => f.includes(`/${model.name}.`));
      console.log(
        `  ${model.name.padEnd(16)} ${String(model.fields.length).padStart(2)} fields  ${model.api.basePath.padEnd(26)} ${(model.route?.path ?? '-').padEnd(22)} ${own.length} own files`,
      );
    }
  }
  if (options.check) {
    if (stale.length === 0) {
      console.log(`✔ generated artefacts are up to date (${Object.keys(result.models).length} entities, ${result.files.size} files, ${ms} ms)`);
      return 0;
    }
    console.error('✖ generated artefacts are stale; run `npm run generate`:');
    for (const file of diff.added) console.error(`  missing  ${file}`);
    for (const file of diff.changed) console.error(`  differs  ${file}`);
    for (const file of diff.removed) console.error(`  extra    ${file}`);
    return 1;
  }
  writeArtefacts(options.root, result.files, diff);
  console.log(
    `✔ ${Object.keys(result.models).length} entities, ${result.files.size} files: ${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged.length} unchanged (${ms} ms)`,
  );
  return 0;
}

/** Printed even with --quiet: each names a change the manifest's author should make. */
function printWarnings(warnings: ManifestIssue[]): void {
  if (warnings.length) console.error(`${warnings.map(formatWarning).join('\n\n')}\n`);
}

async function watch(options: Options): Promise<void> {
  const { watch: watchFiles } = await import('chokidar');
  runOnce(options);
  let timer: NodeJS.Timeout | undefined;
  const watcher = watchFiles([path.join(options.root, 'manifests'), path.join(options.root, 'locales')], { ignoreInitial: true });
  watcher.on('all', (_event, file) => {
    if (!file.endsWith('.json')) return;
    clearTimeout(timer);
    // Editors save in bursts (write, rename, chmod); one pass per burst.
    timer = setTimeout(() => {
      console.log(`\n↻ ${path.relative(options.root, file)} changed`);
      runOnce({ ...options, quiet: true });
    }, 100);
  });
  console.log('watching manifests/ and locales/ (Ctrl+C to stop)');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const options = parseArgs(process.argv.slice(2));
  if (options.plan) process.exit(await printMigrationPlan(options.root));
  if (options.watch) await watch(options);
  else process.exit(runOnce(options));
}
