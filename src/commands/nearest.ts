// "Did you mean": the known word nearest to one typed, by edit distance (Levenshtein).

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The candidate nearest to `word` (case ignored), ties to the first; undefined when there is none. */
export function nearest(word: string, candidates: readonly string[]): { word: string; distance: number } | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (!best || d < best.distance) best = { word: c, distance: d };
  }
  return best;
}
