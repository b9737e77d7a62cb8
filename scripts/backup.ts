/**
 * npm run backup -- <file>
 *
 * Backs up the database (DATABASE_URL, or SQLite under DATA_DIR) and every file of DATA_DIR
 * (uploads, secrets, exports) into <file>, while the server runs (server/backup/create-backup.ts).
 * Reads DATA_DIR and DATABASE_URL as the server does. Prints what it wrote and the checksum.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { createBackup } from '../server/backup/create-backup.ts';

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
if (positionals.length !== 1) {
  process.stderr.write('usage: npm run backup -- <file>   (e.g. npm run backup -- backups/forja-$(date +%F).backup)\n');
  process.exit(2);
}
try {
  const config = loadConfig();
  const summary = await createBackup({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, file: positionals[0] });
  const database = Object.entries(summary.database).map(([name, n]) => `${name} ${n}`).join(', ');
  process.stdout.write(`backup written: ${summary.file} (${summary.engine}: ${database}; ${summary.files} files; sha256 ${summary.sha256})\n`);
} catch (error) {
  process.stderr.write(`backup failed: ${(error as Error).message}\n`);
  process.exit(1);
}
