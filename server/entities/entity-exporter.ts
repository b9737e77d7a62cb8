import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { EntityModel, FileFormat } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import { exportQuotaError, type ExportFiles } from '../files/export-files.ts';
import { badRequest } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';
import { selectList } from './entity-query.ts';
import type { EntityDefinition } from './entity-definition.ts';
import type { EntityService } from './entity-service.ts';
import { csvRowWriter } from './csv-row-writer.ts';
import { csvLocalization, readExportLocale } from './csv-localization.ts';
import { parseListQuery, type RawQuery } from './list-query.ts';
import type { FilterArgument } from './parse-filters.ts';
import { RefDisplayCache } from './ref-display-cache.ts';
import { TextFileWriter } from './text-file-writer.ts';
import type { ExportFile } from '../../contract/exports/export-file.ts';

/** Rows read, populated and written per step: bounds memory whatever the export size. */
const BATCH_SIZE = 2000;
const PROGRESS_EVERY = 100_000;
const FORMATS: readonly FileFormat[] = ['CSV', 'JSON'];
const SYSTEM_HEADERS = ['_id', 'createdAt', 'updatedAt'];

// What an export answers is the wire contract's (contract/exports/export-file.ts).
export type { ExportFile };

/**
 * Streams an entity's rows (same search / filters / order as the list) into a file under
 * DATA_DIR/exports with an unguessable name, downloaded through a short-lived link signed for the
 * exporting user. The user's export quota is checked before and while writing.
 */
export class EntityExporter {
  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
    private readonly files: ExportFiles,
    private readonly log: FastifyBaseLogger,
    private readonly queue?: (definition: EntityDefinition, context: RequestContext, raw: RawQuery, typedFilters?: readonly FilterArgument[]) => Promise<ExportFile>,
  ) {}

  /** Through the job queue when one is set (server/files/file-jobs.ts), else written in the request. */
  async export(definition: EntityDefinition, context: RequestContext, raw: RawQuery, typedFilters?: readonly FilterArgument[]): Promise<ExportFile> {
    // A bad query is the caller's 400 now, not a queued job that fails: a refused request stores nothing.
    if (this.queue) this.readOptions(definition, raw, typedFilters);
    // The user's export slot is held by the request until its job ends, whichever instance writes the file.
    const release = await this.files.acquireSlot(context);
    try {
      return this.queue ? await this.queue(definition, context, raw, typedFilters) : await this.write(definition, context, raw, typedFilters);
    } finally {
      release();
    }
  }

  /** The export's options read from its query, each refused with a message naming it. */
  private readOptions(definition: EntityDefinition, raw: RawQuery, typedFilters?: readonly FilterArgument[]) {
    raw = this.service.hooks.exportQuery(definition.model.name, raw);
    return {
      format: readFormat(definition, raw.format),
      headers: readHeaders(definition, raw.headers),
      separator: readSeparator(raw.separator),
      // Optional (CSV only): header labels and values in a language for people; absent keeps field names and stored values.
      locale: readExportLocale(raw.locale),
      query: parseListQuery(definition, raw, { limit: 0, maxLimit: null, paged: false }, typedFilters),
    };
  }

  /** Writes the export file; `onRows` hears the rows written so far (and may throw to stop: a cancelled job). */
  async write(definition: EntityDefinition, context: RequestContext, raw: RawQuery, typedFilters?: readonly FilterArgument[], onRows?: (rows: number) => void): Promise<ExportFile> {
    const started = Date.now();
    const { format, headers, separator, locale, query } = this.readOptions(definition, raw, typedFilters);
    const columns = ['_id', ...headers.filter((h) => h !== '_id' && definition.columns.has(h))];
    const select = selectList(this.database, definition, this.service.scopeFor(definition, context), query, columns, { storageOrder: true });

    const target = await this.files.reserve(definition.model.name, format === 'CSV' ? 'csv' : 'json', context);
    const { name, file } = target;
    let out: TextFileWriter;
    out = await TextFileWriter.create(file);
    const csv = format === 'CSV' ? csvRowWriter(definition, this.database.dialect, headers, separator, new RefDisplayCache(this.database, this.service.definitions), locale ? csvLocalization(definition, locale) : undefined) : null;
    let rowCount = 0;
    try {
      // CSV starts with a BOM so spreadsheet programs read the UTF-8 (accents) correctly.
      await out.write(csv ? '\ufeff' + csv.header() : '[');
      for await (const batch of this.database.stream(select.compile(), BATCH_SIZE)) {
        if (csv) {
          await csv.prime(batch);
          await out.write(csv.lines(batch));
        } else {
          const records = await this.service.toRecords(definition, batch);
          let chunk = '';
          for (const record of records) {
            const projected: Record<string, unknown> = { _id: record._id };
            for (const h of headers) projected[h] = record[h] ?? null;
            chunk += (rowCount > 0 || chunk !== '' ? ',\n' : '\n') + JSON.stringify(projected);
          }
          await out.write(chunk);
        }
        // One user cannot fill the disk: past the quota left, the file is dropped and the export refused.
        if (out.bytesWritten > target.maxBytes) throw exportQuotaError(this.files.limits.exportQuotaBytes);
        const before = rowCount;
        rowCount += batch.rows.length;
        onRows?.(rowCount);
        if (Math.floor(rowCount / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
          this.log.info({ entity: definition.model.name, rowCount }, 'export progress');
        }
      }
      if (format === 'JSON') await out.write(rowCount > 0 ? '\n]\n' : ']\n');
      await out.close();
    } catch (error) {
      await out.close().catch(() => {});
      await fs.promises.rm(file, { force: true });
      throw error;
    }
    const time = Date.now() - started;
    this.log.info({ entity: definition.model.name, rowCount, time, format }, 'export written');
    return { ...this.files.signedUrl(name, context.userId), rowCount, time };
  }
}

/** Without `format`: JSON where the entity exports it, else its first format (users export CSV only). */
export function defaultExportFormat(model: EntityModel): FileFormat {
  return model.export.formats.includes('JSON') ? 'JSON' : model.export.formats[0] ?? 'JSON';
}

function readFormat(definition: EntityDefinition, raw: string | undefined): FileFormat {
  const format = (raw?.trim() || defaultExportFormat(definition.model)).toUpperCase() as FileFormat;
  if (!FORMATS.includes(format) || !definition.model.export.formats.includes(format)) {
    throw badRequest(`format must be one of ${definition.model.export.formats.join(', ')}; got "${raw}"`);
  }
  return format;
}

/** Which fields, in order; secret fields can never be exported. */
function readHeaders(definition: EntityDefinition, raw: string | undefined): string[] {
  const exportable = (name: string) =>
    SYSTEM_HEADERS.includes(name) || (definition.fields.has(name) && !definition.fields.get(name)!.secret) ||
    (name === definition.tenantColumn && definition.columns.has(name));
  if (raw === undefined || raw.trim() === '') return definition.model.export.headers.filter(exportable);
  const headers = raw.split(',').map((h) => h.trim()).filter((h) => h !== '');
  const unknown = headers.filter((h) => !exportable(h));
  if (unknown.length > 0) throw badRequest(`Unknown export header(s): ${unknown.join(', ')}`);
  return headers;
}

function readSeparator(raw: string | undefined): string {
  const separator = raw === undefined || raw === '' ? ';' : raw;
  if ([...separator].length !== 1 || /["\r\n]/.test(separator)) {
    throw badRequest(`separator must be a single character other than a quote or line break; got "${raw}"`);
  }
  return separator;
}
