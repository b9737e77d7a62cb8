import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FieldModel, FileFormat } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import type { FileLimits } from '../files/file-limits.ts';
import { ConcurrencyLimit, limitKey } from '../files/user-limiter.ts';
import type { SlotStore } from '../db/coordination/coordination.ts';
import { HttpError, badRequest } from '../http/http-error.ts';
import { nulBytePaths } from '../http/reject-nul-bytes.ts';
import type { EntityDefinition } from './entity-definition.ts';
import { UNIQUE_REASON, type EntityService, type PreparedInsert } from './entity-service.ts';
import { isPlainObject } from './entity-validator.ts';
import { MAX_LIMIT } from './list-query.ts';
import type { RequestContext } from '../http/request-context.ts';
import { sliceTimer, yieldToEventLoop } from './event-loop-yield.ts';
import { csvRowToBody } from './import-cells.ts';
import { readCsvRows, readJsonRows } from './import-file-rows.ts';
import { ImportRefResolver, type ImportItem } from './import-ref-resolver.ts';
import { ImportBatchChecks } from './import-batch-checks.ts';
import { readUploadedFile } from '../files/read-uploaded-file.ts';
import type { ImportReport, ImportRowError } from '../../contract/imports/import-report.ts';

// The report and its row errors are the wire contract's (contract/imports/import-report.ts).
export type { ImportReport, ImportRowError };

/** One uploaded import file and the query it came with (format, separator, dryRun). */
export interface ImportJob {
  entity: string;
  query: Record<string, string | undefined>;
  filename: string;
  content: Buffer;
}

export interface ImportOptions {
  log: Pick<FastifyBaseLogger, 'info'>;
  onProgress?: (done: number, total: number) => void;
}

/** A string holding U+0000, which PostgreSQL cannot store (same key as the request-level 400). */
const NUL_REASON = 'validation.nulCharacter';
const FORMAT_BY_EXTENSION: Record<string, FileFormat> = { csv: 'CSV', json: 'JSON' };
/** Rows whose refs are resolved and checked together (one query per ref or unique field and slice). */
const ROWS_PER_SLICE = 500;

/** Rule -> the limit its message shows, for the validation reasons that interpolate one. */
const LIMIT_PARAMS: Record<string, (v: FieldModel['validation']) => Record<string, number> | null> = {
  minLength: (v) => (v.minLength === null ? null : { min: v.minLength }),
  maxLength: (v) => (v.maxLength === null ? null : { max: v.maxLength }),
  min: (v) => (v.min === null ? null : { min: v.min }),
  max: (v) => (v.max === null ? null : { max: v.max }),
  minItems: (v) => (v.minItems === null ? null : { min: v.minItems }),
  maxItems: (v) => (v.maxItems === null ? null : { max: v.maxItems }),
};

/**
 * POST {base}/import: every row is validated exactly as a create would be. A dry run only
 * reports; a real import writes all rows in one transaction, or none when any row is bad.
 * The file is parsed and checked in slices that yield to the event loop (other requests go on
 * during a 25 MB import), at most IMPORT_MAX_ROWS rows, at most two imports per user at once.
 */
