import { parse as parseCsv } from 'csv-parse/sync';
import { badRequest } from '../http/http-error.ts';
import { tooManyRowsError } from '../entities/import-file-rows.ts';
import { chunkText } from '../rag/chunk/chunk-text.ts';
import { markupToText, type MarkupType } from '../rag/parse/markup-to-text.ts';
import type { Chunk } from '../rag/rag-types.ts';

/**
 * Rows of an import file, parsed in a worker and sent back as JSON texts of `rowsPerSlice` rows
 * each: a string crosses threads as one copy, where a structured clone of 100,000 row objects
 * would be rebuilt on the main thread in one go. The main thread parses one slice at a time,
 * yielding between them (server/entities/import-file-rows.ts).
 */
export interface RowSlices {
  total: number;
  slices: string[];
}

/**
 * The CPU-heavy work the worker pool runs (server/workers/run-cpu-task.ts): pure functions of
 * their input, no database, no server state. Each throws the same RagError or HttpError the main
 * thread threw before the work moved here; the worker entry carries it back (cpu-worker.ts).
 */
export const cpuTaskHandlers = {
  markup(input: { type: MarkupType; bytes: Uint8Array; charset?: string }): string {
    return markupToText(input.type, input.bytes, input.charset);
  },

  chunk(input: { text: string; chunkSize?: number; chunkOverlap?: number }): Chunk[] {
    return chunkText(input.text, { chunkSize: input.chunkSize, chunkOverlap: input.chunkOverlap });
  },

  jsonRows(input: { content: Uint8Array; maxRows: number; rowsPerSlice: number }): RowSlices {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(input.content.buffer, input.content.byteOffset, input.content.byteLength).toString('utf8').replace(/^\ufeff/, ''));
    } catch (error) {
      throw badRequest(`The JSON file could not be read: ${(error as Error).message}`);
    }
    if (!Array.isArray(value)) throw badRequest('A JSON import must be one array of records');
    if (value.length > input.maxRows) throw tooManyRowsError(input.maxRows);
    return { total: value.length, slices: slicesOf(value, input.rowsPerSlice) };
  },

  csvRows(input: { content: Uint8Array; delimiter: string; maxRows: number; rowsPerSlice: number }): RowSlices {
    let rows: Record<string, string>[];
    try {
      rows = parseCsv(Buffer.from(input.content.buffer, input.content.byteOffset, input.content.byteLength), {
        bom: true,
        columns: true,
        delimiter: input.delimiter,
        skip_empty_lines: true,
        relax_column_count: false,
        // One past the cap is enough to know the file is too long.
        to: input.maxRows + 1,
      }) as Record<string, string>[];
    } catch (error) {
      throw badRequest(`The CSV file could not be read: ${(error as Error).message}`);
    }
    if (rows.length > input.maxRows) throw tooManyRowsError(input.maxRows);
    return { total: rows.length, slices: slicesOf(rows, input.rowsPerSlice) };
  },
};

export type CpuTaskHandlers = typeof cpuTaskHandlers;
export type CpuTaskName = keyof CpuTaskHandlers;
export type CpuTaskInput<N extends CpuTaskName> = Parameters<CpuTaskHandlers[N]>[0];
export type CpuTaskOutput<N extends CpuTaskName> = ReturnType<CpuTaskHandlers[N]>;

function slicesOf(rows: unknown[], size: number): string[] {
  const slices: string[] = [];
  for (let start = 0; start < rows.length; start += size) slices.push(JSON.stringify(rows.slice(start, start + size)));
  return slices;
}
