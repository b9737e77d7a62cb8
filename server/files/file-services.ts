import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { EntityExporter } from '../entities/entity-exporter.ts';
import { EntityImporter } from '../entities/entity-importer.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { system } from '../entities/system-context.ts';
import { registerExportDownloadRoute } from './export-download-route.ts';
import { ExportFiles, exportLinkKey } from './export-files.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { registerFileJobs } from './file-jobs.ts';
import type { FileLimits } from './file-limits.ts';
import type { Coordination } from '../db/coordination/coordination.ts';
import { ByteBudget, ConcurrencyLimit } from './user-limiter.ts';

export interface UploadLimits {
  running: ConcurrencyLimit;
  budget: ByteBudget;
}

export interface FileServices {
  exporter: EntityExporter;
  importer: EntityImporter;
  exports: ExportFiles;
  uploads: UploadLimits;
  limits: FileLimits;
}

const DAY_MS = 24 * 3600_000;

/**
 * Exports, imports and upload limits, wired together: the signed download route, imports and
 * exports as jobs, the scheduled sweep of old export files and the per-user limits
 * (server/files/file-limits.ts for the settings).
 */
export function createFileServices(deps: {
  app: FastifyInstance;
  config: ServerConfig;
  database: Database;
  /** Per-user slots and the upload ledger: shared by every instance on PostgreSQL, in memory on SQLite. */
  coordination: Coordination;
  service: EntityService;
  /** The token signing secret; the download links' key is derived from it. */
  signingSecret: string;
  /** server/files/file-limits.ts, read at start by server/config.ts loadFeatureConfig. */
  limits: FileLimits;
  jobs: JobQueue;
}): FileServices {
  const { app, config, database, service } = deps;
  const { limits } = deps;
  const slots = deps.coordination.slots(limits.slotLeaseMs);
  const exports = new ExportFiles({
    slots,
    dataDir: config.dataDir,
    key: exportLinkKey(deps.signingSecret),
    limits,
    log: app.log,
    // A link dies with its account: a user deleted or deactivated since the export gets nothing.
    userMayDownload: async (userId) => {
      try {
        const user = await service.findById('user', system(), userId);
        return user.active !== false;
      } catch {
        return false;
      }
    },
  });
  registerExportDownloadRoute(app, exports);
  // Imports and exports run as durable jobs; old export files go in a scheduled job (file-jobs.ts).
  const fileJobs = registerFileJobs(deps.jobs, {
    dataDir: config.dataDir,
    exports,
    exporter: () => exporter,
    importer: () => importer,
    definition: (entity) => service.definition(entity),
    sweepEveryMs: limits.sweepIntervalMs,
  });
  const exporter = new EntityExporter(database, service, exports, app.log, fileJobs.queueExport);
  const importer = new EntityImporter(database, service, limits, fileJobs.queueImport, slots);
  return {
    exporter,
    importer,
    exports,
    uploads: { running: new ConcurrencyLimit(limits.concurrentPerUser * 2, 'uploads', slots), budget: new ByteBudget(limits.uploadQuotaBytes, DAY_MS, deps.coordination.ledger) },
    limits,
  };
}
