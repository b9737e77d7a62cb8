import { inflate, inflateRaw, type InputType, type ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';
import { RagError } from '../rag-error.ts';

/**
 * Decompression-bomb limits for the documents we parse (issue 16: a 200 KB DOCX whose XML
 * inflates to gigabytes exhausted the heap). A DOCX is a ZIP: its central directory declares each
 * part's sizes, checked before mammoth sees the file, and then every part is inflated once off the
 * main thread (zlib's thread pool) with its declared size as a hard cap, so a lying header cannot
 * smuggle more past the check. A PDF's Flate streams are inflated the same way against one budget.
 */
export const MAX_ZIP_ENTRIES = 5_000;
/** One part (document.xml, an image) uncompressed. */
export const MAX_ZIP_ENTRY_BYTES = 50 * 1024 * 1024;
/** All parts together, uncompressed. */
export const MAX_ZIP_TOTAL_BYTES = 200 * 1024 * 1024;
/** Uncompressed / compressed, for parts over 1 MB (ordinary Word XML stays under 30). */
export const MAX_ZIP_RATIO = 200;
/** Every Flate stream of a PDF together, inflated (nested Flate layers included). */
export const MAX_PDF_INFLATED_BYTES = 200 * 1024 * 1024;

const inflateRawAsync = promisify<InputType, ZlibOptions, Buffer>(inflateRaw);
const inflateAsync = promisify<InputType, ZlibOptions, Buffer>(inflate);

function bomb(message: string): RagError {
  return new RagError('archiveBomb', message);
}

function corrupt(message: string): RagError {
  return new RagError('unreadableFile', `The Word document could not be read: ${message}`);
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** The central directory's entries (ZIP64 refused: no document we accept needs it). */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = view.length - 22; i >= Math.max(0, view.length - 22 - 0xffff); i -= 1) {
    if (view.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw corrupt('no ZIP central directory');
  const count = view.readUInt16LE(eocd + 10);
  const directoryOffset = view.readUInt32LE(eocd + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw bomb('The document is a ZIP64 archive; documents that large are not accepted');
  if (count > MAX_ZIP_ENTRIES) throw bomb(`The document holds ${count} parts; at most ${MAX_ZIP_ENTRIES}`);
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > view.length || view.readUInt32LE(at) !== 0x02014b50) throw corrupt('a damaged ZIP central directory');
    const nameLength = view.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      method: view.readUInt16LE(at + 10),
      compressedSize: view.readUInt32LE(at + 20),
      size: view.readUInt32LE(at + 24),
      name: view.toString('utf8', at + 46, at + 46 + nameLength),
      localHeaderOffset: view.readUInt32LE(at + 42),
    };
    entries.push(entry);
    at += 46 + nameLength + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * Refuses a ZIP (DOCX) whose parts declare more than the limits, then inflates each part with its
 * declared size as the cap: more (a lying header) or less is refused too. Resolves when the file
 * is safe to hand to mammoth (which then inflates exactly what was checked).
 */
export async function checkZipArchive(bytes: Uint8Array): Promise<void> {
  const entries = readZipDirectory(bytes);
  let total = 0;
  for (const entry of entries) {
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) throw bomb('The document is a ZIP64 archive; documents that large are not accepted');
    if (entry.size > MAX_ZIP_ENTRY_BYTES) {
      throw bomb(`The part ${entry.name} expands to ${entry.size} bytes; at most ${MAX_ZIP_ENTRY_BYTES} per part`);
    }
    total += entry.size;
    if (total > MAX_ZIP_TOTAL_BYTES) throw bomb(`The document expands to more than ${MAX_ZIP_TOTAL_BYTES} bytes; at most ${MAX_ZIP_TOTAL_BYTES}`);
    if (entry.size > 1024 * 1024 && entry.size / Math.max(1, entry.compressedSize) > MAX_ZIP_RATIO) {
      throw bomb(`The part ${entry.name} is compressed ${Math.round(entry.size / Math.max(1, entry.compressedSize))} to 1; at most ${MAX_ZIP_RATIO} to 1`);
    }
  }
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const entry of entries) {
    const header = entry.localHeaderOffset;
    if (header + 30 > view.length || view.readUInt32LE(header) !== 0x04034b50) throw corrupt(`a damaged entry (${entry.name})`);
    const start = header + 30 + view.readUInt16LE(header + 26) + view.readUInt16LE(header + 28);
    if (start + entry.compressedSize > view.length) throw corrupt(`a truncated entry (${entry.name})`);
    const data = view.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw corrupt(`a stored entry whose sizes disagree (${entry.name})`);
      continue;
    }
    if (entry.method !== 8) throw corrupt(`an entry compressed with method ${entry.method} (${entry.name})`);
    let inflated: Buffer;
    try {
      // One byte over the declared size is enough to prove the header lies.
      inflated = await inflateRawAsync(data, { maxOutputLength: entry.size + 1 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw bomb(`The part ${entry.name} expands to more than the ${entry.size} bytes it declares`);
      }
      throw corrupt(`${entry.name}: ${(error as Error).message}`);
    }
    if (inflated.length !== entry.size) throw bomb(`The part ${entry.name} expands to ${inflated.length} bytes, not the ${entry.size} it declares`);
  }
}

/**
 * Inflates every Flate (zlib) stream of a PDF once, nested layers included, against one budget;
 * past it the file is refused before pdf.js decodes anything. Streams that are not zlib data
 * (images in DCT, other filters) are left to pdf.js.
 */
export async function checkPdfStreams(bytes: Uint8Array, budget = MAX_PDF_INFLATED_BYTES): Promise<void> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let remaining = budget;
  let at = view.indexOf('stream', 0, 'latin1');
  while (at !== -1) {
    let start = at + 6;
    if (view[start] === 0x0d) start += 1;
    if (view[start] === 0x0a) start += 1;
    const isKeyword = start > at + 6 && view.toString('latin1', Math.max(0, at - 3), at) !== 'end';
    const end = view.indexOf('endstream', start, 'latin1');
    if (!isKeyword || end === -1) {
      at = view.indexOf('stream', at + 6, 'latin1');
      continue;
    }
    let layer: Buffer = view.subarray(start, end);
    for (let depth = 0; depth < 4 && layer.length > 1 && layer[0] === 0x78; depth += 1) {
      try {
        layer = await inflateAsync(layer, { maxOutputLength: remaining + 1, finishFlush: 2 /* Z_SYNC_FLUSH: tolerate a missing end */ });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
          throw new RagError('archiveBomb', `The PDF's compressed streams expand to more than ${budget} bytes`);
        }
        break; // not zlib after all: pdf.js decides
      }
      remaining -= layer.length;
      if (remaining < 0) throw new RagError('archiveBomb', `The PDF's compressed streams expand to more than ${budget} bytes`);
    }
    at = view.indexOf('stream', end + 9, 'latin1');
  }
}
