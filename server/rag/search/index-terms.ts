import { analyzerOf, isLanguage, isUnspacedTerm, type Language } from '../../language/language-analyzers.ts';
import { detectLanguage, detectLanguageOrNull } from '../../language/detect-language.ts';
import { MAX_QUERY_TERMS } from './index-input.ts';

export { ANALYZER_VERSION } from './analyzer-version.ts';
/** The language assumed when a text says too little and nothing overrides it. */
export const DEFAULT_LANGUAGE: Language = 'es';

/** The language a chunk is analysed in: the source's or base's choice, else detected. */
export function chunkLanguage(content: string, override: string | null | undefined): Language {
  return isLanguage(override) ? override : detectLanguage(content, DEFAULT_LANGUAGE);
}

/** A chunk's terms as stored in the full-text column: encoded, space-separated. */
export function chunkTerms(content: string, language: Language): string {
  return analyzerOf(language).terms(content).map(encodeTerm).join(' ');
}

/**
 * A question's terms, in its own language when it tells (its script, its stop words) and the base
 * holds that language; otherwise ("iPhone 15 batería") in every language of the base as well,
 * deduplicated: a word analysed by another language's stemmer mostly yields a term no chunk holds
 * (server/rag/README.md "Languages").
 */
export function queryTerms(query: string, baseLanguages: readonly Language[]): QueryTerms {
  const detected = detectLanguageOrNull(query, baseLanguages[0] ?? null);
  const languages = new Set<Language>(baseLanguages.length > 0 ? baseLanguages : [DEFAULT_LANGUAGE]);
  // A language the base holds is the question's: its terms alone. One it does not hold may be a
  // misreading of a short question (Portuguese read as Spanish): the base's languages stay too.
  if (detected && languages.has(detected)) languages.clear();
  if (detected) languages.add(detected);
  const terms = new Set<string>();
  const functionTerms = new Set<string>();
  const contentTerms = new Set<string>();
  const contentGroups: string[][] = [];
  const bigramTerms = new Set<string>();
  for (const language of languages) {
    const analyzer = analyzerOf(language);
    const group = new Set<string>();
    for (const term of analyzer.terms(query)) {
      const stored = encodeTerm(term);
      if (terms.size >= MAX_QUERY_TERMS && !terms.has(stored)) break;
      terms.add(stored);
      const isFunction = analyzer.isFunctionTerm(term);
      (isFunction ? functionTerms : contentTerms).add(stored);
      if (!isFunction) group.add(stored);
      if (isUnspacedTerm(term)) bigramTerms.add(stored);
    }
    if (group.size > 0) contentGroups.push([...group]);
  }
  // A word one language calls a function word and another does not counts as content.
  for (const term of contentTerms) functionTerms.delete(term);
  return { terms: [...terms], functionTerms, contentGroups, bigramTerms };
}

export interface QueryTerms {
  /** Distinct stored terms, at most MAX_QUERY_TERMS. */
  terms: string[];
  /** Those that are function words: they rank, they never count as evidence (bm25-score.ts). */
  functionTerms: ReadonlySet<string>;
  /**
   * The content terms of each language the question was read in (one group when its language is
   * known): the score is the coverage of the best reading, so a question analysed in three languages
   * is not penalised for the two readings' terms no chunk can hold (bm25-score.ts).
   */
  contentGroups: readonly (readonly string[])[];
  /** Terms that are character bigrams of an unspaced script (Chinese, Japanese, Korean, Thai). */
  bigramTerms: ReadonlySet<string>;
}

/** Parses a stored language list ("en,es"), ignoring anything unknown; empty means "before languages". */
export function parseLanguages(stored: string | null | undefined): Language[] {
  if (!stored) return [];
  return stored.split(',').filter(isLanguage);
}

const ASCII_TERM = /^[a-z0-9]+$/;
const encoded = new Map<string, string>();
const ENCODED_MEMO_LIMIT = 100_000;

/**
 * Terms are stored as plain ASCII words so both engines' tokenizers (FTS5 unicode61, PostgreSQL's
 * `simple` parser) keep each one whole and untouched: an ASCII term as it is, any other as "zz"
 * and a 53-bit hash of it. Without this, FTS5 would fold Vietnamese marks again and PostgreSQL's
 * parser would split Devanagari words at their vowel signs.
 */
export function encodeTerm(term: string): string {
  if (ASCII_TERM.test(term)) return term;
  let out = encoded.get(term);
  if (out === undefined) {
    out = `zz${hash53(term).toString(36)}`;
    if (encoded.size >= ENCODED_MEMO_LIMIT) encoded.clear();
    encoded.set(term, out);
  }
  return out;
}

/** cyrb53: a fast, well-mixed 53-bit string hash (collisions are negligible at index sizes). */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