export class EntityImporter {
  private readonly running: ConcurrencyLimit;

  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
    private readonly limits: Pick<FileLimits, 'importMaxRows' | 'concurrentPerUser'>,
    /** Runs the import as a durable job and waits for its report (server/files/file-jobs.ts); absent: in the request. */
    private readonly queue?: (job: ImportJob, context: RequestContext) => Promise<ImportReport>,
    /** Where the per-user import slots are counted (server/files/file-services.ts; default: this process). */
    slots?: SlotStore,
  ) {
    this.running = new ConcurrencyLimit(limits.concurrentPerUser, 'imports', slots);
  }

  async import(definition: EntityDefinition, request: FastifyRequest): Promise<ImportReport> {
    // A table only platform users write is refused before the upload is even read.
    this.service.requireWriter(definition, request.context);
    const query = (request.query ?? {}) as Record<string, string | undefined>;
    readBoolean(query.dryRun, 'dryRun');
    const release = await this.running.acquire(limitKey(request.context));
    try {
      const upload = await readUploadedFile(request);
      const job: ImportJob = { entity: definition.model.name, query: { ...query }, filename: upload.filename, content: upload.content };
      return this.queue ? await this.queue(job, request.context) : await this.importFile(job, request.context, { log: request.log });
    } finally {
      release();
    }
  }

  /**
   * Validates (and, unless a dry run, writes) an uploaded file's rows for `context`: the work of
   * an import job (server/jobs), reporting rows checked of the total through `onProgress`, which
   * may throw to stop (a cancelled job).
   */
  async importFile(job: ImportJob, context: RequestContext, options: ImportOptions): Promise<ImportReport> {
    const definition = this.service.definition(job.entity);
    this.service.requireWriter(definition, context);
    const query = job.query;
    const dryRun = readBoolean(query.dryRun, 'dryRun');
    const format = readFormat(definition, query.format, job.filename);
    const max = this.limits.importMaxRows;
    const sources = format === 'CSV' ? await readCsvRows(job.content, query.separator, max) : await readJsonRows(job.content, max);
    // A real import checks and writes as single creates do: under the entity's `writeLock` hook
    // (identity's write lock for users, roles, tenants), so its checks and its write are one step.
    // The file is parsed before, so parsing never holds the lock.
    if (dryRun) return this.checkAndWrite(definition, context, format, sources, true, options);
    return this.service.underWriteLock(job.entity, () => this.checkAndWrite(definition, context, format, sources, false, options));
  }

  private async checkAndWrite(definition: EntityDefinition, context: RequestContext, format: FileFormat, sources: unknown[], dryRun: boolean, options: ImportOptions): Promise<ImportReport> {
    const errors: ImportRowError[] = [];
    const inserts: PreparedInsert[] = [];
    /** What each insert set, for the afterChange hooks (same index as `inserts`). */
    const written: Record<string, unknown>[] = [];
    const seenUnique = new Set<string>();
    const refs = new ImportRefResolver(this.database, this.service.definitions, context);
    const checks = new ImportBatchChecks(this.database, this.service.definitions, context);
    const timer = sliceTimer();
    let invalid = 0;
    // A field the manifest marks "importable": false is not read: its column is ignored (an export's round trip still imports).
    const notImported = definition.model.fields.map((field) => field.name).filter((name) => !definition.model.import.fields.includes(name));
    for (let first = 0; first < sources.length; first += ROWS_PER_SLICE) {
      const items: ImportItem[] = [];
      for (let index = first; index < Math.min(first + ROWS_PER_SLICE, sources.length); index++) {
        const source = sources[index];
        const row = index + 1;
        // PostgreSQL's text and jsonb cannot hold U+0000 (a 500 at write time): a row holding one
        // is refused up front, per field (CSV: the column; JSON: the path), and nothing of it is
        // looked up or written. reject-nul-bytes only sees JSON bodies, not uploaded files.
        const nul = nulBytePaths(source);
        if (nul.length > 0) {
          items.push({ row, body: {}, errors: nul.map((field) => ({ row, field, reason: NUL_REASON })) });
        } else if (format === 'CSV') {
          const converted = csvRowToBody(definition.fields, source as Record<string, string>);
          items.push({ row, body: converted.body, errors: converted.errors.map((e) => ({ row, ...e })) });
        } else if (isPlainObject(source)) {
          items.push({ row, body: { ...source }, errors: [] });
        } else {
          items.push({ row, body: {}, errors: [{ row, field: '', reason: 'validation.invalidValue' }] });
        }
        for (const name of notImported) delete items[items.length - 1].body[name];
      }
      await refs.resolve(definition, items);
      await checks.load(definition, items.filter((item) => item.errors.length === 0).map((item) => item.body));
      for (const item of items) {
        if (item.errors.length === 0) {
          const prepared = await this.service.prepareInsert(definition, context, item.body, checks);
          if (prepared.ok) {
            // Two rows of the same file may clash with each other, not only with stored records.
            for (const unique of prepared.insert.uniqueValues) {
              const key = JSON.stringify([unique.field, unique.value, unique.tenant]);
              if (seenUnique.has(key)) item.errors.push({ row: item.row, field: unique.field, reason: UNIQUE_REASON });
              seenUnique.add(key);
            }
            if (item.errors.length === 0) {
              inserts.push(prepared.insert);
              written.push(prepared.values);
            }
          } else {
            item.errors.push(...prepared.errors.map((e) => ({ row: item.row, ...e })));
          }
        }
        if (item.errors.length > 0) {
          invalid++;
          for (const e of item.errors) errors.push(withParams(definition, e));
        }
        if (timer.due()) await yieldToEventLoop();
      }
      options.onProgress?.(Math.min(first + ROWS_PER_SLICE, sources.length), sources.length);
    }
    const report: ImportReport = { dryRun, total: sources.length, valid: sources.length - invalid, invalid, created: 0, errors };
    if (dryRun) return report;
    if (invalid > 0) {
      // All or nothing: the report travels inside the usual error shape.
      const error = new HttpError(400, `Import rejected: ${invalid} of ${sources.length} rows are invalid; nothing was imported`, {
        i18nMessage: 'error.validation',
        inputErrors: errors.map((e) => ({ field: `${e.row}.${e.field}`, reason: e.reason })),
        details: { ...report },
      });
      throw error;
    }
    // The rows and what their afterChange hooks write are one transaction: a hook that fails
    // leaves no row. Only this part: the checks above report progress (job rows) as they go.
    await this.database.transaction(async () => {
      await this.database.runAll(inserts.map((insert) => insert.query));
      await this.afterChange(definition, context, inserts, written);
    });
    options.log.info({ entity: definition.model.name, created: inserts.length }, 'import written');
    return { ...report, created: inserts.length };
  }

  /** The entity's afterChange hooks once per created record, as single creates run them. */
  private async afterChange(definition: EntityDefinition, context: RequestContext, inserts: PreparedInsert[], written: Record<string, unknown>[]): Promise<void> {
    const entity = definition.model.name;
    if (!this.service.hooks.has(entity, 'afterChange')) return;
    for (let start = 0; start < inserts.length; start += MAX_LIMIT) {
      const slice = inserts.slice(start, start + MAX_LIMIT);
      const records = new Map((await this.service.findByIds(entity, context, slice.map((i) => i.id))).map((r) => [String(r._id), r]));
      for (const [offset, insert] of slice.entries()) {
        const record = records.get(insert.id);
        if (!record) continue;
        await this.service.hooks.afterChange({ entity, operation: 'create', context, id: insert.id, data: written[start + offset], original: null, record });
      }
    }
  }
}

