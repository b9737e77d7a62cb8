import type { LlmFragment } from './llm-provider.ts';
import { spanishMatchTerms, termsMatch, type SpanishTerm } from '../language/spanish-analyzer.ts';
import { analyzerOf, isUnspacedTerm, type Language } from '../language/language-analyzers.ts';
import { detectLanguage, detectLanguageOrNull } from '../language/detect-language.ts';
import { splitSentences } from '../language/split-sentences.ts';
import { UNSEEN_WEIGHT } from '../rag/search/bm25-score.ts';

/**
 * Picks the sentences of ONE retrieved fragment that best answer a question, in their original
 * wording and order (never sentences of different sources run together), and says how much of
 * the question they cover. Written here rather than taken from a library because it is a few lines
 * of scoring on top of the maintained pieces (Intl.Segmenter, Snowball stemming, the analyzers).
 *
 * Score of a sentence = IDF-weighted question terms it contains + 0.3 x the same for its whole
 * fragment (so a sentence under a matching heading still counts). The fragment of the best
 * sentence answers, alone; its sentences scoring under half the best are left out: padding an
 * answer with weakly related text makes it worse.
 *
 * Coverage (0..1) of the chosen sentences, as the retrieval score counts it (bm25-score.ts) but
 * without corpus statistics: found question words / (found + UNSEEN_WEIGHT x missing ones), words
 * of unspaced scripts by their characters (coverageOf). The offline provider answers only at
 * MIN_ANSWER_COVERAGE or more.
 */
export interface ExtractOptions {
  maxSentences?: number;
  /** Longer sentences (unpunctuated chunks) are cut at a word boundary. */
  maxSentenceChars?: number;
}

export interface ExtractedAnswer {
  sentences: string[];
  /** Index in `fragments` of the one fragment the sentences come from. */
  fragmentIndex: number;
  coverage: number;
}

/** Below this coverage the retrieved fragment does not really answer: the offline provider says so. */
export const MIN_ANSWER_COVERAGE = 0.5;

interface Candidate {
  text: string;
  /** Bit i set when the sentence contains question term i. */
  mask: number;
  fragmentIndex: number;
  order: number;
  score: number;
}

/** One question or sentence word as matched here: its keys (two for Spanish: accented and not). */
type MatchTerm = SpanishTerm & { bigram?: boolean };

/** Question terms beyond this many are ignored: matches are kept as bits of one 32-bit integer. */
const MAX_QUESTION_TERMS = 30;

const FRAGMENT_WEIGHT = 0.3;
const KEEP_RATIO = 0.5;

export function extractAnswer(question: string, fragments: readonly LlmFragment[], options: ExtractOptions = {}): ExtractedAnswer | null {
  const maxSentences = options.maxSentences ?? 3;
  const maxChars = options.maxSentenceChars ?? 600;
  if (fragments.length === 0) return null;
  const questionLanguage = detectLanguageOrNull(question);
  const matcher = new TermMatcher();
  // Each fragment is read in its own language, the question in that language too, so stems agree.
  const languages = fragments.map((f) => detectLanguage(f.content, questionLanguage ?? 'es'));
  const questionTerms = new Map<Language, MatchTerm[]>();
  const questionTermsIn = (language: Language): MatchTerm[] => {
    let terms = questionTerms.get(language);
    if (!terms) {
      terms = dedupeTerms(matcher.terms(question, language)).slice(0, MAX_QUESTION_TERMS);
      questionTerms.set(language, terms);
    }
    return terms;
  };

  const candidates: Candidate[] = [];
  const fragmentMasks: number[] = [];
  fragments.forEach((fragment, fragmentIndex) => {
    const language = languages[fragmentIndex];
    const wanted = questionTermsIn(language);
    // Each distinct word is compared with the question once; sentences then just OR the bits.
    const masks = new Map<MatchTerm, number>();
    const maskOf = (terms: MatchTerm[]): number => {
      let mask = 0;
      for (const term of terms) {
        let bits = masks.get(term);
        if (bits === undefined) {
          bits = 0;
          wanted.forEach((q, i) => {
            if (termsMatch(q, term)) bits! |= 1 << i;
          });
          masks.set(term, bits);
        }
        mask |= bits;
      }
      return mask;
    };
    let fragmentMask = 0;
    for (const sentence of splitSentences(fragment.content, language)) {
      const text = sentence.text;
      if (!/\p{L}/u.test(text)) continue;
      const mask = wanted.length > 0 ? maskOf(matcher.terms(text, language)) : 0;
      fragmentMask |= mask;
      if (!sentence.heading) candidates.push({ text, mask, fragmentIndex, order: candidates.length, score: 0 });
    }
    fragmentMasks.push(fragmentMask);
  });
  if (candidates.length === 0) return null;

  // Inverse document frequency over the candidate sentences (of the fragments in the question's
  // language reading): rare question words decide.
  const idfOf = (fragmentIndex: number, i: number): number => {
    let df = 0;
    let n = 0;
    for (const c of candidates) {
      if (languages[c.fragmentIndex] !== languages[fragmentIndex]) continue;
      n++;
      df += (c.mask >> i) & 1;
    }
    return Math.log(1 + n / (1 + df));
  };
  const idfs = new Map<Language, number[]>();
  const weightsOf = (fragmentIndex: number): number[] => {
    const language = languages[fragmentIndex];
    let weights = idfs.get(language);
    if (!weights) {
      weights = questionTermsIn(language).map((_, i) => idfOf(fragmentIndex, i));
      idfs.set(language, weights);
    }
    return weights;
  };
  const weigh = (mask: number, weights: number[]) => weights.reduce((sum, weight, i) => sum + ((mask >> i) & 1 ? weight : 0), 0);
  for (const c of candidates) {
    const weights = weightsOf(c.fragmentIndex);
    c.score = weigh(c.mask, weights) + FRAGMENT_WEIGHT * weigh(fragmentMasks[c.fragmentIndex], weights);
  }

  const ranked = candidates
    .filter((c) => c.mask !== 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        fragments[b.fragmentIndex].score - fragments[a.fragmentIndex].score ||
        a.order - b.order,
    );
  if (ranked.length === 0) return null;
  // The fragment of the best sentence answers (ties: the better-retrieved fragment).
  const best = ranked[0];
  const floor = best.score * KEEP_RATIO;
  const seen = new Set<string>();
  const chosen: Candidate[] = [];
  for (const c of ranked) {
    if (c.score < floor || chosen.length >= maxSentences) break;
    if (c.fragmentIndex !== best.fragmentIndex) continue;
    const key = c.text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    chosen.push(c);
  }
  chosen.sort((a, b) => a.order - b.order);
  const terms = questionTermsIn(languages[best.fragmentIndex]);
  const covered = chosen.reduce((mask, c) => mask | c.mask, 0);
  return {
    sentences: chosen.map((c) => truncate(c.text, maxChars)),
    fragmentIndex: best.fragmentIndex,
    coverage: coverageOf(question, terms, covered),
  };
}

