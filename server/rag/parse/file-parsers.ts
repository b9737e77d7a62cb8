import { CpuTaskError, cpuPool, serverBusyError } from '../../workers/run-cpu-task.ts';
import { RagError } from '../rag-error.ts';
import { decodeText } from './decode-text.ts';
import type { FileType } from './detect-file-type.ts';
import { docxToText } from './docx-to-text.ts';
import { markupToText, type MarkupType } from './markup-to-text.ts';
import { pdfToText } from './pdf-to-text.ts';
import { tidyTextYielding } from './tidy-text.ts';

export type FileParser = (bytes: Uint8Array, charset?: string) => Promise<string> | string;

/**
 * Markup up to this size is read on the main thread: cheerio takes about 1 ms per KB, so 16 KB is
 * a slice of the event loop no other request notices, and cheaper than a trip to a worker.
 */
export const MAIN_THREAD_MARKUP_BYTES = 16 * 1024;

/** How each supported document type becomes plain text. */
export const fileParsers: Record<FileType, FileParser> = {
  pdf: pdfToText,
  docx: docxToText,
  html: (bytes, charset) => markupOffThread('html', bytes, charset),
  markdown: (bytes, charset) => markupOffThread('markdown', bytes, charset),
  // Large plain texts are tidied in slices so other requests keep being served.
  text: (bytes, charset) => tidyTextYielding(decodeText(bytes, charset)),
};

/** HTML and Markdown parsing (cheerio, marked) holds its thread for about a second per MB: in the worker pool. */
async function markupOffThread(type: MarkupType, bytes: Uint8Array, charset?: string): Promise<string> {
  if (bytes.byteLength <= MAIN_THREAD_MARKUP_BYTES) return markupToText(type, bytes, charset);
  const what = type === 'html' ? 'The HTML document' : 'The Markdown document';
  try {
    return await cpuPool().run('markup', { type, bytes, charset });
  } catch (error) {
    if (!(error instanceof CpuTaskError)) throw error;
    if (error.reason === 'busy') throw serverBusyError(error);
    if (error.reason === 'outOfMemory') throw new RagError('archiveBomb', `${what} ${error.message} to read`, { cause: error });
    throw new RagError('unreadableFile', `${what} could not be read: ${error.message}`, { cause: error });
  }
}
