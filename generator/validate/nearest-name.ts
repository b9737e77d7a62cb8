/** Edit distance where an insert, a delete, a substitution or a swap of two neighbours ("hlep") costs 1. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], rows[i - 2][j - 2] + 1);
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
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

/** The `count` closest candidates, nearest first (for lists too long to print whole, like icon names). */
export function nearestNames(value: string, candidates: Iterable<string>, count: number): string[] {
  const wanted = value.toLowerCase();
  return [...candidates]
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate.toLowerCase()) - (candidate.includes(wanted) ? 2 : 0) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.length - b.candidate.length || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
