import type { FileFormat, FilterOperator, SortOrder } from '../model/client-entity-model.ts';

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

export interface ExportFile {
  /** A download link signed for the exporting user; it stops working at `expiresAt`. */
  url: string;
  rowCount: number;
  time: number;
  /** ISO time; absent when the transport does not ask for it (GraphQL selections). */
  expiresAt?: string;
}

export interface ImportRowError {
  row: number;
  field: string;
  /** A locale key. */
  reason: string;
  /** Values its text interpolates ({{min}}, {{max}}, {{value}}, {{count}}). */
  params?: Record<string, string | number>;
}

export interface ImportReport {
  dryRun: boolean;
  total: number;
  valid: number;
  invalid: number;
  created: number;
  errors: ImportRowError[];
}
