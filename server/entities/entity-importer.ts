import type { FastifyRequest } from 'fastify';
import { parse } from 'csv-parse/sync';
import type { FileFormat } from '../../generator/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import { HttpError, badRequest } from '../http/http-error.ts';
import type { EntityRuntime } from './entity-runtime.ts';
import { UNIQUE_REASON, type EntityService, type PreparedInsert } from './entity-service.ts';
import { isPlainObject } from './entity-validator.ts';
import { csvRowToBody } from './import-cells.ts';
import { readUploadedFile } from '../files/read-uploaded-file.ts';

export interface ImportRowError {
  /** 1-based data row (CSV: the line after the header is row 1; JSON: the array index + 1). */
  row: number;
  field: string;
  reason: string;
}

export interface ImportReport {
  dryRun: boolean;
  total: number;
  valid: number;
  invalid: number;
  created: number;
  errors: ImportRowError[];
}

const FORMAT_BY_EXTENSION: Record<string, FileFormat> = { csv: 'CSV', json: 'JSON' };

/**
 * POST {base}/import: every row is validated exactly as a create would be. A dry run only
 * reports; a real import writes all rows in one transaction, or none when any row is bad.
 */
export class EntityImporter {
  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
  ) {}

  async import(runtime: EntityRuntime, request: FastifyRequest): Promise<ImportReport> {
    const query = (request.query ?? {}) as Record<string, string | undefined>;
    const dryRun = readBoolean(query.dryRun, 'dryRun');
    const upload = await readUploadedFile(request);
    const format = readFormat(runtime, query.format, upload.filename);
    const bodies = format === 'CSV' ? parseCsv(upload.content, query.separator) : parseJson(upload.content);

    const errors: ImportRowError[] = [];
    const inserts: PreparedInsert[] = [];
    const seenUnique = new Set<string>();
    let invalid = 0;
    for (let index = 0; index < bodies.length; index++) {
      const row = index + 1;
      const source = bodies[index];
      let rowErrors: { field: string; reason: string }[];
      let body: unknown = source;
      if (format === 'CSV') {
        const converted = csvRowToBody(runtime.fields, source as Record<string, string>);
        body = converted.body;
        rowErrors = converted.errors;
      } else {
        rowErrors = isPlainObject(source) ? [] : [{ field: '', reason: 'validation.invalidValue' }];
      }
      if (rowErrors.length === 0) {
        const prepared = await this.service.prepareInsert(runtime, request.context, body);
        if (prepared.ok) {
          // Two rows of the same file may clash with each other, not only with stored records.
          for (const unique of prepared.insert.uniqueValues) {
            const key = JSON.stringify([unique.field, unique.value, unique.tenant]);
            if (seenUnique.has(key)) rowErrors.push({ field: unique.field, reason: UNIQUE_REASON });
            seenUnique.add(key);
          }
          if (rowErrors.length === 0) inserts.push(prepared.insert);
        } else {
          rowErrors = prepared.errors;
        }
      }
      if (rowErrors.length > 0) {
        invalid++;
        for (const e of rowErrors) errors.push({ row, field: e.field, reason: e.reason });
      }
    }
    const report: ImportReport = { dryRun, total: bodies.length, valid: bodies.length - invalid, invalid, created: 0, errors };
    if (dryRun) return report;
    if (invalid > 0) {
      // All or nothing: the report travels inside the usual error shape.
      const error = new HttpError(400, `Import rejected: ${invalid} of ${bodies.length} rows are invalid; nothing was imported`, {
        i18nMessage: 'error.validation',
        inputErrors: errors.map((e) => ({ field: `${e.row}.${e.field}`, reason: e.reason })),
        details: { ...report },
      });
      throw error;
    }
    await this.database.runAll(inserts.map((insert) => insert.query));
    request.log.info({ entity: runtime.model.name, created: inserts.length }, 'import written');
    return { ...report, created: inserts.length };
  }
}

function readBoolean(raw: string | undefined, name: string): boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw badRequest(`${name} must be true or false; got "${raw}"`);
}

function readFormat(runtime: EntityRuntime, raw: string | undefined, filename: string): FileFormat {
  const extension = filename.split('.').pop()?.toLowerCase() ?? '';
  const format = raw ? (raw.toUpperCase() as FileFormat) : FORMAT_BY_EXTENSION[extension];
  if (!format) throw badRequest(`Cannot tell the import format from "${filename}"; pass format=CSV or format=JSON`);
  if (!runtime.model.import.formats.includes(format)) {
    throw badRequest(`format must be one of ${runtime.model.import.formats.join(', ')}; got "${raw ?? extension}"`);
  }
  return format;
}

function parseCsv(content: Buffer, separator: string | undefined): Record<string, string>[] {
  try {
    return parse(content, {
      bom: true,
      columns: true,
      delimiter: separator || ';',
      skip_empty_lines: true,
      relax_column_count: false,
    }) as Record<string, string>[];
  } catch (error) {
    throw badRequest(`The CSV file could not be read: ${(error as Error).message}`);
  }
}

function parseJson(content: Buffer): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(content.toString('utf8').replace(/^\ufeff/, ''));
  } catch (error) {
    throw badRequest(`The JSON file could not be read: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw badRequest('A JSON import must be one array of records');
  return value;
}
