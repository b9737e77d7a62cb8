import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.ts';

export interface UploadedContent {
  filename: string;
  mimetype: string;
  content: Buffer;
}

/**
 * The multipart field `file` of a request, read into memory (imports parse it whole; the size
 * limit of @fastify/multipart bounds it). Not multipart -> 415; no `file` field -> 400.
 */
export async function readUploadedFile(request: FastifyRequest): Promise<UploadedContent> {
  if (!request.isMultipart()) throw new HttpError(415, 'Expected a multipart/form-data body with a "file" field');
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw new HttpError(400, 'The multipart body has no "file" field');
    // toBuffer throws the plugin's 413 error when the file exceeds the configured limit.
    const content = await part.toBuffer();
    return { filename: part.filename, mimetype: part.mimetype, content };
  } catch (error) {
    throw asMultipartError(error);
  }
}

/**
 * A file over MAX_UPLOAD_BYTES, the same 413 for every upload: REST multipart (the plugin's
 * limit) and GraphQL Upload (graphql-upload.ts), for files, avatars and imports.
 */
export function fileTooLarge(): HttpError {
  return new HttpError(413, 'The file is larger than the upload limit (MAX_UPLOAD_BYTES)', { i18nMessage: 'error.fileTooLarge' });
}

/**
 * busboy's parse errors ("Unexpected end of multipart data", "Malformed part header"...) carry
 * no status and were answered 500 (tests/fuzz): they are the client's malformed body, a 400.
 */
export function asMultipartError(error: unknown): unknown {
  if ((error as { code?: unknown })?.code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge();
  if (error instanceof HttpError || typeof (error as { statusCode?: unknown })?.statusCode === 'number') return error;
  const message = (error as Error)?.message ?? '';
  if (/multipart|part header|boundary/i.test(message)) return new HttpError(400, `Malformed multipart body: ${message}`);
  return error;
}
