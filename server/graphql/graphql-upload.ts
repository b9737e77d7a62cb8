import type { IncomingFile } from '../files/file-routes.ts';
import { fileTooLarge, type UploadedContent } from '../files/read-uploaded-file.ts';

/** A GraphQL `Upload` as graphql-upload-minimal resolves it (multipart request spec). */
export interface GraphqlUpload {
  filename: string;
  mimetype: string;
  createReadStream(): NodeJS.ReadableStream & { truncated?: boolean };
}

/**
 * The upload as the file uploader reads it (server/files/file-routes.ts), like a REST multipart
 * part. A file already past MAX_UPLOAD_BYTES (mercurius-upload's maxFileSize) makes
 * createReadStream throw the library's 413: it becomes REST's 413.
 */
export async function openUpload(upload: Promise<GraphqlUpload> | GraphqlUpload): Promise<IncomingFile> {
  const file = await upload;
  try {
    return { filename: file.filename, mimetype: file.mimetype, stream: file.createReadStream() };
  } catch (error) {
    throw asUploadError(error);
  }
}

/**
 * The upload read into memory (the avatar, as REST's readUploadedFile does), refusing a file over
 * MAX_UPLOAD_BYTES with REST's 413: busboy stops at the limit and marks the stream truncated,
 * so a cut file is never taken for a whole one.
 */
export async function readUpload(upload: Promise<GraphqlUpload> | GraphqlUpload, maxBytes: number): Promise<UploadedContent> {
  const { filename, mimetype, stream } = await openUpload(upload);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw fileTooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw asUploadError(error);
  }
  if (stream.truncated) throw fileTooLarge();
  return { filename, mimetype, content: Buffer.concat(chunks) };
}

function asUploadError(error: unknown): unknown {
  return (error as { statusCode?: unknown })?.statusCode === 413 ? fileTooLarge() : error;
}
