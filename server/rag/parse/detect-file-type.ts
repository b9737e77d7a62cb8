/** The document kinds we can turn into text; each has a parser in file-parsers.ts. */
export type FileType = 'pdf' | 'docx' | 'html' | 'markdown' | 'text';

/** What the bytes are: a supported type, a binary we cannot read, or text of unknown flavour. */
export type DetectedType = FileType | 'binary';

const EXTENSIONS: Record<string, FileType> = {
  pdf: 'pdf',
  docx: 'docx',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
  text: 'text',
  csv: 'text',
};

const MIME_TYPES: Record<string, FileType> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'text/csv': 'text',
};

/**
 * Decides how to read a file: content first (magic bytes: %PDF-, a ZIP holding word/document.xml,
 * NUL bytes for other binaries, an HTML prologue), then the declared mimetype and extension to
 * tell markdown and HTML fragments from plain text. A file named .pdf that is not a PDF is judged
 * by its bytes.
 */
export function detectFileType(bytes: Uint8Array, hints: { filename?: string; mimetype?: string } = {}): DetectedType {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8192));
  if (head.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    // ZIP local headers store file names uncompressed; a Word document always has word/ parts.
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('word/') ? 'docx' : 'binary';
  }
  if (head.includes(0)) return 'binary';
  const declared = fromHints(hints);
  const start = head.toString('utf8', 0, 1024).replace(/^\uFEFF/, '').trimStart().slice(0, 200).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || (start.startsWith('<?xml') && start.includes('<html'))) {
    return 'html';
  }
  if (declared === 'html' || declared === 'markdown' || declared === 'text') return declared;
  if (/^<(head|body|div|p|h[1-6]|article|main|section|table|ul|ol)[\s>]/.test(start)) return 'html';
  return 'text';
}

/** The type a file's name or mimetype claims, used when the bytes do not decide. */
export function fromHints(hints: { filename?: string; mimetype?: string }): FileType | undefined {
  const mime = hints.mimetype?.split(';')[0].trim().toLowerCase();
  if (mime && MIME_TYPES[mime]) return MIME_TYPES[mime];
  const extension = hints.filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return extension ? EXTENSIONS[extension] : undefined;
}
