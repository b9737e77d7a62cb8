import { constants, createInflate, createInflateRaw } from 'node:zlib';
import { RagError } from '../rag-error.ts';

/**
 * Decompression-bomb limits for the documents we parse (issue 16: a 200 KB DOCX whose XML
 * inflates to gigabytes exhausted the heap). A DOCX is a ZIP: its central directory, read exactly
 * as JSZip (mammoth) reads it, declares each part's sizes, checked before mammoth sees the file;
 * then every part is inflated once with its declared size as a hard cap, so a lying header cannot
 * smuggle more past the check. A PDF's zlib streams (every header pdf.js accepts, nested layers
 * too) are inflated the same way against one budget, after refusing what cannot be counted here
 * (encryption, LZW / RunLength / Brotli, filter chains). Inflated bytes are counted and discarded
 * as they come (memory stays at a few 64 KB chunks), and the checks run inside the parse worker
 * slot (parse-in-worker.ts), so at most MAX_PARSE_WORKERS documents are checked at once.
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


/** Nested Flate layers followed in one PDF stream ([/FlateDecode /FlateDecode ...]); deeper is refused. */
export const MAX_PDF_FLATE_LAYERS = 8;

/** Bytes handed to zlib at a time, and the size of its output chunks: what a check holds in memory. */
const SLICE = 64 * 1024;

/** Gives the event loop a turn every ~10 ms of scanning (a crafted 25 MB file takes seconds). */
function yielder(): () => Promise<void> {
  let since = Date.now();
  return async () => {
    if (Date.now() - since < 10) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = Date.now();
  };
}

async function* slices(data: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < data.length; at += SLICE) yield data.subarray(at, at + SLICE);
}

/**
 * The inflated chunks of `input` (zlib, or raw deflate for ZIP), produced as they are read, so
 * memory stays at a chunk or two whatever the data expands to: the checks count bytes and discard
 * them. Ends at the end of the deflate data (trailing bytes are ignored, as pdf.js and JSZip do);
 * a corrupt stream throws zlib's error, an error thrown by `input` (a budget) is thrown as is.
 */
async function* inflateChunks(input: AsyncIterable<Buffer>, raw: boolean, onConsumed?: (bytes: number) => void): AsyncGenerator<Buffer> {
  const inflater = (raw ? createInflateRaw : createInflate)({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: SLICE });
  let finished = false;
  inflater.once('end', () => {
    finished = true;
  });
  const feeding = (async () => {
    try {
      for await (const piece of input) {
        if (finished || inflater.destroyed) break;
        if (!inflater.write(piece)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              inflater.off('drain', done).off('close', done).off('end', done);
              resolve();
            };
            inflater.on('drain', done).on('close', done).on('end', done);
          });
        }
      }
      if (!inflater.destroyed) inflater.end();
    } catch (error) {
      inflater.destroy(error as Error);
    }
  })();
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } finally {
    inflater.destroy();
    await feeding;
    onConsumed?.(inflater.bytesWritten);
  }
}

