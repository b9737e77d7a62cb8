import { extractText, getDocumentProxy } from 'unpdf';
import { RagError } from '../rag-error.ts';
import { tidyText } from './tidy-text.ts';

/**
 * The text layer of a PDF, pages separated by blank lines, via unpdf (a serverless build of
 * Mozilla's pdf.js; 1.7 is the last line that declares Node 20 support). Scanned PDFs without a
 * text layer give an empty string (no OCR). Corrupt or encrypted files are a 422.
 */
export async function pdfToText(bytes: Uint8Array): Promise<string> {
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    try {
      const { text } = await extractText(pdf, { mergePages: false });
      return tidyText(text.join('\n\n'));
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RagError('unreadableFile', `The PDF could not be read: ${reason}`, { cause: error });
  }
}
