/**
 * Limits on what one user can make the server store or parse (export files, uploads, imports),
 * read once from the environment at start-up. Documented in README.md (Configuration).
 *
 * | Variable                  | Default              | Meaning                                                   |
 * |---------------------------|----------------------|-----------------------------------------------------------|
 * | EXPORT_RETENTION_HOURS    | 24                   | export files older than this are deleted (swept hourly)   |
 * | EXPORT_LINK_TTL_SECONDS   | 900 (15 min)         | lifetime of a signed export download link                 |
 * | EXPORT_QUOTA_BYTES        | 2147483648 (2 GiB)   | export files one user may hold on disk at once            |
 * | UPLOAD_QUOTA_BYTES        | 1073741824 (1 GiB)   | bytes one user may upload per rolling 24 hours            |
 * | IMPORT_MAX_ROWS           | 50000                | rows in one import file (413 above)                       |
 * | SLOT_LEASE_SECONDS        | 60                   | PostgreSQL: a concurrency slot of an instance that died   |
 * |                           |                      | stops counting this long after its last renewal           |
 */
export interface FileLimits {
  exportRetentionMs: number;
  exportLinkTtlMs: number;
  exportQuotaBytes: number;
  uploadQuotaBytes: number;
  importMaxRows: number;
  /** How often the export sweep runs. */
  sweepIntervalMs: number;
  /** Exports, imports and uploads one user may run at the same time (across instances on PostgreSQL). */
  concurrentPerUser: number;
  /** Lifetime of a concurrency slot's lease on PostgreSQL, renewed every third of it while held. */
  slotLeaseMs: number;
}

export const DEFAULT_FILE_LIMITS: FileLimits = {
  exportRetentionMs: 24 * 3600_000,
  exportLinkTtlMs: 900_000,
  exportQuotaBytes: 2 * 1024 ** 3,
  uploadQuotaBytes: 1024 ** 3,
  importMaxRows: 50_000,
  sweepIntervalMs: 3600_000,
  concurrentPerUser: 2,
  slotLeaseMs: 60_000,
};

export function loadFileLimits(env: NodeJS.ProcessEnv): FileLimits {
  const hours = readNumber(env, 'EXPORT_RETENTION_HOURS');
  const ttl = readNumber(env, 'EXPORT_LINK_TTL_SECONDS');
  const retention = hours === null ? DEFAULT_FILE_LIMITS.exportRetentionMs : hours * 3600_000;
  return {
    ...DEFAULT_FILE_LIMITS,
    exportRetentionMs: retention,
    exportLinkTtlMs: ttl === null ? DEFAULT_FILE_LIMITS.exportLinkTtlMs : ttl * 1000,
    exportQuotaBytes: readNumber(env, 'EXPORT_QUOTA_BYTES') ?? DEFAULT_FILE_LIMITS.exportQuotaBytes,
    uploadQuotaBytes: readNumber(env, 'UPLOAD_QUOTA_BYTES') ?? DEFAULT_FILE_LIMITS.uploadQuotaBytes,
    importMaxRows: readNumber(env, 'IMPORT_MAX_ROWS') ?? DEFAULT_FILE_LIMITS.importMaxRows,
    slotLeaseMs: (readNumber(env, 'SLOT_LEASE_SECONDS') ?? DEFAULT_FILE_LIMITS.slotLeaseMs / 1000) * 1000,
    // A short retention (tests, small disks) is swept at least as often as it expires.
    sweepIntervalMs: Math.max(1000, Math.min(DEFAULT_FILE_LIMITS.sweepIntervalMs, retention / 2)),
  };
}

function readNumber(env: NodeJS.ProcessEnv, name: string): number | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; got ${JSON.stringify(raw)}`);
  return value;
}
