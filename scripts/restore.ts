/**
 * npm run restore -- <file> [--force]     (stop the server first)
 * npm run restore -- --check <file>        (only reads the backup and checks it; writes nothing)
 *
 * Restores a backup of npm run backup into DATA_DIR and the database of DATABASE_URL (or SQLite
 * under DATA_DIR), which must be empty unless --force (server/backup/restore-backup.ts).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { checkBackup, restoreBackup } from '../server/backup/restore-backup.ts';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false }, check: { type: 'boolean', default: false } } });
if (positionals.length !== 1) {
  process.stderr.write('usage: npm run restore -- <file> [--force]   or   npm run restore -- --check <file>\n');
  process.exit(2);
}
try {
  const file = positionals[0];
  if (values.check) {
    const header = await checkBackup(file);
    process.stdout.write(`backup ok: ${file} (${header.engine}, made ${header.createdAt}); checksum verified\n`);
  } else {
    const config = loadConfig();
    const summary = await restoreBackup({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, file, force: values.force });
    const database = Object.entries(summary.database).map(([name, n]) => `${name} ${n}`).join(', ');
    process.stdout.write(`restored: ${summary.engine} (${database}); ${summary.files} files into ${config.dataDir}\n`);
  }
} catch (error) {
  process.stderr.write(`restore failed: ${(error as Error).message}\n`);
  process.exit(1);
}
