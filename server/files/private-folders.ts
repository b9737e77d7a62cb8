import path from 'node:path';

/**
 * The one list of DATA_DIR folders the server writes for itself. None is ever served by
 * GET /files/*, read by path (POST /api/rag/parse-file, training), or written by uploads
 * (POST /api/file/:dir, GraphQL uploadFile): resolve-inside.ts and file-routes.ts read this list.
 * A new server-owned folder is added here and opened through privateFolder(), which refuses a
 * name missing from the list, so it is private from its first line (tests/unit/private-folders.test.ts
 * fails on a `path.join(dataDir, '<folder>')` written anywhere else).
 */
export const PRIVATE_FOLDERS = {
  /** The generated JWT signing key and API-key pepper (server/identity/secret-store.ts). */
  secrets: 'signing keys: serving them let anyone forge an administrator token',
  /** Other users' export files: downloaded only through signed links (export-download-route.ts). */
  exports: 'other users\' export files, served only through signed links',
  /** Import files waiting for their job (server/files/file-jobs.ts). */
  'job-uploads': 'other users\' pending import files',
  /** Mails written without SMTP (server/identity/mailer.ts): password-recovery codes. */
  outbox: 'mails holding password-recovery and verification codes',
} as const;

export type PrivateFolder = keyof typeof PRIVATE_FOLDERS;

/** The absolute path of a private folder; an undeclared name is a programming error, refused loudly. */
export function privateFolder(dataDir: string, name: PrivateFolder): string {
  if (!Object.hasOwn(PRIVATE_FOLDERS, name)) {
    throw new Error(`"${name}" is not a private DATA_DIR folder: declare it in PRIVATE_FOLDERS (server/files/private-folders.ts) before writing there`);
  }
  return path.join(dataDir, name);
}

/**
 * Whether a first path segment names a private folder, whatever its case (a case-insensitive
 * disk serves `Outbox` from `outbox`) and with the trailing dots or spaces Windows drops.
 */
export function isPrivateFolder(segment: string): boolean {
  return Object.hasOwn(PRIVATE_FOLDERS, segment.toLowerCase().replace(/[. ]+$/, ''));
}