/**
 * Found question words against found + UNSEEN_WEIGHT x missing ones. Words of unspaced scripts are
 * counted by their characters (two to a word), covered when a matched bigram holds them: the
 * bigrams that straddle two words ("てく", "ださ" of "教えてください") match by chance, characters
 * of real words do not.
 */
function coverageOf(question: string, terms: readonly MatchTerm[], mask: number): number {
  let found = 0;
  let missing = 0;
  const bigrams: string[] = [];
  terms.forEach((term, i) => {
    const hit = ((mask >> i) & 1) === 1;
    if (term.bigram) {
      if (hit) bigrams.push(term.keys[0]);
    } else if (hit) found++;
    else missing++;
  });
  const text = question.normalize('NFC').toLowerCase();
  const covered = new Uint8Array(text.length);
  for (const bigram of bigrams) {
    for (let at = text.indexOf(bigram); at >= 0; at = text.indexOf(bigram, at + 1)) covered.fill(1, at, at + bigram.length);
  }
  let characters = 0;
  let coveredCharacters = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isUnspacedTerm(text[i]) || !/\p{L}/u.test(text[i])) continue;
    characters++;
    coveredCharacters += covered[i];
  }
  found += coveredCharacters / 2;
  missing += (characters - coveredCharacters) / 2;
  return found === 0 ? 0 : found / (found + UNSEEN_WEIGHT * missing);
}

/**
 * Content words of a text in a language: Spanish through its loose matcher (accented and plain
 * stems, prefixes), any other language through its analyzer with function words left out.
 */
class TermMatcher {
  readonly #spanish = new Map<string, SpanishTerm | null>();
  readonly #other = new Map<string, MatchTerm>();

  terms(text: string, language: Language): MatchTerm[] {
    if (language === 'es') {
      const unspaced = isUnspacedTerm(text) ? analyzerOf('es').terms(text).filter(isUnspacedTerm) : [];
      return [...spanishMatchTerms(text, this.#spanish), ...unspaced.map((t) => this.#term(t))];
    }
    const analyzer = analyzerOf(language);
    return analyzer
      .terms(text)
      .filter((term) => !analyzer.isFunctionTerm(term))
      .map((term) => this.#term(term));
  }

  #term(term: string): MatchTerm {
    let out = this.#other.get(term);
    if (!out) {
      out = { keys: [term], ...(isUnspacedTerm(term) ? { bigram: true } : {}) };
      this.#other.set(term, out);
    }
    return out;
  }
}

function dedupeTerms(terms: MatchTerm[]): MatchTerm[] {
  const unique: MatchTerm[] = [];
  for (const term of terms) if (!unique.some((u) => termsMatch(u, term))) unique.push(term);
  return unique;
}

function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
