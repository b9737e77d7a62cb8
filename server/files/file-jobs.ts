import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { EntityExporter, ExportFile } from '../entities/entity-exporter.ts';
import type { EntityImporter, ImportJob, ImportReport } from '../entities/entity-importer.ts';
import type { EntityDefinition } from '../entities/entity-definition.ts';
import type { RawQuery } from '../entities/list-query.ts';
import type { FilterArgument } from '../entities/parse-filters.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { ExportFiles } from './export-files.ts';
import { privateFolder, type PrivateFolder } from './private-folders.ts';

/** Uploaded import files waiting for their job, under DATA_DIR (shared by every instance). */
export const JOB_UPLOADS_DIR: PrivateFolder = 'job-uploads';
const UPLOAD_NAME = /^[0-9a-f]{32}\.upload$/;
const ORPHAN_UPLOAD_MS = 24 * 3600_000;

interface ImportPayload {
  entity: string;
  query: Record<string, string | undefined>;
  filename: string;
  /** The stored upload's name in DATA_DIR/job-uploads. */
  upload: string;
}

interface ExportPayload {
  entity: string;
  raw: RawQuery;
  typedFilters: FilterArgument[] | null;
}

export interface FileJobs {
  queueImport(job: ImportJob, context: RequestContext): Promise<ImportReport>;
  queueExport(definition: EntityDefinition, context: RequestContext, raw: RawQuery, typedFilters?: readonly FilterArgument[]): Promise<ExportFile>;
}

/**
 * Imports, exports and the export-file sweep as durable jobs (README.md "Jobs"). The endpoints
 * still answer with the report or the file (they enqueue and wait), while the console's jobs panel
 * shows the job's progress and may cancel it. An import is never repeated (a second run after an
 * instance died mid-commit could import twice): it is marked failed instead. An export only
 * writes a new file, so it is retried once. The sweep runs once per interval across instances.
 */
export function registerFileJobs(jobs: JobQueue, deps: {
  dataDir: string;
  exports: ExportFiles;
  exporter: () => EntityExporter;
  importer: () => EntityImporter;
  definition: (entity: string) => EntityDefinition;
  sweepEveryMs: number;
}): FileJobs {
  const uploads = privateFolder(deps.dataDir, JOB_UPLOADS_DIR);
  const removeUpload = (name: string) => fs.promises.rm(path.join(uploads, name), { force: true });

  jobs.handle<ImportPayload>('import', {
    maxAttempts: 1,
    onFailed: async (job) => removeUpload((job.payload as ImportPayload).upload),
    run: async ({ payload, context, log, progress }) => {
      if (!UPLOAD_NAME.test(payload.upload)) throw new Error(`Import job with a bad upload name: ${payload.upload}`);
      try {
        const content = await fs.promises.readFile(path.join(uploads, payload.upload));
        return await deps.importer().importFile({ entity: payload.entity, query: payload.query, filename: payload.filename, content }, context, {
          log,
          onProgress: (done, total) => progress(done, total, 'validating'),
        });
      } finally {
        await removeUpload(payload.upload);
      }
    },
  });

  jobs.handle<ExportPayload>('export', {
    maxAttempts: 2,
    retryOnError: true,
    run: async ({ payload, context, progress }) =>
      deps.exporter().write(deps.definition(payload.entity), context, payload.raw, payload.typedFilters ?? undefined, (rows) => progress(rows, 0, 'writing')),
  });

  jobs.handle('export-sweep', {
    maxAttempts: 3,
    retryOnError: true,
    run: async () => ({ removed: await deps.exports.sweep(), orphanUploads: await sweepUploads(uploads) }),
  });
  jobs.schedule('export-sweep', deps.sweepEveryMs);

  return {
    async queueImport(job, context) {
      await fs.promises.mkdir(uploads, { recursive: true });
      const upload = `${randomBytes(16).toString('hex')}.upload`;
      await fs.promises.writeFile(path.join(uploads, upload), job.content, { mode: 0o600 });
      const payload: ImportPayload = { entity: job.entity, query: job.query, filename: job.filename, upload };
      // Once queued, the job owns the file (it deletes it when it ends, wherever it runs).
      const queued = await jobs.enqueue({ kind: 'import', payload, context, subject: { entity: job.entity, label: job.filename } }).catch(async (error) => {
        await removeUpload(upload);
        throw error;
      });
      if (!queued) throw new Error('An import job cannot be refused as a duplicate');
      return (await jobs.outcome(queued.id)) as ImportReport;
    },
    async queueExport(definition, context, raw, typedFilters) {
      const payload: ExportPayload = { entity: definition.model.name, raw: { ...raw }, typedFilters: typedFilters ? [...typedFilters] : null };
      const { result } = await jobs.run({ kind: 'export', payload, context, subject: { entity: definition.model.name, label: (raw.format ?? 'JSON').toUpperCase() } });
      return result as ExportFile;
    },
  };
}

/** Uploads whose import job vanished (its instance died before it ran): deleted after a day. */
async function sweepUploads(dir: string): Promise<number> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!UPLOAD_NAME.test(name)) continue;
    const stat = await fs.promises.lstat(path.join(dir, name)).catch(() => null);
    if (stat?.isFile() && Date.now() - stat.mtimeMs > ORPHAN_UPLOAD_MS) {
      await fs.promises.rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
