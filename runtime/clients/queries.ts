import type { FileFormat, FilterOperator, SortOrder } from '../model/client-entity-model.ts';
import type { ExportFile as WireExportFile } from '../../contract/exports/export-file.ts';
import type { ImportReport, ImportRowError } from '../../contract/imports/import-report.ts';

/** One filter as the UI holds it; transports serialise it (REST: field;operator;value joined by |). */
export interface FilterInput {
  field: string;
  operator: FilterOperator;
  value: unknown;
}

/** Cancellation rides along with every call so a component can abort on unmount. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface FindQuery extends CallOptions {
  limit?: number;
  orderBy?: string;
  order?: SortOrder;
  search?: string;
  filters?: FilterInput[];
}

export interface ListQuery extends FindQuery {
  page?: number;
}

export interface ExportQuery extends FindQuery {
  format?: FileFormat;
  headers?: string[];
  separator?: string;
  /** CSV for people: header labels and values in this language (es, en); absent, field names and stored values. */
  locale?: string;
}

export interface ImportQuery extends CallOptions {
  file: Blob;
  format: FileFormat;
  dryRun?: boolean;
}

export interface Paginated<T> {
  items: T[];
  total: number;
  page?: number;
  limit?: number;
}

/**
 * An export's answer (contract/exports/export-file.ts); `expiresAt` is absent when the transport
 * does not ask for it (GraphQL selections).
 */
export type ExportFile = Omit<WireExportFile, 'expiresAt'> & Partial<Pick<WireExportFile, 'expiresAt'>>;

export type { ImportReport, ImportRowError };
