import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { formatPlan, planMigrations } from '../server/db/plan-migrations.ts';
import { modelsFromManifests } from './models-from-manifests.ts';

/**
 * `npm run generate -- --plan`: what the next start will do to the database (DATA_DIR or
 * DATABASE_URL, read as the server reads them) for the manifests under `root`. Changes nothing;
 * exit code 1 when the plan refuses a change (the start would refuse it too).
 */
export async function printMigrationPlan(root: string): Promise<number> {
  const models = modelsFromManifests(root);
  if (!models) return 1;
  const config = loadConfig();
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const plan = await planMigrations(database, Object.values(models));
    const where = config.databaseUrl ? 'DATABASE_URL' : `${config.dataDir}/forja.db`;
    const text = formatPlan(plan);
    if (plan.refusals.length > 0) {
      console.error(`✖ schema plan for ${where}: refused, nothing would be changed:\n${text}`);
      return 1;
    }
    console.log(text === '' ? `✔ schema plan for ${where}: the database matches the manifests, nothing to do.` : `schema plan for ${where}:\n${text}`);
    return 0;
  } finally {
    await database.close();
  }
}
