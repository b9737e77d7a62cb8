import type { LlmFragment } from './llm-provider.ts';
import { spanishTerms, termsMatch, type SpanishTerm } from './spanish-terms.ts';

/**
 * Picks the sentences of the retrieved fragments that best answer a question, in their original
 * wording. Written here rather than taken from a library because it is a few lines of scoring on
 * top of the maintained pieces (Intl.Segmenter, stopwords-iso, Snowball stemming).
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
  terms: SpanishTerm[];
  fragmentIndex: number;
  order: number;
  score: number;
}

const FRAGMENT_WEIGHT = 0.3;
const KEEP_RATIO = 0.5;
const segmenter = new Intl.Segmenter('es', { granularity: 'sentence' });

export function extractAnswer(question: string, fragments: readonly LlmFragment[], options: ExtractOptions = {}): string[] {
  const maxSentences = options.maxSentences ?? 3;
  const maxChars = options.maxSentenceChars ?? 600;
  const cache = new Map<string, SpanishTerm | null>();
  const questionTerms = dedupeTerms(spanishTerms(question, cache));
  if (questionTerms.length === 0 || fragments.length === 0) return [];

  const candidates: Candidate[] = [];
  const fragmentMatches: boolean[][] = [];
  fragments.forEach((fragment, fragmentIndex) => {
    const matched = questionTerms.map(() => false);
    const lines = fragment.content.split(/\r?\n/).map((line) => line.trim()).filter((line) => /\p{L}/u.test(line));
    lines.forEach((line, lineIndex) => {
      const sentences = [...segmenter.segment(line)].map(({ segment }) => segment.trim().replace(/^(?:[-*•]|#+)\s+/, ''));
      // A short unpunctuated line followed by more text is a heading: it lends its words to the
      // fragment but is no answer by itself.
      const heading = sentences.length === 1 && lineIndex < lines.length - 1 && isHeading(sentences[0]);
      for (const text of sentences) {
        if (!/\p{L}/u.test(text)) continue;
        const terms = spanishTerms(text, cache);
        markMatches(questionTerms, terms, matched);
        if (!heading) candidates.push({ text, terms, fragmentIndex, order: candidates.length, score: 0 });
      }
    });
    fragmentMatches.push(matched);
  });
  if (candidates.length === 0) return [];

  // Inverse document frequency over the candidate sentences: rare question words decide.
  const idf = questionTerms.map((q) => {
    const df = candidates.reduce((n, c) => n + (c.terms.some((t) => termsMatch(q, t)) ? 1 : 0), 0);
    return Math.log(1 + candidates.length / (1 + df));
  });
  const weigh = (matched: boolean[]) => matched.reduce((sum, hit, i) => sum + (hit ? idf[i] : 0), 0);
  const fragmentScores = fragmentMatches.map(weigh);
  for (const c of candidates) {
    const matched = questionTerms.map(() => false);
    markMatches(questionTerms, c.terms, matched);
    c.score = weigh(matched) + FRAGMENT_WEIGHT * fragmentScores[c.fragmentIndex];
  }

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

function markMatches(questionTerms: SpanishTerm[], terms: SpanishTerm[], matched: boolean[]): void {
  questionTerms.forEach((q, i) => {
    if (!matched[i] && terms.some((t) => termsMatch(q, t))) matched[i] = true;
  });
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
