import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, badRequest, notFound } from '../http/http-error.ts';
import type { DefineOperation, Operation } from '../operations/define-operation.ts';
import { callerOf } from '../operations/operation-caller.ts';
import { asMultipartError, fileTooLarge } from './read-uploaded-file.ts';
import type { UploadLimits } from './file-services.ts';
import { limitKey } from './user-limiter.ts';
import { DIR_NAME, isReservedDir, resolveInside } from './resolve-inside.ts';
import { sanitiseFilename, storedFileName } from './stored-file-name.ts';

export interface UploadedFile {
  /** The client's name, sanitised. */
  filename: string;
  /** Relative to DATA_DIR, with forward slashes. */
  filepath: string;
  size: number;
  mimetype: string;
  url: string;
}

export const FILES_URL_PREFIX = '/files/';

/** A file arriving: its client name and type, and its content as the transport streams it. */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  /** busboy's file stream (REST multipart, GraphQL Upload): `truncated` once past the size limit. */
  stream: NodeJS.ReadableStream & { truncated?: boolean };
}

/** What an upload takes: the folder, and how to open the file (called only once everything is checked). */
export interface UploadInput {
  dir: string;
  open: () => Promise<IncomingFile>;
}

/**
 * Stores one upload for a caller under DATA_DIR/<dir>/<yyyy>/<mm>/ with a generated name. `open`
 * is called only after the caller, the directory and the caller's limits are checked, so a
 * refused upload reads nothing.
 */
export type FileUploader = Operation<UploadInput, UploadedFile>;

/**
 * The upload operation of POST /api/file[/:dir] and GraphQL `uploadFile`: any signed-in caller
 * (every entity form with a file field uploads first, so no single entity permission fits; the
 * server's disk is never written for an anonymous one), the directory name checked, and with `limits` a user runs a few uploads at once and writes at most
 * UPLOAD_QUOTA_BYTES a day (server/files/file-limits.ts); a file over MAX_UPLOAD_BYTES is a 413
 * and leaves nothing behind.
 */
export function createFileUploader(define: DefineOperation, dataDir: string, limits?: UploadLimits): FileUploader {
  const store = async (dir: string, file: IncomingFile): Promise<UploadedFile> => {
    const now = new Date();
    const relativeDir = [dir, String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0')];
    const name = storedFileName(file.filename);
    const absoluteDir = path.join(dataDir, ...relativeDir);
    await fs.promises.mkdir(absoluteDir, { recursive: true });
    const target = path.join(absoluteDir, name);
    try {
      await pipeline(file.stream, fs.createWriteStream(target, { flags: 'wx' }));
      if (file.stream.truncated) throw fileTooLarge();
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      throw asMultipartError(error);
    }
    const { size } = await fs.promises.stat(target);
    const filepath = [...relativeDir, name].join('/');
    return {
      filename: sanitiseFilename(file.filename),
      filepath,
      size,
      mimetype: file.mimetype,
      url: FILES_URL_PREFIX + filepath,
    };
  };
  return define<UploadInput, UploadedFile>('signedIn', async ({ context }, { dir, open }) => {
    if (!DIR_NAME.test(dir)) throw badRequest(`dir must match ${DIR_NAME.source}; got "${dir}"`);
    if (isReservedDir(dir)) throw badRequest(`dir "${dir}" is reserved for the server`);
    if (!limits) return store(dir, await open());
    const key = limitKey(context);
    await limits.budget.check(key);
    const release = await limits.running.acquire(key);
    try {
      const stored = await store(dir, await open());
      await limits.budget.add(key, stored.size);
      return stored;
    } finally {
      release();
    }
  });
}

/**
 * Uploads (POST /api/file/:dir, default dir "files", multipart field `file`; createFileUploader)
 * and GET /files/* serving them back, never outside DATA_DIR (exports have their own signed route).
 */
export function registerFileRoutes(app: FastifyInstance, dataDir: string, uploadFile: FileUploader): void {
  const upload = async (request: FastifyRequest, dir: string): Promise<UploadedFile> =>
    uploadFile(callerOf(request), { dir, open: async () => {
      if (!request.isMultipart()) throw new HttpError(415, 'Expected a multipart/form-data body with a "file" field');
      const part = await request.file().catch((error: unknown) => {
        throw asMultipartError(error);
      });
      if (!part || part.fieldname !== 'file') throw badRequest('The multipart body has no "file" field');
      return { filename: part.filename, mimetype: part.mimetype, stream: part.file };
    } });

  app.post('/api/file', { config: { operation: uploadFile } }, async (request, reply) => {
    reply.status(201);
    return upload(request, 'files');
  });
  app.post<{ Params: { dir: string } }>('/api/file/:dir', { config: { operation: uploadFile } }, async (request, reply) => {
    reply.status(201);
    return upload(request, request.params.dir);
  });

  app.get<{ Params: { '*': string } }>(`${FILES_URL_PREFIX}*`, async (request, reply) => {
    const file = await resolveInside(dataDir, request.params['*']);
    if (!file) throw notFound('File not found');
    // Uploaded content is the user's: never let a browser run it as a page of this origin.
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Content-Security-Policy', "default-src 'none'; sandbox");
    return reply.sendFile(path.relative(fs.realpathSync(dataDir), file), fs.realpathSync(dataDir));
  });
}
