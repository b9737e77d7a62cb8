import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { HttpError, badRequest } from '../http/http-error.ts';
import { jsonBoundsProblem, type JsonBounds } from '../http/bounded-json.ts';
import { CpuTaskError, cpuPool, serverBusyError } from '../workers/run-cpu-task.ts';
import type { RowSlices } from '../workers/cpu-task-handlers.ts';
import { sliceTimer, yieldToEventLoop } from './event-loop-yield.ts';

/** Bytes handed to the CSV parser per step: a slice of work well under 10 ms. */
const CSV_CHUNK_BYTES = 64 * 1024;
/**
 * Files larger than this are parsed in the worker pool (server/workers): csv-parse and JSON.parse
 * then cost the event loop nothing, and the rows come back as JSON slices parsed one at a time.
 * Smaller ones are parsed here, which is quicker than the trip.
 */
export const WORKER_PARSE_BYTES = 256 * 1024;
/** Rows per slice sent back by the worker: one JSON.parse of a few milliseconds each. */
const ROWS_PER_SLICE = 1000;
/** Separators recognised when the request names none: the console exports `;`, most tools `,`. */
const DETECTED_SEPARATORS = [';', ',', '\t'];

/** Columns of an import file's header: an entity has a few dozen fields; a 20,000-column header stalled the parser. */
export const IMPORT_MAX_COLUMNS = 500;
/** Characters of one cell (CSV) or string (JSON): a single 24 MB cell held the event loop 0.5-1 s. */
export const IMPORT_MAX_CELL_CHARS = 1024 * 1024;
/** The shape limits of a JSON import file (jsonBoundsProblem): records of at most IMPORT_MAX_COLUMNS fields. */
export const JSON_IMPORT_BOUNDS: JsonBounds = { maxDepth: 32, maxObjectMembers: IMPORT_MAX_COLUMNS, maxValues: Number.MAX_SAFE_INTEGER, maxStringChars: IMPORT_MAX_CELL_CHARS };

/** csv-parse's options for an import, the same on the main thread and in the worker. */
export function csvImportOptions(delimiter: string) {
  return {
    bom: true,
    delimiter,
    skip_empty_lines: true,
    relax_column_count: false,
    // Per field: csv-parse refuses a field (or line) buffer past this many characters.
    max_record_size: IMPORT_MAX_CELL_CHARS,
    columns: (header: string[]) => {
      if (header.length > IMPORT_MAX_COLUMNS) throw badRequest(`The CSV header has ${header.length} columns; at most ${IMPORT_MAX_COLUMNS} are allowed`);
      return header;
    },
  };
}

/** The 400/413 for a JSON import file out of JSON_IMPORT_BOUNDS, or null. */
export function jsonImportBoundsError(text: string): HttpError | null {
  const problem = jsonBoundsProblem(text, JSON_IMPORT_BOUNDS);
  return problem ? new HttpError(problem.status, `The JSON file could not be read: ${problem.message}`) : null;
}

export function tooManyRowsError(max: number): HttpError {
  return new HttpError(413, `The import file has more than ${max} rows; split it into smaller files (IMPORT_MAX_ROWS)`, {
    i18nMessage: 'error.importTooManyRows',
  });
}

/**
 * The records of a CSV import (header row gives the names): a file over WORKER_PARSE_BYTES is
 * parsed in the worker pool, a smaller one here in chunks that yield to the event loop, so other
 * requests are never held for more than a few milliseconds.
 * Stops with a 413 past `maxRows`. The separator is the one asked for, or detected from the
 * header line (`;`, `,` or tab, whichever occurs most outside quotes).
 */
