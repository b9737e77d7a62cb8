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
  /** Query terms that are function words: in the rank, not in the score. */
  functionTerms: ReadonlySet<string>;
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

/** The denominators: the idf of each query term present in the base (all of them; content words only). */
export function fullMatchOf(stats: Bm25Stats): FullMatch {
  let all = 0;
  let content = 0;
  for (const [term, n] of stats.documentFrequency) {
    if (n <= 0) continue;
    const idf = idfOf(stats.chunks, n);
    all += idf;
    if (!stats.functionTerms.has(term)) content += idf;
  }
  return { all, content };
}

export interface FullMatch {
  all: number;
  content: number;
}

/**
 * One chunk, from its stored terms (space-separated, as index-terms.ts writes them): `rank` over
 * every query term, `score` over content words only, each relative to its full match (1: a chunk
 * of average length holding each present query term once). `rank` may exceed 1 (terms repeated, a
 * short chunk): order by it; `score` is clamped to 1 and is what the threshold is compared with,
 * so a question sharing only function words ("the", "nach") with a chunk scores 0.
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
  let all = 0;
  let content = 0;
  for (const [term, f] of tf) {
    const n = wanted.get(term)!;
    if (n <= 0) continue;
    const part = (idfOf(stats.chunks, n) * f * (K1 + 1)) / (f + norm);
    all += part;
    if (!stats.functionTerms.has(term)) content += part;
  }
  return { rank: all / fullMatch.all, score: fullMatch.content > 0 ? Math.min(1, content / fullMatch.content) : 0 };
}
