import type { LlmFragment } from './llm-provider.ts';
import { spanishMatchTerms, termsMatch, type SpanishTerm } from '../language/spanish-analyzer.ts';

/**
 * Picks the sentences of the retrieved fragments that best answer a question, in their original
 * wording. Written here rather than taken from a library because it is a few lines of scoring on
 * top of the maintained pieces (Intl.Segmenter, @orama/stopwords, Snowball stemming).
 *
 * Score of a sentence = IDF-weighted question terms it contains + 0.3 x the same for its whole
 * fragment (so a sentence under a matching heading still counts). Sentences scoring under half the
 * best are left out: padding an answer with weakly related text makes it worse.
 */
export interface ExtractOptions {
  maxSentences?: number;
  /** Longer sentences (unpunctuated chunks) are cut at a word boundary. */
  maxSentenceChars?: number;
}

interface Candidate {
  text: string;
  /** Bit i set when the sentence contains question term i. */
  mask: number;
  fragmentIndex: number;
  order: number;
  score: number;
}

/** Question terms beyond this many are ignored: matches are kept as bits of one 32-bit integer. */
const MAX_QUESTION_TERMS = 30;

const FRAGMENT_WEIGHT = 0.3;
const KEEP_RATIO = 0.5;
const segmenter = new Intl.Segmenter('es', { granularity: 'sentence' });

export function extractAnswer(question: string, fragments: readonly LlmFragment[], options: ExtractOptions = {}): string[] {
  const maxSentences = options.maxSentences ?? 3;
  const maxChars = options.maxSentenceChars ?? 600;
  const cache = new Map<string, SpanishTerm | null>();
  const questionTerms = dedupeTerms(spanishMatchTerms(question, cache)).slice(0, MAX_QUESTION_TERMS);
  if (questionTerms.length === 0 || fragments.length === 0) return [];
  // Each distinct word is compared with the question once; sentences then just OR the bits.
  const masks = new Map<SpanishTerm, number>();
  const maskOf = (terms: SpanishTerm[]): number => {
    let mask = 0;
    for (const term of terms) {
      let bits = masks.get(term);
      if (bits === undefined) {
        bits = 0;
        questionTerms.forEach((q, i) => {
          if (termsMatch(q, term)) bits! |= 1 << i;
        });
        masks.set(term, bits);
      }
      mask |= bits;
    }
    return mask;
  };

  const candidates: Candidate[] = [];
  const fragmentMasks: number[] = [];
  fragments.forEach((fragment, fragmentIndex) => {
    let fragmentMask = 0;
    const lines = fragment.content.split(/\r?\n/).map((line) => line.trim()).filter((line) => /\p{L}/u.test(line));
    lines.forEach((line, lineIndex) => {
      const sentences = [...segmenter.segment(line)].map(({ segment }) => segment.trim().replace(/^(?:[-*•]|#+)\s+/, ''));
      // A short unpunctuated line followed by more text is a heading: it lends its words to the
      // fragment but is no answer by itself.
      const heading = sentences.length === 1 && lineIndex < lines.length - 1 && isHeading(sentences[0]);
      for (const text of sentences) {
        if (!/\p{L}/u.test(text)) continue;
        const mask = maskOf(spanishMatchTerms(text, cache));
        fragmentMask |= mask;
        if (!heading) candidates.push({ text, mask, fragmentIndex, order: candidates.length, score: 0 });
      }
    });
    fragmentMasks.push(fragmentMask);
  });
  if (candidates.length === 0) return [];

  // Inverse document frequency over the candidate sentences: rare question words decide.
  const idf = questionTerms.map((_, i) => {
    const df = candidates.reduce((n, c) => n + ((c.mask >> i) & 1), 0);
    return Math.log(1 + candidates.length / (1 + df));
  });
  const weigh = (mask: number) => idf.reduce((sum, weight, i) => sum + ((mask >> i) & 1 ? weight : 0), 0);
  for (const c of candidates) c.score = weigh(c.mask) + FRAGMENT_WEIGHT * weigh(fragmentMasks[c.fragmentIndex]);

  const ranked = candidates
    .filter((c) => c.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        fragments[b.fragmentIndex].score - fragments[a.fragmentIndex].score ||
        a.order - b.order,
    );
  if (ranked.length === 0) return [];
  const floor = ranked[0].score * KEEP_RATIO;
  const seen = new Set<string>();
  const answer: string[] = [];
  for (const c of ranked) {
    if (c.score < floor || answer.length >= maxSentences) break;
    const key = c.text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    answer.push(truncate(c.text, maxChars));
  }
  return answer;
}

function dedupeTerms(terms: SpanishTerm[]): SpanishTerm[] {
  const unique: SpanishTerm[] = [];
  for (const term of terms) if (!unique.some((u) => termsMatch(u, term))) unique.push(term);
  return unique;
}

function isHeading(text: string): boolean {
  return !/[.!?:;…)"»]$/.test(text) && text.split(/\s+/).length <= 8;
}

function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
