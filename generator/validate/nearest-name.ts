/** Edit distance (insert, delete, substitute = 1), computed on one row. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidate a typo most likely meant ("strng" -> "string", "Knowledge" -> "knowledge"), or
 * undefined when nothing is close enough to be worth suggesting (a third of the word may differ).
 */
export function nearestName(value: string, candidates: Iterable<string>): string | undefined {
  const wanted = value.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === value) return undefined;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) { best = candidate; bestDistance = distance; }
  }
  const allowed = Math.max(1, Math.floor(Math.max(value.length, 3) / 3));
  return bestDistance <= allowed ? best : undefined;
}
