import type { AnyNode } from 'domhandler';
import { lazyModule } from '../../lazy-module.ts';
import { tidyText } from './tidy-text.ts';

const cheerio = lazyModule<typeof import('cheerio')>('cheerio');

/** Never text a reader would see. */
const INVISIBLE = 'script, style, noscript, template, svg, canvas, iframe, object, embed, head > *:not(title)';
/** Page chrome, dropped when the page does not mark its main content with <main> or <article>. */
const CHROME = 'nav, header, footer, aside, form, [role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true]';
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'summary', 'table', 'tr', 'ul', 'title', 'caption',
]);

/**
 * The readable text of an HTML page: the <main>/<article> content when the page marks one (else
 * the body without navigation, header, footer and asides), the title first, block elements as
 * paragraphs, <br> and table cells as line and column breaks. Cheerio (htmlparser2) rather than
 * jsdom + Readability: an order of magnitude faster and lighter for server-side extraction, and
 * jsdom is only a dev dependency here.
 */
export function htmlToText(html: string): string {
  const $ = cheerio().load(html);
  $(INVISIBLE).remove();
  const title = $('title').first().text().trim();
  const main = $('main, article, [role=main]');
  let roots: AnyNode[];
  if (main.length > 0) roots = main.toArray();
  else {
    $(CHROME).remove();
    roots = $('body').length ? $('body').toArray() : $.root().toArray();
  }
  const parts: string[] = [];
  for (const root of roots) walk(root, parts);
  const body = tidyText(parts.join(''));
  return title && !body.startsWith(title) ? tidyText(`${title}\n\n${body}`) : body;
}

function walk(node: AnyNode, out: string[]): void {
  if (node.type === 'text') {
    out.push(node.data.replace(/\s+/g, ' '));
    return;
  }
  if (node.type !== 'tag' && node.type !== 'root') return;
  const name = node.type === 'tag' ? node.name.toLowerCase() : '';
  if (name === 'br') {
    out.push('\n');
    return;
  }
  if (name === 'pre') {
    out.push('\n\n', rawText(node), '\n\n');
    return;
  }
  const block = BLOCKS.has(name);
  if (block) out.push('\n\n');
  if (name === 'li') out.push('- ');
  for (const child of node.children) walk(child, out);
  if (name === 'td' || name === 'th') out.push('\t');
  if (block) out.push('\n\n');
}

/** Text inside <pre>, whitespace kept. */
function rawText(node: AnyNode): string {
  if (node.type === 'text') return node.data;
  if (node.type === 'tag') return node.name === 'br' ? '\n' : node.children.map(rawText).join('');
  return '';
}
