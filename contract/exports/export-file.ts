/**
 * What GET {base}/export answers (server/entities/entity-exporter.ts), read by the console's
 * export panel (runtime/export). Shared by server/ and the console: contract/ imports from neither.
 */
export interface ExportFile {
  /** A download link signed for the exporting user (server/files/export-files.ts). */
  url: string;
  /** When `url` stops working, ISO-8601 (the file itself is kept for the retention period). */
  expiresAt: string;
  rowCount: number;
  /** Duration in milliseconds. */
  time: number;
}