export async function readCsvRows(content: Buffer, separator: string | undefined, maxRows: number): Promise<Record<string, string>[]> {
  const delimiter = separator || detectSeparator(content);
  if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter)) {
    throw badRequest(`separator must be a single character other than a quote or line break; got "${delimiter}"`);
  }
  checkHeaderWidth(content, delimiter);
  if (content.length > WORKER_PARSE_BYTES) {
    return rowsFromWorker('CSV', () => cpuPool().run('csvRows', { content, delimiter, maxRows, rowsPerSlice: ROWS_PER_SLICE })) as Promise<Record<string, string>[]>;
  }
  async function* chunks() {
    for (let start = 0; start < content.length; start += CSV_CHUNK_BYTES) {
      yield content.subarray(start, start + CSV_CHUNK_BYTES);
      await yieldToEventLoop();
    }
  }
  const parser = Readable.from(chunks()).pipe(
    parse(csvImportOptions(delimiter)),
  );
  const rows: Record<string, string>[] = [];
  try {
    for await (const record of parser) {
      rows.push(record as Record<string, string>);
      if (rows.length > maxRows) throw tooManyRowsError(maxRows);
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof HttpError) throw error;
    throw badRequest(`The CSV file could not be read: ${(error as Error).message}`);
  }
  return rows;
}

/**
 * Refuses a header of more than IMPORT_MAX_COLUMNS columns by counting separators outside quotes
 * on its first line, before csv-parse sees it: csv-parse took close to a second of the event loop
 * over one 20,000-column line, all of it in a single chunk.
 */
function checkHeaderWidth(content: Buffer, delimiter: string): void {
  const separator = delimiter.charCodeAt(0);
  let columns = 1;
  let quoted = false;
  for (let i = 0; i < content.length; i++) {
    const byte = content[i];
    if (byte === 0x22) quoted = !quoted;
    else if (!quoted && (byte === 0x0a || byte === 0x0d)) break;
    else if (!quoted && byte === separator && ++columns > IMPORT_MAX_COLUMNS) {
      throw badRequest(`The CSV header has more than ${IMPORT_MAX_COLUMNS} columns; at most ${IMPORT_MAX_COLUMNS} are allowed`);
    }
  }
}

/** The separator of a CSV file from its header line (field names, so quotes are rare there). */
export function detectSeparator(content: Buffer): string {
  const head = content.subarray(0, 64 * 1024).toString('utf8');
  const counts = new Map(DETECTED_SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const char of head) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ';';
  for (const [candidate, count] of counts) if (count > counts.get(best)!) best = candidate;
  return best;
}

/**
 * The records of a JSON import: one array, the row cap checked on the array before any row is
 * looked at. JSON.parse itself cannot be sliced, so a file over WORKER_PARSE_BYTES is parsed in
 * the worker pool (it held the event loop a few hundred milliseconds at the upload limit).
 */
export async function readJsonRows(content: Buffer, maxRows: number): Promise<unknown[]> {
  if (content.length > WORKER_PARSE_BYTES) {
    return rowsFromWorker('JSON', () => cpuPool().run('jsonRows', { content, maxRows, rowsPerSlice: ROWS_PER_SLICE }));
  }
  let value: unknown;
  const text = content.toString('utf8').replace(/^\ufeff/, '');
  const bounds = jsonImportBoundsError(text);
  if (bounds) throw bounds;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The JSON file could not be read: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw badRequest('A JSON import must be one array of records');
  if (value.length > maxRows) throw tooManyRowsError(maxRows);
  await yieldToEventLoop();
  return value;
}

/**
 * The rows a worker parsed (csvRows / jsonRows in server/workers/cpu-task-handlers.ts), rebuilt
 * from their JSON slices with the event loop running in between. The worker's refusals (a bad
 * file, too many rows) are the same errors as when parsing here; a worker that could not finish
 * says so in the same words.
 */
async function rowsFromWorker(format: 'CSV' | 'JSON', parse: () => Promise<RowSlices>): Promise<unknown[]> {
  let parsed: RowSlices;
  try {
    parsed = await parse();
  } catch (error) {
    if (!(error instanceof CpuTaskError)) throw error;
    if (error.reason === 'busy') throw serverBusyError(error);
    if (error.reason === 'outOfMemory') {
      throw new HttpError(413, `The ${format} file ${error.message} to read; split it into smaller files`, { i18nMessage: 'error.importTooManyRows' });
    }
    throw badRequest(`The ${format} file could not be read: ${error.message}`);
  }
  const rows: unknown[] = [];
  const timer = sliceTimer();
  for (const slice of parsed.slices) {
    for (const row of JSON.parse(slice) as unknown[]) rows.push(row);
    if (timer.due()) await yieldToEventLoop();
  }
  return rows;
}
