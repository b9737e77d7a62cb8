import { Marked } from 'marked';
import { htmlToText } from './html-to-text.ts';

// Own instance so nobody else's marked.use() changes how knowledge files are read.
const marked = new Marked({ gfm: true, async: false });

/** Markdown to plain text: rendered with marked, then read like any HTML page. */
export function markdownToText(markdown: string): string {
  return htmlToText(marked.parse(markdown, { async: false }));
}