/** Adds the limit a length / range / count message shows ("at least {{min}} characters"). */
function withParams(definition: EntityDefinition, error: ImportRowError): ImportRowError {
  if (error.params) return error;
  const field = definition.fields.get(error.field.split('.')[0]);
  if (!field) return error;
  const { validation } = field;
  for (const [rule, params] of Object.entries(LIMIT_PARAMS)) {
    const key = (validation.messages as Record<string, string | undefined>)[rule] ?? `validation.${rule}`;
    if (key !== error.reason) continue;
    const values = params(validation);
    if (values) return { ...error, params: values };
  }
  return error;
}

function readBoolean(raw: string | undefined, name: string): boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw badRequest(`${name} must be true or false; got "${raw}"`);
}

function readFormat(definition: EntityDefinition, raw: string | undefined, filename: string): FileFormat {
  const extension = filename.split('.').pop()?.toLowerCase() ?? '';
  const format = raw ? (raw.toUpperCase() as FileFormat) : FORMAT_BY_EXTENSION[extension];
  if (!format) throw badRequest(`Cannot tell the import format from "${filename}"; pass format=CSV or format=JSON`);
  if (!definition.model.import.formats.includes(format)) {
    throw badRequest(`format must be one of ${definition.model.import.formats.join(', ')}; got "${raw ?? extension}"`);
  }
  return format;
}
