import { stemmer } from '@orama/stemmers/spanish';
import stopwordsIso from 'stopwords-iso' with { type: 'json' };

/**
 * Spanish-aware term matching for the offline provider: lower-case, diacritics stripped, stop words
 * dropped (stopwords-iso), Snowball-stemmed (@orama/stemmers).
 *
 * Snowball stems accented and unaccented spellings differently ("devolución" -> "devolu",
 * "devolucion" -> "devolucion"), and visitors often type without accents, so each word carries both
 * stems and two words match when a key is shared or one key is a prefix (>= 5 letters) of the other.
 */
export interface SpanishTerm {
  keys: string[];
}

const MIN_PREFIX_MATCH = 5;

export function stripDiacritics(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '');
}

const STOP_WORDS = new Set((stopwordsIso.es as string[]).map((word) => stripDiacritics(word.toLowerCase())));

export function spanishTerms(text: string, cache?: Map<string, SpanishTerm | null>): SpanishTerm[] {
  const terms: SpanishTerm[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let term = cache?.get(word);
    if (term === undefined) {
      term = toTerm(word);
      cache?.set(word, term);
    }
    if (term) terms.push(term);
  }
  return terms;
}

function toTerm(word: string): SpanishTerm | null {
  const plain = stripDiacritics(word);
  if (STOP_WORDS.has(plain)) return null;
  // Single letters carry no meaning; numbers do ("30 días").
  if (plain.length < 2 && !/\d/.test(plain)) return null;
  const keys = new Set([stripDiacritics(stemmer(word)), stemmer(plain)]);
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
