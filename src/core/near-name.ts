// "Did you mean": the known name closest to a mistyped one, for flags, variables and scenarios.

/** Edits (insert, delete, replace, swap two neighbours) to turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `typed`, when it is close enough to be what was meant: one slip in
 * three letters. A one- or two-letter word is too short to guess from.
 */
export function nearestName(typed: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && typed.length >= 3 && bestDistance <= Math.max(1, Math.floor(typed.length / 3)) ? best : undefined;
}
