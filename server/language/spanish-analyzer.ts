import { stemmer } from '@orama/stemmers/spanish';
import { stopwords } from '@orama/stopwords/spanish';

/**
 * The one Spanish analyzer: folding, one stop-word list (@orama/stopwords), Snowball stemming
 * (@orama/stemmers). Two views of it: `spanishTerms` gives the retrieval index its terms (SQLite
 * FTS5, PostgreSQL copies, tests), `spanishMatchTerms` gives the offline provider its loose
 * word matching (server/llm/extract-answer.ts).
 */

/** Lower-case and without combining marks: "Información" -> "informacion", "año" -> "ano". */
export function foldDiacritics(text: string): string {
  return text.toLowerCase().normalize('NFD').replace(/\p{M}+/gu, '');
}

const STOP_WORDS: ReadonlySet<string> = new Set(stopwords.map(foldDiacritics));
const WORD = /[\p{L}\p{N}]+/gu;
/** Words longer than this are not language (hashes, base64); they are kept whole, unstemmed. */
const MAX_STEMMED_LENGTH = 40;
/**
 * Stemming dominates training time and word frequencies are Zipfian, so stems are memoised; the
 * memo is simply dropped when full (cheaper than LRU bookkeeping, and refills with the hot words).
 */
const STEM_MEMO_LIMIT = 100_000;
const stemMemo = new Map<string, string>();

/**
 * The search terms of a Spanish text: lower-cased, diacritics removed, split on runs of Unicode
 * letters and digits, stop words dropped, Snowball-stemmed. Documents and queries go through the
 * same function, so "informacion" finds "información" and "politicas" finds "política".
 *
 * Diacritics are removed BEFORE stemming so that a query typed without accents stems exactly like
 * the accented document. Snowball's Spanish suffix lists spell "-ción"/"-sión" with the accent, so
 * a folded "-cion" would stop conflating with its plural "-ciones" (informacion vs informaciones):
 * that one ending gets its accent back before stemming. Other accented suffixes (-ía, -ías...)
 * stem consistently in their folded form, which is all matching needs.
 */
export function spanishTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of foldDiacritics(text).matchAll(WORD)) {
    const word = match[0];
    if (STOP_WORDS.has(word)) continue;
    let stem = stemMemo.get(word);
    if (stem === undefined) {
      if (stemMemo.size >= STEM_MEMO_LIMIT) stemMemo.clear();
      stem = stemWord(word);
      stemMemo.set(word, stem);
    }
    terms.push(stem);
  }
  return terms;
}

function stemWord(word: string): string {
  if (word.length > MAX_STEMMED_LENGTH || /^\p{N}+$/u.test(word)) return word;
  const accented = word.endsWith('cion') || word.endsWith('sion') ? `${word.slice(0, -3)}ión` : word;
  return foldDiacritics(stemmer(accented));
}

/**
 * A word as the offline provider matches it. Snowball stems accented and unaccented spellings
 * differently ("devolución" -> "devolu", "devolucion" -> "devolucion"), and visitors often type
 * without accents, so each word carries both stems; two words match when a key is shared or one
 * key is a prefix (>= 5 letters) of the other (termsMatch).
 */
export interface SpanishTerm {
  keys: string[];
}

const MIN_PREFIX_MATCH = 5;

/** The words of a text for loose matching, stop words dropped; `cache` memoises per word. */
export function spanishMatchTerms(text: string, cache?: Map<string, SpanishTerm | null>): SpanishTerm[] {
  const terms: SpanishTerm[] = [];
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    let term = cache?.get(word);
    if (term === undefined) {
      term = toMatchTerm(word);
      cache?.set(word, term);
    }
    if (term) terms.push(term);
  }
  return terms;
}

function toMatchTerm(word: string): SpanishTerm | null {
  const plain = foldDiacritics(word);
  if (STOP_WORDS.has(plain)) return null;
  // Single letters carry no meaning; numbers do ("30 días").
  if (plain.length < 2 && !/\d/.test(plain)) return null;
  const keys = new Set([foldDiacritics(stemmer(word)), stemmer(plain)]);
  return { keys: [...keys] };
}

export function termsMatch(a: SpanishTerm, b: SpanishTerm): boolean {
  for (const x of a.keys) {
    for (const y of b.keys) {
      if (x === y) return true;
      const [short, long] = x.length <= y.length ? [x, y] : [y, x];
      if (short.length >= MIN_PREFIX_MATCH && long.startsWith(short)) return true;
    }
  }
  return false;
}
