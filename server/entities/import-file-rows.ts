import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { HttpError, badRequest } from '../http/http-error.ts';
import { yieldToEventLoop } from './event-loop-yield.ts';

/** Bytes handed to the CSV parser per step: a slice of work well under 10 ms. */
const CSV_CHUNK_BYTES = 64 * 1024;
/** Separators recognised when the request names none: the console exports `;`, most tools `,`. */
const DETECTED_SEPARATORS = [';', ',', '\t'];

export function tooManyRowsError(max: number): HttpError {
  return new HttpError(413, `The import file has more than ${max} rows; split it into smaller files (IMPORT_MAX_ROWS)`, {
    i18nMessage: 'error.importTooManyRows',
  });
}

/**
 * The records of a CSV import (header row gives the names), parsed in chunks that yield to the
 * event loop, so a 25 MB file never holds other requests for more than a few milliseconds.
 * Stops with a 413 past `maxRows`. The separator is the one asked for, or detected from the
 * header line (`;`, `,` or tab, whichever occurs most outside quotes).
 */
export async function readCsvRows(content: Buffer, separator: string | undefined, maxRows: number): Promise<Record<string, string>[]> {
  const delimiter = separator || detectSeparator(content);
  if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter)) {
    throw badRequest(`separator must be a single character other than a quote or line break; got "${delimiter}"`);
  }
  async function* chunks() {
    for (let start = 0; start < content.length; start += CSV_CHUNK_BYTES) {
      yield content.subarray(start, start + CSV_CHUNK_BYTES);
      await yieldToEventLoop();
    }
  }
  const parser = Readable.from(chunks()).pipe(
    parse({ bom: true, columns: true, delimiter, skip_empty_lines: true, relax_column_count: false }),
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
 * The records of a JSON import: one array. JSON.parse itself cannot be sliced; at the upload
 * limit (25 MB) it takes a few hundred milliseconds at most, and the row cap is checked on the
 * array before any row is looked at.
 */
export async function readJsonRows(content: Buffer, maxRows: number): Promise<unknown[]> {
  let value: unknown;
  try {
    value = JSON.parse(content.toString('utf8').replace(/^\ufeff/, ''));
  } catch (error) {
    throw badRequest(`The JSON file could not be read: ${(error as Error).message}`);
  }
  if (!Array.isArray(value)) throw badRequest('A JSON import must be one array of records');
  if (value.length > maxRows) throw tooManyRowsError(maxRows);
  await yieldToEventLoop();
  return value;
}
