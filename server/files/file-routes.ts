import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, badRequest, notFound } from '../http/http-error.ts';
import { asMultipartError } from './read-uploaded-file.ts';
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

/**
 * Uploads (POST /api/file/:dir, default dir "files") stored under DATA_DIR/<dir>/<yyyy>/<mm>/
 * with a generated name, and GET /files/* serving them back, never outside DATA_DIR (exports have
 * their own signed route). With `limits`, a user runs a few uploads at once and writes at most
 * UPLOAD_QUOTA_BYTES a day (server/files/file-limits.ts).
 */
export function registerFileRoutes(app: FastifyInstance, dataDir: string, limits?: UploadLimits): void {
  const upload = async (request: FastifyRequest, dir: string): Promise<UploadedFile> => {
    if (!DIR_NAME.test(dir)) throw badRequest(`dir must match ${DIR_NAME.source}; got "${dir}"`);
    if (isReservedDir(dir)) throw badRequest(`dir "${dir}" is reserved for the server`);
    if (!request.isMultipart()) throw new HttpError(415, 'Expected a multipart/form-data body with a "file" field');
    if (!limits) return store(request, dir);
    const key = limitKey(request.context);
    limits.budget.check(key);
    const release = await limits.running.acquire(key);
    try {
      const stored = await store(request, dir);
      limits.budget.add(key, stored.size);
      return stored;
    } finally {
      release();
    }
  };
  const store = async (request: FastifyRequest, dir: string): Promise<UploadedFile> => {
    const part = await request.file().catch((error: unknown) => {
      throw asMultipartError(error);
    });
    if (!part || part.fieldname !== 'file') throw badRequest('The multipart body has no "file" field');
    const now = new Date();
    const relativeDir = [dir, String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0')];
    const name = storedFileName(part.filename);
    const absoluteDir = path.join(dataDir, ...relativeDir);
    await fs.promises.mkdir(absoluteDir, { recursive: true });
    const target = path.join(absoluteDir, name);
    try {
      await pipeline(part.file, fs.createWriteStream(target, { flags: 'wx' }));
      if (part.file.truncated) throw new HttpError(413, 'The file is larger than the upload limit');
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      throw asMultipartError(error);
    }
    const { size } = await fs.promises.stat(target);
    const filepath = [...relativeDir, name].join('/');
    return {
      filename: sanitiseFilename(part.filename),
      filepath,
      size,
      mimetype: part.mimetype,
      url: FILES_URL_PREFIX + filepath,
    };
  };

  app.post('/api/file', async (request, reply) => {
    reply.status(201);
    return upload(request, 'files');
  });
  app.post<{ Params: { dir: string } }>('/api/file/:dir', async (request, reply) => {
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
