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
  const given = declared.reduce<number>((sum, w) => sum + (w ?? 0), 0);
  const missing = declared.filter((w) => w === undefined).length;
  const share = missing > 0 ? Math.max(0, available - given) / missing : 0;
  let widths = declared.map((w) => w ?? share);
  const sum = widths.reduce((a, b) => a + b, 0);
  if (sum > available + 0.01) widths = widths.map((w) => (w * available) / sum);
  const rounded = widths.map((w) => round(w));
  if (sum > available + 0.01) {
    // The rounding remainder goes into the last column, as the exporter does; an empty last
    // column would otherwise get the others' rounding excess as a negative width.
    const others = rounded.slice(0, -1).reduce((a, b) => a + b, 0);
    rounded[n - 1] = Math.max(0, round(available - others));
  }
  return { widths: rounded, gap: n > 1 ? round(gapTotal / (n - 1)) : 0 };
}

export function horizontal(spacing: Spacing): number {
  return spacing.left + spacing.right;
}
