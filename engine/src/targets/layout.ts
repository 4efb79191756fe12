/**
 * Column geometry. Exported templates already carry widths scaled by (100 − total gap %), with the
 * rounding remainder in the last column; hand-written ones often sum to 100. Both render the same:
 * widths that overfill the row are scaled to leave room for the gaps, missing widths share what the
 * others leave, and each gap becomes an empty spacer column of `gap` px expressed as a percentage.
 */
import { round } from "../markup/style.js";
import type { Spacing } from "../schema/common.js";

export interface ColumnLayout {
  /** Percent of the row for each column, in order. */
  readonly widths: readonly number[];
  /** Percent of the row for each gap between two columns. */
  readonly gap: number;
}

export function layoutColumns(declared: ReadonlyArray<number | undefined>, gapPx: number, rowInnerWidth: number): ColumnLayout {
  const n = declared.length;
  if (n === 0) return { widths: [], gap: 0 };
  const gapTotal = n > 1 && rowInnerWidth > 0 ? Math.min(50, ((gapPx * (n - 1)) / rowInnerWidth) * 100) : 0;
  const available = 100 - gapTotal;
  // Index loops, not a callback per column for each step (each a call in QuickJS); the sums add in the same order.
  let given = 0;
  let missing = 0;
  for (let i = 0; i < n; i++) {
    const w = declared[i];
    if (w === undefined) missing++;
    else given += w;
  }
  const share = missing > 0 ? Math.max(0, available - given) / missing : 0;
  const widths: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const w = declared[i] ?? share;
    widths.push(w);
    sum += w;
  }
  const scaled = sum > available + 0.01;
  const rounded: number[] = [];
  for (let i = 0; i < n; i++) rounded.push(round(scaled ? (widths[i]! * available) / sum : widths[i]!));
  if (scaled) {
    // The rounding remainder goes into the last column, as the exporter does; an empty last
    // column would otherwise get the others' rounding excess as a negative width.
    let others = 0;
    for (let i = 0; i < n - 1; i++) others += rounded[i]!;
    rounded[n - 1] = Math.max(0, round(available - others));
  }
  return { widths: rounded, gap: n > 1 ? round(gapTotal / (n - 1)) : 0 };
}

export function horizontal(spacing: Spacing): number {
  return spacing.left + spacing.right;
}
