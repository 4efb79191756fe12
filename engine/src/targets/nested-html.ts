/**
 * Rows nested inside a column. MJML has no section-in-column, so a nested row is written as plain
 * email HTML (tables) from the blocks' `html` renderers; the MJML target embeds it with `mj-raw`.
 */

import { attrs } from "../blocks/shared.js";
import { encodeUnsafeUrlChars } from "../data/escape.js";
import type { ColumnNode, RowNode, SpacerNode } from "../document/model.js";
import { cssText, type Declarations, px, spacing } from "../markup/style.js";
import { activeGradient } from "../schema/common.js";
import type { DocumentContext } from "./context.js";
import { spacerDarkBox } from "./dark.js";
import { horizontal, layoutColumns } from "./layout.js";
import { classList, STACK_ON_MOBILE } from "./responsive.js";

export function rowBoxDeclarations(row: RowNode): Declarations {
  const s = row.style;
  const decls: Declarations = [["background-color", s.backgroundColor]];
  if (activeGradient(s.backgroundGradient)) decls.push(["background-image", s.backgroundGradient.css]);
  else if (s.backgroundImage)
    decls.push(
      ["background-image", `url('${encodeUnsafeUrlChars(s.backgroundImage)}')`],
      ["background-size", s.backgroundSize],
      ["background-position", s.backgroundPosition],
      ["background-repeat", s.backgroundRepeat],
    );
  if (s.border.width > 0) decls.push(["border", `${px(s.border.width)} ${s.border.style} ${s.border.color}`]);
  if (s.border.radius > 0) decls.push(["border-radius", px(s.border.radius)]);
  return decls;
}

export function columnBoxDeclarations(column: ColumnNode): Declarations {
  const s = column.style;
  const decls: Declarations = [];
  if (s.backgroundColor !== "transparent") decls.push(["background-color", s.backgroundColor]);
  if (s.backgroundImage)
    decls.push(
      ["background-image", `url('${encodeUnsafeUrlChars(s.backgroundImage)}')`],
      ["background-size", s.backgroundSize],
      ["background-position", s.backgroundPosition],
      ["background-repeat", s.backgroundRepeat],
    );
  if (s.border.width > 0) decls.push(["border", `${px(s.border.width)} ${s.border.style} ${s.border.color}`]);
  if (s.border.radius > 0) decls.push(["border-radius", px(s.border.radius)]);
  return decls;
}

export function rowInnerWidth(row: RowNode, outerWidth: number): number {
  return outerWidth - horizontal(row.style.padding) - 2 * row.style.border.width;
}

export function columnInnerWidth(column: ColumnNode, rowInner: number, percent: number): number {
  return Math.max(1, (rowInner * percent) / 100 - horizontal(column.style.padding) - 2 * column.style.border.width);
}

export function spacerGradient(spacer: SpacerNode): Declarations {
  return activeGradient(spacer.backgroundGradient) ? [["background-image", spacer.backgroundGradient.css]] : [];
}

export function spacerHtml(spacer: SpacerNode, doc: DocumentContext): string {
  const style = cssText([
    ["height", px(spacer.height)],
    ["line-height", px(spacer.height)],
    ["font-size", "1px"],
    ["background-color", spacer.backgroundColor],
    ...spacerGradient(spacer),
  ]);
  return `<div${attrs({ class: doc.dark.box("row", "html", spacerDarkBox(spacer)).className, style })}>&#8202;</div>`;
}

export function rowHtml(row: RowNode, outerWidth: number, doc: DocumentContext): string {
  const inner = rowInnerWidth(row, outerWidth);
  const columns = doc.visibleChildren(row.columns);
  // Index loops: a callback per column or child is a call in QuickJS, and this runs for every nested row.
  const declared: Array<number | undefined> = [];
  for (let i = 0; i < columns.length; i++) declared.push(columns[i]!.width);
  const layout = layoutColumns(declared, row.style.gap, inner);
  const stack = row.style.mobileStack ? STACK_ON_MOBILE : "";
  const dark = doc.dark.row("html", row);
  let cells = "";
  doc.dark.within(dark.themed, () => {
    for (let index = 0; index < columns.length; index++) {
      const column = columns[index]!;
      if (index > 0 && layout.gap > 0)
        cells += `<td${attrs({ width: `${layout.gap}%`, class: stack, style: `width:${layout.gap}%;font-size:0;line-height:0` })}>&nbsp;</td>`;
      const percent = layout.widths[index] ?? 0;
      const width = columnInnerWidth(column, inner, percent);
      const style = cssText([
        ["width", `${percent}%`],
        ["vertical-align", column.style.verticalAlign],
        ["padding", spacing(column.style.padding)],
        ...columnBoxDeclarations(column),
      ]);
      const columnDark = doc.dark.column("html", column);
      const content = doc.dark.within(columnDark.themed, () => {
        const shown = doc.visibleChildren(column.children);
        let markup = "";
        for (let i = 0; i < shown.length; i++) markup += childHtml(shown[i]!, width, doc);
        return markup;
      });
      cells += `<td${attrs({ width: `${percent}%`, valign: column.style.verticalAlign, class: classList(stack, columnDark.className), style })}>${content}</td>`;
    }
  });
  const box = cssText([
    ...rowBoxDeclarations(row),
    ["padding", spacing(row.style.padding)],
    ...(row.style.minHeight > 0 ? ([["height", px(row.style.minHeight)]] as const) : []),
  ]);
  return (
    `<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0"${attrs({ class: dark.className, style: box })}><tr><td>` +
    // Cells run in the table's direction, inherited from the email's; `dir` says it to Outlook too.
    `<table role="presentation" width="100%" border="0" cellpadding="0" cellspacing="0"${attrs({ dir: doc.template.canvas.direction === "rtl" ? "rtl" : undefined })}><tr>${cells}</tr></table>` +
    `</td></tr></table>`
  );
}

export function childHtml(child: ColumnNode["children"][number], width: number, doc: DocumentContext): string {
  if (child.kind === "component") return doc.block(child, width, "html");
  if (child.kind === "row-spacer") return spacerHtml(child, doc);
  return rowHtml(child, width, doc);
}
