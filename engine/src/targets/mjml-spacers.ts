/**
 * A row spacer folded into the padding of the row beside it, where that looks the same: the spacer
 * is a plain colour, the row paints that same colour up to its edge (no border, rounded corner,
 * image, gradient or minimum height), and neither has a dark background of its own, so both get
 * the same dark-mode treatment (targets/dark.ts: same light colour, same box). A section's padding
 * is exact in every client, Outlook included; each spacer folded saves its section (~540 B of
 * html: a div, two tables and Outlook's ghost table) and the mjml target's reader one element.
 * The spacer goes into the previous row's bottom padding, else the next row's top padding.
 */
import type { RowLike, RowNode, SpacerNode } from "../document/model.js";
import { activeGradient } from "../schema/common.js";
import type { DarkColors } from "../schema/dark.js";

/** `rows` with each spacer that can be padding folded into its neighbour; `fill`: the content colour rows paint when they have none. */
export function withSpacersFolded(rows: readonly RowLike[], fill: string): RowLike[] {
  const out: RowLike[] = [];
  let pending: SpacerNode | undefined;
  for (const row of rows) {
    if (pending !== undefined && row.kind === "row" && canTake(row, pending, fill)) {
      out.push(padded(row, pending.height, "top"));
      pending = undefined;
      continue;
    }
    if (pending !== undefined) out.push(pending);
    pending = undefined;
    const previous = out[out.length - 1];
    if (row.kind === "row-spacer" && previous?.kind === "row" && canTake(previous, row, fill)) out[out.length - 1] = padded(previous, row.height, "bottom");
    else if (row.kind === "row-spacer" && isPlain(row)) pending = row;
    else out.push(row);
  }
  if (pending !== undefined) out.push(pending);
  return out;
}

function padded(row: RowNode, height: number, side: "top" | "bottom"): RowNode {
  const padding = row.style.padding;
  return { ...row, style: { ...row.style, padding: { ...padding, [side]: padding[side] + height } } };
}

const hasOwnDarkBackground = (dark: DarkColors | undefined): boolean => Boolean(dark?.backgroundColor) || activeGradient(dark?.backgroundGradient);

/** A spacer of one colour, with nothing of its own in dark mode. */
function isPlain(spacer: SpacerNode): boolean {
  return spacer.height > 0 && !activeGradient(spacer.backgroundGradient) && !hasOwnDarkBackground(spacer.dark);
}

/** Whether `row` shows what `spacer` would, in its padding: the same colour to its edges, light and dark. */
function canTake(row: RowNode, spacer: SpacerNode, fill: string): boolean {
  const s = row.style;
  const color = (c: string) => (c === "transparent" ? fill : c).toLowerCase();
  return (
    isPlain(spacer) &&
    color(s.backgroundColor) === color(spacer.backgroundColor) &&
    // In dark mode a box of the content's colour may take the content's dark colour, a transparent one shows it: the same colours only.
    (s.backgroundColor === spacer.backgroundColor || fill !== "transparent") &&
    !activeGradient(s.backgroundGradient) &&
    s.backgroundImage === "" &&
    s.border.width === 0 &&
    s.border.radius === 0 &&
    s.minHeight === 0 &&
    !hasOwnDarkBackground(s.dark)
  );
}
