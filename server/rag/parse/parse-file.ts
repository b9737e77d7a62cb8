import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { RagError } from '../rag-error.ts';
import { detectFileType, fromHints, type FileType } from './detect-file-type.ts';
import { fileParsers } from './file-parsers.ts';

/**
 * Largest HTML or Markdown document read (parse-file, parse-url, training). Their parsers
 * (cheerio, marked) take close to 1 s per MB of dense HTML (tests/bench/limits.bench.ts); past
 * 16 KB they run in the worker pool (file-parsers.ts), so the bound is the worker's time and heap,
 * not the event loop: 8 MB is some 8 s of one worker and far above any real page (it was 512 KB
 * while they ran on the main thread). Plain text, DOCX and PDF have no such cap (plain text is
 * tidied in yielding slices; DOCX and PDF are read in worker threads of their own).
 */
export const MAX_MARKUP_BYTES = 8 * 1024 * 1024;

/** Same as the server's default upload limit (MAX_UPLOAD_BYTES). */
export const DEFAULT_MAX_FILE_BYTES = 25 * 1024 * 1024;

export interface ParsedDocument {
  content: string;
  type: FileType;
}

/**
 * Plain text from a document's bytes, by detected type (see detectFileType). Unsupported kinds are
 * a 415, corrupt files a 422, never a crash.
 */
export async function parseDocument(
  bytes: Uint8Array,
  hints: { filename?: string; mimetype?: string; charset?: string } = {},
): Promise<ParsedDocument> {
  const detected = detectFileType(bytes, hints);
  if (detected === 'binary') {
    const claimed = fromHints(hints);
    if (claimed === 'pdf' || claimed === 'docx') {
      throw new RagError('unreadableFile', `The file is named or declared as ${claimed} but its content is not a valid ${claimed}`);
    }
    throw new RagError('unsupportedType', 'Unsupported file type: only PDF, DOCX, HTML, Markdown and plain text can be read');
  }
  if ((detected === 'html' || detected === 'markdown') && bytes.byteLength > MAX_MARKUP_BYTES) {
    throw new RagError('tooLarge', `The ${detected === 'html' ? 'HTML' : 'Markdown'} document is ${bytes.byteLength} bytes; at most ${MAX_MARKUP_BYTES} are read (plain text, Word and PDF may be larger)`);
  }
  // Word and PDF: decompression bombs are refused before a parser inflates anything, inside the
  // worker slot (docx-to-text, pdf-to-text, decompression-guard).
  const content = await fileParsers[detected](bytes, hints.charset);
  return { content, type: detected };
}

/**
 * Reads a stored upload and parses it. `filepath` comes from the client (POST /api/rag/parse-file
 * {filepath}), so it is resolved inside `baseDir` (symlinks included) and refused if it escapes;
 * files over `maxBytes` are a 413 before they are read whole.
 */
export async function parseStoredFile(
  baseDir: string,
  filepath: unknown,
  options: { maxBytes?: number; mimetype?: string } = {},
): Promise<ParsedDocument> {
  if (typeof filepath !== 'string' || filepath.trim() === '' || filepath.includes('\0')) {
    throw new RagError('invalidInput', 'filepath must be a non-empty path', { field: 'filepath' });
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const root = await realpath(baseDir).catch(() => {
    throw new RagError('fileNotFound', `File not found: ${filepath}`, { field: 'filepath' });
  });
  let resolved: string;
  try {
    resolved = await realpath(path.resolve(root, filepath.replace(/^[/\\]+/, '')));
  } catch {
    throw new RagError('fileNotFound', `File not found: ${filepath}`, { field: 'filepath' });
  }
  if (resolved !== root && !resolved.startsWith(root + path.sep)) {
    throw new RagError('invalidInput', 'filepath must point inside the uploads folder', { field: 'filepath' });
  }
  const handle = await open(resolved, 'r').catch(() => {
    throw new RagError('fileNotFound', `File not found: ${filepath}`, { field: 'filepath' });
  });
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new RagError('tooLarge', `The file is ${size} bytes; the limit is ${maxBytes}`, { field: 'filepath' });
    const bytes = await handle.readFile();
    return await parseDocument(bytes, { filename: resolved, mimetype: options.mimetype });
  } catch (error) {
    if (error instanceof RagError) throw error;
    throw new RagError('unreadableFile', `The file could not be read: ${(error as Error).message}`, { field: 'filepath', cause: error });
  } finally {
    await handle.close();
  }
}
