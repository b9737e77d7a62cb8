/**
 * What POST {base}/import answers (server/entities/entity-importer.ts), shown by the console's
 * import dialog (runtime/import). Shared by server/ and the console: contract/ imports from neither.
 */
export interface ImportReport {
  dryRun: boolean;
  total: number;
  valid: number;
  invalid: number;
  created: number;
  errors: ImportRowError[];
}

/** One refused cell of an import file. */
export interface ImportRowError {
  /** 1-based data row (CSV: the line after the header is row 1; JSON: the array index + 1). */
  row: number;
  /** The column (field) at fault; `list.index` for one entry of a list. */
  field: string;
  /** A locale key. */
  reason: string;
  /** Values the reason's text interpolates ({{min}}, {{max}}, {{value}}, {{count}}). */
  params?: Record<string, string | number>;
}