/** Whether two bytes open zlib data as pdf.js accepts it: deflate method, valid check bits. */
export function isZlibHeader(b0: number | undefined, b1: number | undefined): boolean {
  return b0 !== undefined && b1 !== undefined && (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
}

/**
 * The central directory's entries. Walked the way JSZip (mammoth's reader) walks it: every
 * central header while the signature matches, whatever count the end record declares; a count
 * that disagrees is refused, and so is an end record that does not sit right after the directory
 * (data prepended to the archive, which JSZip would re-base and read at other offsets than ours).
 * ZIP64 and multi-disk archives are refused: no document we accept needs them.
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // JSZip takes the last signature in the file; so do we (one that leaves no room for the record is damage).
  const eocd = view.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw corrupt('no ZIP central directory');
  if (eocd + 22 > view.length) throw corrupt('a truncated end of central directory');
  const disk = view.readUInt16LE(eocd + 4);
  const directoryDisk = view.readUInt16LE(eocd + 6);
  const countOnDisk = view.readUInt16LE(eocd + 8);
  const count = view.readUInt16LE(eocd + 10);
  const directorySize = view.readUInt32LE(eocd + 12);
  const directoryOffset = view.readUInt32LE(eocd + 16);
  if (count === 0xffff || countOnDisk === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff || disk === 0xffff || directoryDisk === 0xffff) {
    throw bomb('The document is a ZIP64 archive; documents that large are not accepted');
  }
  if (disk !== 0 || directoryDisk !== 0 || countOnDisk !== count) throw corrupt('a multi-disk ZIP archive');
  if (count > MAX_ZIP_ENTRIES) throw bomb(`The document holds ${count} parts; at most ${MAX_ZIP_ENTRIES}`);
  if (directoryOffset + directorySize !== eocd) {
    throw corrupt(`the central directory (${directoryOffset} + ${directorySize} bytes) does not end where the end record is (${eocd}): data before or inside the archive`);
  }
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  while (at + 4 <= view.length && view.readUInt32LE(at) === 0x02014b50) {
    if (entries.length >= MAX_ZIP_ENTRIES) throw bomb(`The document holds more than ${MAX_ZIP_ENTRIES} parts; at most ${MAX_ZIP_ENTRIES}`);
    if (at + 46 > view.length) throw corrupt('a damaged ZIP central directory');
    const nameLength = view.readUInt16LE(at + 28);
    entries.push({
      method: view.readUInt16LE(at + 10),
      compressedSize: view.readUInt32LE(at + 20),
      size: view.readUInt32LE(at + 24),
      name: view.toString('utf8', at + 46, at + 46 + nameLength),
      localHeaderOffset: view.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  if (entries.length !== count) {
    throw corrupt(`the end record declares ${count} parts but the central directory holds ${entries.length}`);
  }
  if (at !== eocd) throw corrupt('the central directory does not end at the end record');
  return entries;
}

/**
 * Refuses a ZIP (DOCX) whose parts declare more than the limits, then inflates each part with its
 * declared size as the cap, counting and discarding the output: more (a lying header) or less is
 * refused too. Resolves when the file is safe to hand to mammoth, which reads the same directory
 * at the same offsets (readZipDirectory) and so inflates exactly what was checked.
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
    let inflated = 0;
    try {
      for await (const chunk of inflateChunks(slices(data), true)) {
        inflated += chunk.length;
        // Past the declared size is enough to prove the header lies.
        if (inflated > entry.size) throw bomb(`The part ${entry.name} expands to more than the ${entry.size} bytes it declares`);
      }
    } catch (error) {
      if (error instanceof RagError) throw error;
      throw corrupt(`${entry.name}: ${(error as Error).message}`);
    }
    if (inflated !== entry.size) throw bomb(`The part ${entry.name} expands to ${inflated} bytes, not the ${entry.size} it declares`);
  }
}

/** PDF names decoded (#xx escapes), e.g. /Filte#72 is /Filter for pdf.js. */
function decodeNames(text: string): string {
  return text.includes('#') ? text.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

const PDF_DELIMITER = /[\0\t\n\f\r ()<>[\]{}/%]/;
const PDF_WHITESPACE = /[\0\t\n\f\r ]/;

/** Decoders that multiply their input and are not counted here (pdf.js reads them all). */
const REFUSED_FILTERS = new Set(['LZWDecode', 'LZW', 'RunLengthDecode', 'RL', 'BrotliDecode', 'Crypt']);
const FLATE = new Set(['FlateDecode', 'Fl']);

/** How far after a /Filter or /F key its value may end (real ones end within a few bytes). */
const FILTER_VALUE_WINDOW = 4096;

/**
 * The filter value after a /Filter or /F key: its names, and whether it refers to another object;
 * null when it is none of those (/F 4, a string), and where it ends. Read within
 * FILTER_VALUE_WINDOW bytes; a value that does not end there is 'overlong' (refused).
 */
function readFilterValue(whole: string, from: number): { names: string[]; isArray: boolean; reference?: [string, string]; end: number } | null | 'overlong' {
  const text = whole.slice(from, from + FILTER_VALUE_WINDOW);
  let at = 0;
  const skipBlank = () => {
    for (;;) {
      while (at < text.length && PDF_WHITESPACE.test(text[at])) at += 1;
      if (text[at] !== '%') return;
      while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at += 1;
    }
  };
  const readName = () => {
    const begin = (at += 1);
    while (at < text.length && !PDF_DELIMITER.test(text[at])) at += 1;
    return text.slice(begin, at);
  };
  const readReference = (): [string, string] | undefined => {
    const match = /^(\d+)[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]+R(?![^\0\t\n\f\r ()<>[\]{}/%])/.exec(text.slice(at, at + 40));
    if (!match) return undefined;
    at += match[0].length;
    return [match[1], match[2]];
  };
  skipBlank();
  if (at >= text.length) return text.length < FILTER_VALUE_WINDOW ? null : 'overlong';
  if (text[at] === '/') return { names: [readName()], isArray: false, end: from + at };
  if (/\d/.test(text[at])) {
    const reference = readReference();
    return reference ? { names: [], isArray: false, reference, end: from + at } : null;
  }
  if (text[at] !== '[') return null;
  at += 1;
  const names: string[] = [];
  for (;;) {
    skipBlank();
    if (at >= text.length) return text.length < FILTER_VALUE_WINDOW ? { names, isArray: true, end: from + at } : 'overlong';
    if (text[at] === ']') return { names, isArray: true, end: from + at + 1 };
    if (text[at] === '/') names.push(readName());
    else if (/\d/.test(text[at])) {
      const reference = readReference();
      if (reference) return { names, isArray: true, reference, end: from + at };
      while (at < text.length && !PDF_DELIMITER.test(text[at])) at += 1;
    } else at += 1;
  }
}

/**
 * What pdf.js would do before any text is read that the Flate count cannot see: decrypting
 * (an /Encrypt dictionary: the streams are ciphertext here and plaintext there), and decoders
 * other than Flate (LZW, RunLength, Brotli multiply their input; chains such as
 * [/ASCIIHexDecode /FlateDecode] hide the zlib data from the count). All are refused, as are
 * filters given by reference (they could sit in a compressed object stream). The whole file is
 * searched, names decoded, so stream data may rarely cause a refusal, never a pass.
 */
async function checkPdfStructure(view: Buffer): Promise<void> {
  const pause = yielder();
  const text = decodeNames(view.toString('latin1'));
  if (/\/Encrypt(?=[\0\t\n\f\r ()<>[\]{}/%]|$)/.test(text)) {
    throw new RagError('unreadableFile', 'The PDF is encrypted (password protected); encrypted PDFs are not read');
  }
  // Object numbers defined in the clear -> whether the object is a dictionary or string; built once, when needed.
  let objects: Map<string, boolean> | undefined;
  const keys = /\/(Filter|F)(?=[\0\t\n\f\r ()<>[\]{}/%])/g;
  for (let match = keys.exec(text); match; match = keys.exec(text)) {
    await pause();
    const value = readFilterValue(text, match.index + match[0].length);
    if (value === 'overlong') throw bomb(`The PDF has a /${match[1]} value that does not end within ${FILTER_VALUE_WINDOW} bytes`);
    if (!value) continue;
    // What the value held (array elements, comments) is not a key: the scan goes on after it, once.
    keys.lastIndex = value.end;
    const refused = value.names.find((name) => REFUSED_FILTERS.has(name));
    if (refused) throw bomb(`The PDF uses the /${refused} filter, which is not accepted (only Flate-compressed streams are read)`);
    if (value.isArray && value.names.length > 1 && value.names.some((name) => !FLATE.has(name))) {
      throw bomb(`The PDF chains the filters ${value.names.map((name) => `/${name}`).join(' ')}, which are not accepted (only Flate-compressed streams are read)`);
    }
    if (value.reference) {
      // /F is also a file specification (links to other files): a reference to a dictionary or string stored in the clear is that.
      const [number, generation] = value.reference;
      if (!objects) {
        objects = new Map();
        const headers = /(?<![0-9])(\d+)[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]+obj[\0\t\n\f\r ]*(<<|\()?/g;
        for (let header = headers.exec(text); header; header = headers.exec(text)) {
          objects.set(`${header[1]} ${header[2]}`, header[3] !== undefined);
          await pause();
        }
      }
      if (match[1] === 'Filter' || value.isArray || !objects.get(`${number} ${generation}`)) {
        throw bomb(`The PDF gives a stream filter by reference (${number} ${generation} R), which is not accepted`);
      }
    }
  }
}

/**
 * Counts the bytes of one layer of a stream (its chunks) against the budget, and when the layer
 * is itself zlib data (nested Flate), inflates and counts the next layer too.
 */
async function countLayer(chunks: AsyncIterable<Buffer>, budget: { remaining: number; limit: number }, depth: number): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  const counted = depth > 0; // depth 0 is the file itself
  const take = async (): Promise<Buffer | undefined> => {
    const next = await iterator.next();
    if (next.done) return undefined;
    if (counted) {
      budget.remaining -= next.value.length;
      if (budget.remaining < 0) throw bomb(`The PDF's compressed streams expand to more than ${budget.limit} bytes`);
    }
    return next.value;
  };
  const head: Buffer[] = [];
  let headLength = 0;
  while (headLength < 2) {
    const chunk = await take();
    if (!chunk) break;
    head.push(chunk);
    headLength += chunk.length;
  }
  const first = head.length === 1 ? head[0] : Buffer.concat(head);
  if (isZlibHeader(first[0], first[1])) {
    if (depth >= MAX_PDF_FLATE_LAYERS) throw bomb(`The PDF nests more than ${MAX_PDF_FLATE_LAYERS} layers of compression in one stream`);
    const layer = async function* () {
      yield first;
      for (let chunk = await take(); chunk; chunk = await take()) yield chunk;
    };
    try {
      // The file's own bytes read by zlib are charged too, so no arrangement of streams makes
      // zlib scan the file over and over for free.
      const charge = counted ? undefined : (consumed: number) => (budget.remaining -= consumed);
      await countLayer(inflateChunks(layer(), false, charge), budget, depth + 1);
    } catch (error) {
      if (error instanceof RagError) throw error;
      // Not zlib after all, or damaged: pdf.js decides (what was inflated is counted).
    }
  }
  // The rest of this layer is read (and counted) too; the file itself is not.
  if (counted) while (await take());
  if (budget.remaining < 0) throw bomb(`The PDF's compressed streams expand to more than ${budget.limit} bytes`);
}

/**
 * Refuses a PDF whose decoding cannot be bounded here (checkPdfStructure), then inflates every
 * zlib stream once, nested layers included, against one budget, counting and discarding the
 * output; past the budget the file is refused before pdf.js decodes anything. Each stream is
 * inflated from where pdf.js starts reading it to the end of its deflate data, wherever the file
 * says it ends. Streams that are not zlib data (images in DCT, fonts stored plain) are left to pdf.js.
 */
export async function checkPdfStreams(bytes: Uint8Array, budget = MAX_PDF_INFLATED_BYTES): Promise<void> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await checkPdfStructure(view);
  const pause = yielder();
  const counter = { remaining: budget, limit: budget };
  let lineEnd = -1;
  let lastStart = -1;
  for (let at = view.indexOf('stream', 0, 'latin1'); at !== -1; at = view.indexOf('stream', at + 6, 'latin1')) {
    await pause();
    if (at >= 3 && view[at - 3] === 0x65 && view[at - 2] === 0x6e && view[at - 1] === 0x64) continue; // endstream
    // pdf.js skips to the next line after the keyword (whatever precedes the end of line).
    if (lineEnd < at + 6) {
      const lf = view.indexOf(0x0a, at + 6);
      const cr = view.indexOf(0x0d, at + 6);
      lineEnd = lf === -1 ? (cr === -1 ? view.length : cr) : cr === -1 ? lf : Math.min(lf, cr);
    }
    let start = lineEnd;
    if (view[start] === 0x0d) start += 1;
    if (view[start] === 0x0a) start += 1;
    if (start === lastStart || !isZlibHeader(view[start], view[start + 1])) continue;
    lastStart = start;
    await countLayer(slices(view.subarray(start)), counter, 0);
  }
}
