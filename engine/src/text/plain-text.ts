/**
 * The plain-text version of an email (the `text/plain` part every sending provider accepts next to
 * the html): what a recipient reads, in reading order, from the same visible set as the html.
 *
 * Rules (spec/template.md, "Plain text"): rows top to bottom, columns left to right; headings and
 * paragraphs as paragraphs separated by a blank line; list items as `- ` (numbered for `<ol>`);
 * links and buttons as `label (url)`; images as their alt text; dividers as `---`; spacers,
 * the preheader and hidden nodes (visibility rules, `desktopHide`) left out. A row whose columns
 * are each one short line (a receipt's item, quantity, price) stays one line. Merge values are
 * substituted unescaped — this is text, not markup — and lines are wrapped at 78 columns.
 */

import { visibleItems } from "../blocks/menu/index.js";
import { visiblePlatforms } from "../blocks/socials/index.js";
import type { ColumnChild, ComponentNode, RowLike, Shown, Template } from "../document/model.js";
import { linked, paragraphsOfHtml, type TextParagraph } from "../markup/html-to-text.js";
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
    if (node.kind === "spacer") continue;
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

/** Menu items and social links: the ones the html shows, one per line. */
function linkLines(lines: readonly string[]): TextParagraph[] {
  const shown = lines.map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line !== "");
  return shown.length === 0 ? [] : [{ first: "", rest: "", text: shown.join("\n") }];
}

function plain(text: string): TextParagraph[] {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed === "" ? [] : [{ first: "", rest: "", text: collapsed }];
}

function blockText(node: ComponentNode, values: TagValues): TextParagraph[] {
  const props = node.props as Record<string, unknown> & { desktopHide?: boolean };
  // Shown on phones only: the desktop version of the same content is the one read in text.
  if (props.desktopHide === true) return [];
  const str = (key: string): string => (typeof props[key] === "string" ? (props[key] as string) : "");
  switch (node.block) {
    case "heading":
    case "paragraph":
    case "list":
      return paragraphsOfHtml(str("content"), values);
    case "button":
    case "anchor":
      return plain(linked(values.text(str("text")), values.url(str("link"))));
    case "image":
      return plain(linked(values.text(str("alt")), props.enabled === true ? values.url(str("link")) : ""));
    case "video":
      return plain(linked(values.text(str("alt")), values.url(str("src") || str("fallbackLink"))));
    case "divider":
      return [{ first: "", rest: "", text: "---" }];
    case "spacer":
      return [];
    case "menu":
      return linkLines(visibleItems(props as Parameters<typeof visibleItems>[0]).map((item) => linked(values.text(item.label), values.url(item.link))));
    case "socials":
      return linkLines(
        visiblePlatforms(props as Parameters<typeof visiblePlatforms>[0]).map((platform) => linked(values.text(platform.name), values.url(platform.link))),
      );
  }
}
