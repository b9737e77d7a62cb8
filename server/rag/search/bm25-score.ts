/**
 * BM25 as Lucene computes it (k1 1.2, b 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5))), over the
 * candidates an engine's own full-text index found, so SQLite and PostgreSQL rank and score alike.
 * FTS5's built-in bm25() uses ln((N - n + 0.5) / (n + 0.5)), which gives a term found in half the
 * chunks no weight at all: in a small base that drops most of a question's words.
 *
 * Score (0..1): a candidate's BM25 divided by that of a chunk of average length holding each query
 * term found in the base once, i.e. the sum of their idf (server/rag/README.md "What the score means").
 */
const K1 = 1.2;
const B = 0.75;

export interface Bm25Stats {
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

/** The denominator of every score: the idf of each query term present in the base. */
export function fullMatchOf(stats: Bm25Stats): number {
  let sum = 0;
  for (const n of stats.documentFrequency.values()) if (n > 0) sum += idfOf(stats.chunks, n);
  return sum;
}

/**
 * Relevance of one chunk from its stored terms (space-separated, as index-terms.ts writes them),
 * relative to fullMatch: 1 is a chunk of average length holding each present query term once. It
 * may exceed 1 (terms repeated, a short chunk): rank by it, and clamp only the score shown.
 */
export function bm25Score(storedTerms: string, stats: Bm25Stats, fullMatch: number): number {
  if (fullMatch <= 0) return 0;
  const wanted = stats.documentFrequency;
  const tf = new Map<string, number>();
  let length = 0;
  for (const term of storedTerms.split(' ')) {
    if (!term) continue;
    length++;
    if (wanted.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
  }
  const norm = K1 * (1 - B + (B * length) / Math.max(stats.averageLength, 1));
  let score = 0;
  for (const [term, f] of tf) {
    const n = wanted.get(term)!;
    if (n > 0) score += (idfOf(stats.chunks, n) * f * (K1 + 1)) / (f + norm);
  }
  return score / fullMatch;
}
