import mammoth from 'mammoth';
import { RagError } from '../rag-error.ts';
import { tidyText } from './tidy-text.ts';

/** The text of a Word (.docx) document, paragraphs as paragraphs, via mammoth. */
export async function docxToText(bytes: Uint8Array): Promise<string> {
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return tidyText(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RagError('unreadableFile', `The Word document could not be read: ${reason}`, { cause: error });
  }
}
