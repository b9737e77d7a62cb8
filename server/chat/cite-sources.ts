import type { Citation } from './chat-types.ts';
import { detectLanguage } from '../language/detect-language.ts';
import { isUnspacedTerm } from '../language/language-analyzers.ts';
import { splitSentences } from '../language/split-sentences.ts';

/** A fragment that went into the prompt, as the retrieval layer gave it. */
export interface CitableFragment {
  source: string;
  hash: string;
  content: string;
}

export const MAX_CITATIONS = 3;
export const EXCERPT_CHARS = 200;

/**
 * The sources an answer cites. An answer that quotes fragments (the offline provider copies their
 * sentences) cites exactly the fragments it quotes; a model's paraphrase cannot be traced to one
 * fragment, so it cites the fragments it was given, best first. One citation per fragment, at most
 * MAX_CITATIONS, each with a short excerpt: the quoted sentence when there is one, else the
 * fragment's opening words.
 */
export function citeSources(answer: string, fragments: readonly CitableFragment[]): Citation[] {
  const unique = [...new Map(fragments.map((f) => [f.hash, f])).values()];
  const quoted = unique
    .map((fragment) => ({ fragment, sentence: quotedSentence(answer, fragment.content) }))
    .filter((q): q is { fragment: CitableFragment; sentence: string } => q.sentence !== null);
  const cited = quoted.length > 0 ? quoted : unique.map((fragment) => ({ fragment, sentence: fragment.content }));
  return cited.slice(0, MAX_CITATIONS).map(({ fragment, sentence }) => ({
    source: fragment.source,
    fragmentId: fragment.hash,
    excerpt: excerptOf(sentence),
  }));
}

/** The first sentence of `content` the answer repeats word for word (at least 20 characters), or null. */
function quotedSentence(answer: string, content: string): string | null {
  const flat = squash(answer);
  for (const { text } of splitSentences(content, detectLanguage(content, 'es'))) {
    const s = squash(text);
    if (s.length >= minQuoteChars(s) && flat.includes(s)) return text;
  }
  return null;
}

/** A quote long enough not to be chance: 20 characters, 8 in scripts of one character per word. */
function minQuoteChars(sentence: string): number {
  return isUnspacedTerm(sentence) ? 8 : 20;
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function excerptOf(text: string): string {
  const flat = squash(text);
  if (flat.length <= EXCERPT_CHARS) return flat;
  const cut = flat.slice(0, EXCERPT_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > EXCERPT_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
