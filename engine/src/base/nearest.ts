/**
 * "Did you mean …?": the known name nearest to one that is not known (a block type, a prop, a
 * merge-tag group). Names are compared without case, with the spellings authors bring from other
 * tools read as ours (`bg` as `background`, `colour` as `color`), by edit distance (a swap of two
 * neighbours counts once); a candidate that is too far off is no suggestion at all.
 */

/** Spellings read as the word they stand for before names are compared. */
const SYNONYMS: readonly (readonly [RegExp, string])[] = [
  [/^bg(?=[A-Z_-]|$)|(?<=[a-z])Bg(?=[A-Z_-]|$)/g, "background"],
  [/colour/gi, "color"],
  [/grey/gi, "gray"],
];

function normal(name: string): string {
  let out = name;
  for (const [pattern, replacement] of SYNONYMS) out = out.replace(pattern, replacement);
  return out.toLowerCase().replace(/[-_\s]/g, "");
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * The candidate nearest to `name`, or undefined when none is close: equal but for case, separators
 * or the synonyms above; else within an edit distance of a third of the name's length (at least 1,
 * at most 3). Ties go to the candidate listed first.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = normal(name);
  if (wanted === "") return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = editDistance(wanted, normal(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
