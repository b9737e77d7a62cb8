/**
 * BM25 as Lucene computes it (k1 1.2, b 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5))), over the
 * candidates an engine's own full-text index found, so SQLite and PostgreSQL rank and score alike.
 * FTS5's built-in bm25() uses ln((N - n + 0.5) / (n + 0.5)), which gives a term found in half the
 * chunks no weight at all: in a small base that drops most of a question's words.
 *
 * Rank: a candidate's BM25 over every query term the base holds, relative to a chunk of average
 * length holding each of them once. Score (0..1, what `scoreThreshold` is compared with): the
 * IDF-weighted share of the question's content words the chunk covers, each found word counted with
 * its BM25 saturation, each word the base never uses counted as UNSEEN_WEIGHT of an average found
 * word (server/rag/README.md "What the score means").
 */
const K1 = 1.2;
const B = 0.75;
/**
 * How much a question word no chunk contains weighs in the score's denominator, as a share of the
 * mean idf of the question's words the base does hold. 0 (as before issue 28 item 2) let "Who won
 * the 2010 World Cup?" score 1 on a chunk sharing "won"; 1 (a full word) sank paraphrases whose
 * extra words the documentation never uses ("How much does delivery cost..."). Measured on
 * tests/fixtures/multilingual-qa (on-topic and off-topic.json, 17 languages): see the README.
 */
export const UNSEEN_WEIGHT = 0.6;

export const BIGRAM_UNSEEN_SHARE = 0.25;

export interface Bm25Stats {
  /** Query terms that are function words: in the rank, not in the score. */
  functionTerms: ReadonlySet<string>;
  /** The question's content terms per language it was read in (index-terms.ts queryTerms). */
  contentGroups: readonly (readonly string[])[];
  /** Content terms that are character bigrams (unseen ones weigh BIGRAM_UNSEEN_SHARE of a word). */
  bigramTerms: ReadonlySet<string>;
  /** Live chunks in the base. */
  chunks: number;
  /** Their average length in terms. */
  averageLength: number;
  /** Chunks holding each query term (terms found in none are left out). */
  documentFrequency: ReadonlyMap<string, number>;
}

export function idfOf(chunks: number, documentFrequency: number): number {
  return Math.log(1 + (chunks - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** One reading of the question: its content terms the base holds, and the score's denominator. */
interface ContentGroup {
  terms: readonly string[];
  fullMatch: number;
}

/** The denominators, computed once per search: the rank's, and each reading's score denominator. */
export function fullMatchOf(stats: Bm25Stats): FullMatch {
  let all = 0;
  for (const [term, n] of stats.documentFrequency) if (n > 0) all += idfOf(stats.chunks, n);
  const groups: ContentGroup[] = [];
  for (const group of stats.contentGroups) {
    const seen = group.filter((term) => (stats.documentFrequency.get(term) ?? 0) > 0);
    if (seen.length === 0) continue;
    const seenIdf = seen.reduce((sum, term) => sum + idfOf(stats.chunks, stats.documentFrequency.get(term)!), 0);
    let unseen = 0;
    for (const term of group) if (!((stats.documentFrequency.get(term) ?? 0) > 0)) unseen += stats.bigramTerms.has(term) ? BIGRAM_UNSEEN_SHARE : 1;
    groups.push({ terms: seen, fullMatch: seenIdf + unseen * UNSEEN_WEIGHT * (seenIdf / seen.length) });
  }
  return { all, groups };
}

export interface FullMatch {
  all: number;
  groups: readonly ContentGroup[];
}

/**
 * One chunk, from its stored terms (space-separated, as index-terms.ts writes them): `rank` over
 * every query term relative to its full match (order by it; it may exceed 1: terms repeated, a
 * short chunk), `score` the best reading's coverage, clamped to 1, so a question sharing only
 * function words ("the", "nach") with a chunk scores 0, and one sharing a single word of several
 * scores low.
 */
export function bm25Score(storedTerms: string, stats: Bm25Stats, fullMatch: FullMatch): { rank: number; score: number } {
  if (fullMatch.all <= 0) return { rank: 0, score: 0 };
  const wanted = stats.documentFrequency;
  const tf = new Map<string, number>();
  let length = 0;
  for (const term of storedTerms.split(' ')) {
    if (!term) continue;
    length++;
    if (wanted.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
  }
  const norm = K1 * (1 - B + (B * length) / Math.max(stats.averageLength, 1));
  const parts = new Map<string, number>();
  let all = 0;
  for (const [term, f] of tf) {
    const n = wanted.get(term)!;
    if (n <= 0) continue;
    const idf = idfOf(stats.chunks, n);
    const part = (idf * f * (K1 + 1)) / (f + norm);
    all += part;
    // Coverage: a word counts at most once, however often a short chunk repeats it.
    parts.set(term, Math.min(part, idf));
  }
  let score = 0;
  for (const group of fullMatch.groups) {
    let content = 0;
    for (const term of group.terms) content += parts.get(term) ?? 0;
    score = Math.max(score, content / group.fullMatch);
  }
  return { rank: all / fullMatch.all, score: Math.min(1, score) };
}
