import fs from 'node:fs';
import path from 'node:path';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { FileLimits } from './file-limits.ts';
import { ConcurrencyLimit, limitKey } from './user-limiter.ts';
import type { ReleaseSlot, SlotStore } from '../db/coordination/coordination.ts';
import { privateFolder, type PrivateFolder } from './private-folders.ts';

export const EXPORTS_DIR: PrivateFolder = 'exports';
export const EXPORTS_URL_PREFIX = '/files/exports/';

/** `<entity>-<owner tag>-<128 random bits>.<csv|json>`: the tag says whose quota a file counts against. */
const EXPORT_NAME = /^([A-Za-z0-9_]+)-([0-9a-f]{16})-[0-9a-f]{32}\.(csv|json)$/;

export interface ExportTarget {
  name: string;
  file: string;
  /** Bytes the export may write before it is cut off (the user's quota left). */
  maxBytes: number;
}

export interface ExportFilesOptions {
  dataDir: string;
  /** HMAC key of the download links (derived from the token signing secret). */
  key: Buffer;
  limits: FileLimits;
  log: FastifyBaseLogger;
  /** Whether the account that exported may still download (exists and is active). */
  userMayDownload: (userId: string) => Promise<boolean>;
  /** Where the per-user export slots are counted (default: this process). */
  slots?: SlotStore;
}

/**
 * Export files: where they are written, whose they are, how they are downloaded and when they go.
 * A file is served only through a link signed for the user who exported it and valid for
 * EXPORT_LINK_TTL_SECONDS (the console downloads with a plain <a href>, which sends no bearer
 * token); files are deleted EXPORT_RETENTION_HOURS after they were written; a user holds at most
 * EXPORT_QUOTA_BYTES of them and runs at most two exports at once.
 */
export class ExportFiles {
  readonly dir: string;
  private readonly running: ConcurrencyLimit;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ExportFilesOptions) {
    this.dir = privateFolder(options.dataDir, EXPORTS_DIR);
    this.running = new ConcurrencyLimit(options.limits.concurrentPerUser, 'exports', options.slots);
  }

  get limits(): FileLimits {
    return this.options.limits;
  }

  /**
   * One of `context`'s concurrent export slots, or 429. Taken by the request for as long as its
   * export (queued as a job, perhaps written by another instance) runs.
   */
  acquireSlot(context: RequestContext): Promise<ReleaseSlot> {
    return this.running.acquire(limitKey(context));
  }

  /** A new file name for `context`'s export, once its quota allows it. */
  async reserve(entity: string, extension: 'csv' | 'json', context: RequestContext): Promise<ExportTarget> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const tag = ownerTag(context.userId);
    const used = await this.bytesOf(tag);
    const quota = this.options.limits.exportQuotaBytes;
    if (used >= quota) throw quotaError(quota);
    const name = `${entity}-${tag}-${randomBytes(16).toString('hex')}.${extension}`;
    return { name, file: path.join(this.dir, name), maxBytes: quota - used };
  }

  /** The download URL of `name` for `userId`, valid for the link lifetime from `now`. */
  signedUrl(name: string, userId: string | null, now = Date.now()): { url: string; expiresAt: string } {
    const expires = now + this.options.limits.exportLinkTtlMs;
    const user = userId ?? '';
    const query = new URLSearchParams({ expires: String(expires), user, signature: this.sign(name, expires, user) });
    return { url: `${EXPORTS_URL_PREFIX}${name}?${query}`, expiresAt: new Date(expires).toISOString() };
  }

  /**
   * The file a download link points at, or the 403 / 404 / 410 saying why not. Every check that
   * needs no disk or database comes first, in constant time for the signature.
   */
  async verify(name: string, query: Record<string, unknown>, now = Date.now()): Promise<string> {
    const match = EXPORT_NAME.exec(name);
    const { expires, user, signature } = query;
    if (!match || typeof expires !== 'string' || typeof user !== 'string' || typeof signature !== 'string' || !/^\d{1,15}$/.test(expires)) {
      throw invalidLink();
    }
    const expected = Buffer.from(this.sign(name, Number(expires), user));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidLink();
    // The signature already covers the user; the tag in the name is checked as well so a link can
    // never be re-signed onto someone else's file by a bug elsewhere.
    if (match[2] !== ownerTag(user === '' ? null : user)) throw invalidLink();
    if (Number(expires) <= now) {
      throw new HttpError(410, 'This download link has expired; export again', { i18nMessage: 'error.exportLinkExpired' });
    }
    if (user !== '' && !(await this.options.userMayDownload(user))) throw invalidLink();
    const file = path.join(this.dir, name);
    const stat = await fs.promises.lstat(file).catch(() => null);
    if (!stat?.isFile()) {
      throw new HttpError(410, 'This export file is no longer kept; export again', { i18nMessage: 'error.exportGone' });
    }
    return file;
  }

  /** Deletes export files older than the retention period; answers how many went. */
  async sweep(now = Date.now()): Promise<number> {
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      const stat = await fs.promises.lstat(file).catch(() => null);
      if (!stat || stat.isDirectory()) continue;
      if (now - stat.mtimeMs < this.options.limits.exportRetentionMs) continue;
      await fs.promises.rm(file, { force: true });
      removed++;
    }
    if (removed > 0) this.options.log.info({ removed }, 'expired export files deleted');
    return removed;
  }

  /** Sweeps now and then every sweep interval, until `stop`. The timer never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    const run = () => void this.sweep().catch((error) => this.options.log.warn({ err: error }, 'export sweep failed'));
    run();
    this.timer = setInterval(run, this.options.limits.sweepIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async bytesOf(tag: string): Promise<number> {
    const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
    let total = 0;
    for (const name of names) {
      if (EXPORT_NAME.exec(name)?.[2] !== tag) continue;
      total += (await fs.promises.lstat(path.join(this.dir, name)).catch(() => null))?.size ?? 0;
    }
    return total;
  }

  private sign(name: string, expires: number, user: string): string {
    return createHmac('sha256', this.options.key).update(`${name}\n${expires}\n${user}`).digest('base64url');
  }
}

/** The file name a downloaded export is saved under: entity and date, never the random part. */
export function downloadName(name: string, written: Date): string {
  const match = EXPORT_NAME.exec(name);
  const stamp = written.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return match ? `${match[1]}-${stamp}.${match[3]}` : `export-${stamp}`;
}

export function exportQuotaError(quota: number): HttpError {
  return quotaError(quota);
}

function quotaError(quota: number): HttpError {
  return new HttpError(413, `Export quota reached: a user may keep at most ${quota} bytes of export files (they are deleted after the retention period)`, {
    i18nMessage: 'error.exportQuota',
  });
}

function invalidLink(): HttpError {
  return new HttpError(403, 'This download link is not valid', { i18nMessage: 'error.exportLinkInvalid' });
}

function ownerTag(userId: string | null): string {
  return createHash('sha256').update(`forja-export-owner\n${userId ?? ''}`).digest('hex').slice(0, 16);
}

/** The links' key, kept apart from the token signing key it is derived from. */
export function exportLinkKey(signingSecret: string): Buffer {
  return createHmac('sha256', signingSecret).update('forja:export-links:v1').digest();
}
