import { decodeText } from './decode-text.ts';
import type { FileType } from './detect-file-type.ts';
import { docxToText } from './docx-to-text.ts';
import { htmlToText } from './html-to-text.ts';
import { markdownToText } from './markdown-to-text.ts';
import { pdfToText } from './pdf-to-text.ts';
import { tidyTextYielding } from './tidy-text.ts';

export type FileParser = (bytes: Uint8Array, charset?: string) => Promise<string> | string;

/** How each supported document type becomes plain text. */
export const fileParsers: Record<FileType, FileParser> = {
  pdf: pdfToText,
  docx: docxToText,
  html: (bytes, charset) => htmlToText(decodeText(bytes, charset ?? metaCharset(bytes))),
  markdown: (bytes, charset) => markdownToText(decodeText(bytes, charset)),
  // Large plain texts are tidied in slices so other requests keep being served.
  text: (bytes, charset) => tidyTextYielding(decodeText(bytes, charset)),
};

/** <meta charset="..."> or http-equiv content type within the first KB, as browsers look. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return head.match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1];
}
