import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { foldDiacritics, spanishTerms } from './spanish-analyzer.ts';
import { scoreStopWords } from './function-words.ts';

/**
 * The languages retrieval analyses on its own terms (server/rag/README.md "Languages"). Any other
 * text is still indexed by the fallback analyzer: words lower-cased, scripts without spaces as
 * character bigrams.
 */
export const LANGUAGES = ['es', 'en', 'de', 'fr', 'it', 'pt', 'ro', 'ru', 'tr', 'ar', 'el', 'hi', 'vi', 'zh', 'ja', 'ko', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** One language's analysis: how a text becomes its search terms. */
export interface LanguageAnalyzer {
  terms(text: string): string[];
  /**
   * Whether a term (as terms() makes it) is a function word: kept in the index and used to rank,
   * but no evidence that a chunk answers (bm25-score.ts leaves it out of the score).
   */
  isFunctionTerm(term: string): boolean;
}

/**
 * Runs of letters, marks and digits: Devanagari vowel signs and Thai tone marks stay inside their
 * word, as in the floor's analyzer (shared/retrieval/bm25_lang.py).
 */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/**
 * Scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar) and Hangul,
 * whose particles are glued to the noun: indexed as overlapping character bigrams, as Lucene's
 * CJKAnalyzer does, so "退货政策" matches "退货" without a dictionary.
 */
const UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
/** Words longer than this are not language (hashes, base64): kept whole, never stemmed. */
const MAX_STEMMED_LENGTH = 40;
const MEMO_LIMIT = 50_000;

interface SnowballOptions {
  stem: ((word: string) => string) | null;
  /** Function words (function-words.ts): ranked, but never counted as evidence in the score. */
  stopWords: string;
  /** Remove combining marks after stemming; false where marks tell words apart (Vietnamese, Hindi). */
  fold: boolean;
  /** Locale of lower-casing where it differs (Turkish dotted and dotless i). */
  locale?: string;
}

/**
 * Lower-case, split, stem, fold; unspaced scripts become bigrams. Every word is kept, function
 * words too: dropping them lost answers that ranking on them finds ("Wann bekomme ich nach einer
 * Rücksendung..."); instead they are marked (isFunctionTerm), so a question sharing only "the" or
 * "nach" with a chunk never scores as an answer.
 */
function snowballAnalyzer({ stem, stopWords, fold, locale }: SnowballOptions): LanguageAnalyzer {
  const lower = (text: string) => (locale ? text.toLocaleLowerCase(locale) : text.toLowerCase());
  const stops = new Set(stopWords ? lower(stopWords).split(' ') : []);
  let functionTerms: Set<string> | null = null;
  // Stemming dominates training time and word frequencies are Zipfian: memoised, dropped when full.
  const memo = new Map<string, string>();
  const normalise = (word: string): string => {
    let out = memo.get(word);
    if (out !== undefined) return out;
    out = word;
    if (stem && word.length <= MAX_STEMMED_LENGTH && !/^\p{N}+$/u.test(word)) out = stem(word);
    if (fold) out = foldDiacritics(out);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, out);
    return out;
  };
  return {
    terms(text) {
      const terms: string[] = [];
      for (const match of lower(text.normalize('NFC')).matchAll(WORD)) {
        const word = match[0];
        if (UNSPACED.test(word)) {
          pushBigrams(word, terms);
          continue;
        }
        const term = normalise(word);
        if (term) terms.push(term);
      }
      return terms;
    },
    isFunctionTerm(term) {
      functionTerms ??= new Set([...stops].map(normalise));
      return functionTerms.has(term) || isLoneLetter(term);
    },
  };
}

/**
 * Overlapping bigrams of the unspaced characters of a word; characters of other scripts inside it
 * (Latin product names in Chinese text) stay words of their own.
 */
function pushBigrams(word: string, out: string[]): void {
  let run: string[] = [];
  let other = '';
  const flushRun = () => {
    if (run.length === 1) out.push(run[0]);
    for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
    run = [];
  };
  for (const ch of word) {
    if (UNSPACED.test(ch)) {
      if (other) out.push(other), (other = '');
      run.push(ch);
    } else if (/\p{M}/u.test(ch) && run.length > 0) {
      // A Thai vowel or tone mark belongs to the consonant before it.
      run[run.length - 1] += ch;
    } else {
      flushRun();
      other += ch;
    }
  }
  flushRun();
  if (other) out.push(other);
}

/**
 * A single letter of a spaced script is never evidence: elisions ("l'Australie", "dell'ordine"),
 * "can't" split at the apostrophe, initials. A single Han character is a word and is kept.
 */
function isLoneLetter(term: string): boolean {
  return term.length === 1 && /\p{L}/u.test(term) && !UNSPACED.test(term);
}

/** Whether a term is (part of) a word of a script written without spaces, indexed as bigrams. */
export function isUnspacedTerm(term: string): boolean {
  return UNSPACED.test(term);
}

const unspaced: LanguageAnalyzer = snowballAnalyzer({ stem: null, stopWords: '', fold: false });

/** Spanish keeps its original analyzer, so indexes trained before languages existed stay valid. */
const spanish: LanguageAnalyzer = {
  // Its stop words never reach the terms at all (spanish-analyzer.ts).
  isFunctionTerm: isLoneLetter,
  terms: (text) => {
    // Spanish text quoting Chinese: the unspaced runs still become bigrams.
    if (!UNSPACED.test(text)) return spanishTerms(text);
    return unspaced.terms(text).flatMap((t) => (UNSPACED.test(t) ? [t] : spanishTerms(t)));
  },
};

/** Every language by its ISO 639-1 code; a missing code is a programming error, never a silent fallback. */
export const LANGUAGE_ANALYZERS: Readonly<Record<Language, LanguageAnalyzer>> = {
  es: spanish,
  en: snowballAnalyzer({ stem: english, stopWords: scoreStopWords('en'), fold: true }),
  de: snowballAnalyzer({ stem: german, stopWords: scoreStopWords('de'), fold: true }),
  fr: snowballAnalyzer({ stem: french, stopWords: scoreStopWords('fr'), fold: true }),
  it: snowballAnalyzer({ stem: italian, stopWords: scoreStopWords('it'), fold: true }),
  pt: snowballAnalyzer({ stem: portuguese, stopWords: scoreStopWords('pt'), fold: true }),
  ro: snowballAnalyzer({ stem: romanian, stopWords: scoreStopWords('ro'), fold: true }),
  ru: snowballAnalyzer({ stem: russian, stopWords: scoreStopWords('ru'), fold: true }),
  tr: snowballAnalyzer({ stem: turkish, stopWords: scoreStopWords('tr'), fold: true, locale: 'tr' }),
  ar: snowballAnalyzer({ stem: arabic, stopWords: scoreStopWords('ar'), fold: true }),
  el: snowballAnalyzer({ stem: greek, stopWords: scoreStopWords('el'), fold: true }),
  hi: snowballAnalyzer({ stem: hindi, stopWords: scoreStopWords('hi'), fold: false }),
  // Vietnamese marks distinguish words (ma, mà, má, mả, mã, mạ): never folded, no stemmer.
  vi: snowballAnalyzer({ stem: null, stopWords: scoreStopWords('vi'), fold: false }),
  zh: unspaced,
  ja: unspaced,
  ko: unspaced,
  th: unspaced,
};

export function analyzerOf(language: Language): LanguageAnalyzer {
  const analyzer = LANGUAGE_ANALYZERS[language];
  if (!analyzer) throw new Error(`No analyzer for language "${language}": add it to LANGUAGE_ANALYZERS in server/language/language-analyzers.ts`);
  return analyzer;
}
