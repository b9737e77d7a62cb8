import { decodeText } from './decode-text.ts';
import { htmlToText } from './html-to-text.ts';
import { markdownToText } from './markdown-to-text.ts';

export type MarkupType = 'html' | 'markdown';

/**
 * The text of an HTML page or a Markdown document from its bytes (charset: the declared one, for
 * HTML else its <meta charset>, else detected). Pure CPU work with no server state, so it runs in
 * the worker pool (server/workers/cpu-task-handlers.ts) as well as on the main thread.
 */
export function markupToText(type: MarkupType, bytes: Uint8Array, charset?: string): string {
  if (type === 'html') return htmlToText(decodeText(bytes, charset ?? metaCharset(bytes)));
  return markdownToText(decodeText(bytes, charset));
}

/** <meta charset="..."> or http-equiv content type within the first KB, as browsers look. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return head.match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1];
}
