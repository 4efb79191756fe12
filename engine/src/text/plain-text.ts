/**
 * The plain-text version of an email (the `text/plain` part every sending provider accepts next to
 * the html): what a recipient reads, in reading order, from the same visible set as the html.
 *
 * Rules (spec/template.md, "Plain text"): rows top to bottom, columns left to right, each block as
 * its own `text` form says (headings and paragraphs as paragraphs separated by a blank line, links
 * and buttons as `label (url)`, images as their alt text, …); row spacers, the preheader and hidden
 * nodes (visibility rules, `desktopHide`) left out. A row whose columns
 * are each one short line (a receipt's item, quantity, price) stays one line. Merge values are
 * substituted unescaped — this is text, not markup — and lines are wrapped at 78 columns.
 */

import type { ColumnChild, ComponentNode, RowLike, Shown, Template } from "../document/model.js";
import type { TextParagraph } from "../markup/html-to-text.js";
import type { TagValues } from "../markup/tag-values.js";
import { wrapParagraph } from "./wrap.js";

export const PLAIN_TEXT_WIDTH = 78;

export function renderPlainText(template: Template, shown: Shown, values: TagValues): string {
  const paragraphs = rowsText(template.rows, shown, values);
  let text = "";
  for (const [i, paragraph] of paragraphs.entries()) {
    if (i > 0) text += paragraph.tight === true ? "\n" : "\n\n";
    text += wrapParagraph(paragraph, PLAIN_TEXT_WIDTH);
  }
  return text;
}

function rowsText(rows: readonly (RowLike | ColumnChild)[], shown: Shown, values: TagValues): TextParagraph[] {
  const out: TextParagraph[] = [];
  for (const node of rows) {
    if (!shown(node)) continue;
    if (node.kind === "row-spacer") continue;
    if (node.kind === "component") {
      out.push(...blockText(node, values));
      continue;
    }
    const columns = node.columns.filter(shown).map((column) => rowsText(column.children, shown, values));
    out.push(...joinColumns(columns));
  }
  // An image's alt text is often the caption or heading next to it: said once is enough.
  return out.filter((p, i) => i === 0 || p.text !== out[i - 1]!.text || p.first !== out[i - 1]!.first);
}

/** Columns that are each one short line read as one line (a table row); others one after another. */
function joinColumns(columns: TextParagraph[][]): TextParagraph[] {
  const filled = columns.filter((c) => c.length > 0);
  if (filled.length > 1 && filled.every((c) => c.length === 1 && c[0]!.first === "" && !c[0]!.text.includes("\n"))) {
    const line = filled.map((c) => c[0]!.text).join("  ");
    if (line.length <= PLAIN_TEXT_WIDTH) return [{ first: "", rest: "", text: line }];
  }
  return filled.flat();
}

function blockText(node: ComponentNode, values: TagValues): TextParagraph[] {
  // Shown on phones only: the desktop version of the same content is the one read in text.
  if ((node.props as { desktopHide?: unknown }).desktopHide === true) return [];
  return node.definition.text(node.props, values);
}
