import { parse as parseCsv } from 'csv-parse/sync';
import { HttpError, badRequest } from '../http/http-error.ts';
import { csvImportOptions, jsonImportBoundsError, tooManyRowsError } from '../entities/import-file-rows.ts';
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
    const text = Buffer.from(input.content.buffer, input.content.byteOffset, input.content.byteLength).toString('utf8').replace(/^\ufeff/, '');
    const bounds = jsonImportBoundsError(text);
    if (bounds) throw bounds;
    try {
      value = JSON.parse(text);
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
        ...csvImportOptions(input.delimiter),
        // One past the cap is enough to know the file is too long.
        to: input.maxRows + 1,
      }) as Record<string, string>[];
    } catch (error) {
      if (error instanceof HttpError) throw error;
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
