import { checkPdfStreams } from './decompression-guard.ts';
import { extractInWorker } from './parse-in-worker.ts';
import { tidyTextYielding } from './tidy-text.ts';

/**
 * The text layer of a PDF, pages separated by blank lines, via unpdf (a serverless build of
 * Mozilla's pdf.js; 1.7 is the last line that declares Node 20 support) in a worker thread
 * (parse-in-worker.ts: heap, time and page limits). Scanned PDFs without a text layer give an
 * empty string (no OCR). Corrupt or encrypted files are a 422. Its compressed streams are checked
 * against decompression bombs first (decompression-guard.ts), inside the same worker slot.
 */
export async function pdfToText(bytes: Uint8Array): Promise<string> {
  return tidyTextYielding(await extractInWorker('pdf', bytes, () => checkPdfStreams(bytes)));
}
