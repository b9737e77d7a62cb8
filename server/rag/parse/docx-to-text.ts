import { checkZipArchive } from './decompression-guard.ts';
import { extractInWorker } from './parse-in-worker.ts';
import { tidyTextYielding } from './tidy-text.ts';

/**
 * The text of a Word (.docx) document, paragraphs as paragraphs, via mammoth in a worker thread
 * (parse-in-worker.ts). The archive is checked against decompression bombs first
 * (decompression-guard.ts), inside the same worker slot; unreadable files are a 422 RagError.
 */
export async function docxToText(bytes: Uint8Array): Promise<string> {
  return tidyTextYielding(await extractInWorker('docx', bytes, () => checkZipArchive(bytes)));
}
