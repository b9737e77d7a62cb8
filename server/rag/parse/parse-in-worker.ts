import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { RagError } from '../rag-error.ts';

/**
 * Word and PDF documents are read in a worker thread: mammoth's XML parsing and pdf.js block for
 * seconds on a large document (a 24 MB document.xml held the event loop 3.8 s, so health checks
 * and chats waited), and whatever a hostile file makes them allocate is bounded by the worker's
 * own heap instead of the server's. One worker per document, at most MAX_PARSE_WORKERS at once.
 */
export const PARSE_WORKER_HEAP_MB = 512;
export const PARSE_TIMEOUT_MS = 60_000;
export const MAX_PARSE_WORKERS = 2;
/** Pages of a PDF read at most (pdf.js keeps per-page state; 2,000 pages is a long book). */
export const MAX_PDF_PAGES = 2_000;

// Plain CommonJS run with eval, so it works the same under tsx, vitest and the esbuild bundle
// (no .ts file to load); the libraries are resolved here and passed in by absolute path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
async function read({ kind, modulePath, bytes, maxPages }) {
  if (kind === 'docx') {
    const mammoth = require(modulePath);
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return value;
  }
  const { extractText, getDocumentProxy } = require(modulePath);
  const pdf = await getDocumentProxy(bytes);
  try {
    if (pdf.numPages > maxPages) {
      const error = new Error('The PDF has ' + pdf.numPages + ' pages; at most ' + maxPages + ' are read');
      error.tooLarge = true;
      throw error;
    }
    const { text } = await extractText(pdf, { mergePages: false });
    return text.join('\\n\\n');
  } finally {
    await pdf.destroy();
  }
}
read(workerData).then(
  (text) => parentPort.postMessage({ ok: true, text }),
  (error) => parentPort.postMessage({ ok: false, message: error && error.message ? error.message : String(error), tooLarge: Boolean(error && error.tooLarge) }),
);
`;

const localRequire = createRequire(import.meta.url);
const modulePaths: Record<'docx' | 'pdf', () => string> = {
  docx: () => localRequire.resolve('mammoth'),
  pdf: () => localRequire.resolve('unpdf'),
};

let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARSE_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/**
 * The raw text of a DOCX (mammoth) or a PDF (unpdf), read in a worker with a heap and time limit.
 * `check` (the decompression guard) runs first, inside the same slot: at most MAX_PARSE_WORKERS
 * documents are inflated for checking or read at once, however many are uploaded together.
 */
export function extractInWorker(kind: 'docx' | 'pdf', bytes: Uint8Array, check?: () => Promise<void>): Promise<string> {
  const what = kind === 'docx' ? 'The Word document' : 'The PDF';
  return slot(
    async () => {
      await check?.();
      return new Promise<string>((resolve, reject) => {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          // A copy: pdf.js detaches the buffer it is given, and the caller keeps its own.
          workerData: { kind, modulePath: modulePaths[kind](), bytes: new Uint8Array(bytes), maxPages: MAX_PDF_PAGES },
          resourceLimits: { maxOldGenerationSizeMb: PARSE_WORKER_HEAP_MB },
          stdout: true,
          stderr: true,
        });
        let settled = false;
        const settle = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          outcome();
          void worker.terminate();
        };
        const timer = setTimeout(
          () => settle(() => reject(new RagError('unreadableFile', `${what} could not be read within ${PARSE_TIMEOUT_MS / 1000} s`))),
          PARSE_TIMEOUT_MS,
        );
        worker.on('message', (message: { ok: boolean; text?: string; message?: string; tooLarge?: boolean }) =>
          settle(() => {
            if (message.ok) resolve(message.text ?? '');
            else if (message.tooLarge) reject(new RagError('tooLarge', message.message ?? `${what} is too large`));
            else reject(new RagError('unreadableFile', `${what} could not be read: ${message.message}`));
          }),
        );
        worker.on('error', (error: NodeJS.ErrnoException) =>
          settle(() => {
            if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
              reject(new RagError('archiveBomb', `${what} needs more than ${PARSE_WORKER_HEAP_MB} MB of memory to read`, { cause: error }));
            } else {
              reject(new RagError('unreadableFile', `${what} could not be read: ${error.message}`, { cause: error }));
            }
          }),
        );
        worker.on('exit', (code) => settle(() => reject(new RagError('unreadableFile', `${what} could not be read (the reader stopped with code ${code})`))));
      });
    },
  );
}
