// npm run db:prune [-- --yes]: drops the columns of fields removed from the manifests (the
// migrations keep them, with their data, until this runs). Without --yes it only prints what
// each column holds. The database is the server's (DATA_DIR or DATABASE_URL, server/config.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { keptColumns, pruneColumns } from '../server/db/prune-columns.ts';
import { modelsFromManifests } from '../generator/models-from-manifests.ts';

const USAGE = `Usage: npm run db:prune -- [--yes] [--root DIR]

Lists the database columns that no manifest field declares any more (removed fields, kept with
their data by the migrations) and what each holds. With --yes, drops them and their data.`;

async function main(argv: string[]): Promise<number> {
  let yes = false;
  let root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--yes') yes = true;
    else if (argv[i] === '--root') root = path.resolve(argv[++i] ?? '.');
    else if (argv[i] === '--help' || argv[i] === '-h') { console.log(USAGE); return 0; }
    else { console.error(`Unknown option "${argv[i]}".\n\n${USAGE}`); return 2; }
  }
  const models = modelsFromManifests(root);
  if (!models) return 1;
  const config = loadConfig();
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const columns = await keptColumns(database, Object.values(models));
    if (columns.length === 0) {
      console.log('✔ nothing to prune: every column of the entity tables belongs to a field of the manifests.');
      return 0;
    }
    console.log(`${columns.length} column(s) no manifest field declares any more:`);
    for (const { table, column, values, sample } of columns) {
      const shown = sample.map((value) => JSON.stringify(value)).join(', ');
      console.log(`  ${table}.${column}: ${values} row(s) with a value${values > 0 ? `, e.g. ${shown}` : ''}`);
    }
    if (!yes) {
      console.log('\nNothing was dropped. To drop these columns and their data for good: npm run db:prune -- --yes');
      return 0;
    }
    await pruneColumns(database, Object.values(models), columns);
    console.log(`✔ dropped ${columns.length} column(s).`);
    return 0;
  } finally {
    await database.close();
  }
}

process.exit(await main(process.argv.slice(2)));
