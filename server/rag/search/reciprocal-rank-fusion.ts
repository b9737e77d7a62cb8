/** The constant of Cormack et al. (2009); damps the weight of the very first ranks. */
export const RRF_K = 60;

export interface RankedItem {
  key: string;
  /** The item's own 0..1 score in its list. */
  score: number;
}

export interface FusedItem {
  key: string;
  /** Sum over lists of 1 / (k + rank), rank from 1: the order. */
  fusion: number;
  /** Best 0..1 score the item got in any list: what the caller's threshold was applied to. */
  score: number;
}

/**
 * Reciprocal-rank fusion: an item ranked well by several retrievers beats one ranked first by only
 * one, without comparing their incomparable raw scores (BM25 vs cosine). Lists are best-first.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly RankedItem[]>, k = RRF_K): FusedItem[] {
  const fused = new Map<string, FusedItem>();
  for (const list of lists) {
    list.forEach((item, index) => {
      const entry = fused.get(item.key) ?? { key: item.key, fusion: 0, score: 0 };
      entry.fusion += 1 / (k + index + 1);
      entry.score = Math.max(entry.score, item.score);
      fused.set(item.key, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.fusion - a.fusion || b.score - a.score);
}
