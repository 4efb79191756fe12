/**
 * The MJML document: native components where they fit (mj-section/mj-column, mj-group for rows
 * that do not stack, and the blocks' own mj-* components), `mj-raw` only for nested rows and for
 * what Outlook for Windows alone reads (VML, in conditional comments).
 */
import { attr, attrs, classPair, MJML_ALL, mjmlAttrs, ownAttr, unchangedOf } from "../blocks/shared.js";
import { encodeUnsafeUrlChars } from "../data/escape.js";
import type { ColumnNode, RowLike, RowNode, SpacerNode } from "../document/model.js";
import { googleFontsHref, isWebSafe, primaryFamily } from "../markup/fonts.js";
import { px, spacing } from "../markup/style.js";
import { GRADIENT_BOX_END, gradientBoxStart } from "../markup/vml.js";
import { activeGradient, type Gradient, type LinearGradient, toMjmlColor } from "../schema/common.js";
import type { DocumentContext } from "./context.js";
import { spacerDarkBox } from "./dark.js";
import { horizontal, layoutColumns } from "./layout.js";
import { withSpacersFolded } from "./mjml-spacers.js";
import { childHtml, columnInnerWidth, rowInnerWidth } from "./nested-html.js";
import { baseCss, classList, colorSchemes, desktopCss, metaTags, mobileCss, PREHEADER_SPACER } from "./responsive.js";

function borderAttr(border: { width: number; style: string; color: string }): string | undefined {
  return border.width > 0 ? `${px(border.width)} ${border.style} ${toMjmlColor(border.color)}` : undefined;
}

/**
 * Where a row's section stands in Outlook's tables: among the rows of a box (mj-wrapper: the content
 * box, or a rounded row's own), whose table takes each section as a `<tr>`, or straight in the body,
 * where each section is a table of its own.
 */
type Place = "box" | "body";

/**
 * A row drawn over a linear gradient. Outlook on Windows gets the gradient in VML behind the
 * section (`markup/vml.ts`); the section itself is unpainted there, since its colour would cover
 * the VML, and other readers get that colour with the gradient from a stylesheet Outlook skips.
 * In a box the VML takes a row of the box's table, holding a table for the section's row; in the
 * body, a centred table of its own, the section's table inside it.
 */
function overGradient(section: string, gradient: LinearGradient, width: number, place: Place): string {
  const [open, close] =
    place === "box"
      ? [`<tr><td>${gradientBoxStart(gradient, width)}<table${TABLE} width="${width}">`, `</table>${GRADIENT_BOX_END}</td></tr>`]
      : [`<table${TABLE} width="${width}" align="center"><tr><td>${gradientBoxStart(gradient, width)}`, `${GRADIENT_BOX_END}</td></tr></table>`];
  return `<mj-raw><!--[if mso | IE]>${open}<![endif]--></mj-raw>${section}<mj-raw><!--[if mso | IE]>${close}<![endif]--></mj-raw>`;
}

const TABLE = ` role="presentation" border="0" cellpadding="0" cellspacing="0"`;

/** A box's colour under its gradient: its own, else the gradient's solid colour. */
function colorUnder(backgroundColor: string, gradient: Gradient): string | undefined {
  return backgroundColor === "transparent" ? gradient.fallback : backgroundColor;
}

function gradientRule(selector: string, color: string | undefined, gradient: Gradient): string {
  return `${selector}{${color === undefined ? "" : `background-color:${color};`}background-image:${gradient.css}}`;
}

function spacerSection(spacer: SpacerNode, width: number, fill: string, place: Place, doc: DocumentContext): string {
  const gradient = activeGradient(spacer.backgroundGradient) ? spacer.backgroundGradient : undefined;
  const vml = gradient?.linear;
  const className = gradient ? doc.nextUid("mr-r") : "";
  if (gradient && vml) doc.notOutlookCss.push(gradientRule(`.${className}`, colorUnder(spacer.backgroundColor, gradient), gradient));
  else if (gradient) doc.headCss.push(`.${className}{background-image:${gradient.css} !important}`);
  const dark = doc.dark.box("row", "mjml", spacerDarkBox(spacer)).className;
  // Its height as the section's top padding, with no column: in Outlook too, a cell's padding is
  // exact, where a column and an mj-spacer in it cost ~1.2 KB of html.
  const padding = spacing({ top: spacer.height, right: 0, bottom: 0, left: 0 });
  const u = unchangedOf("mj-section");
  const attributes =
    ownAttr("padding", padding, u) +
    (vml ? "" : ownAttr("background-color", toMjmlColor(filled(spacer.backgroundColor, fill)), u)) +
    ownAttr("css-class", classPair(className, dark), u);
  const section = `<mj-section${attributes}></mj-section>`;
  return vml ? overGradient(section, vml, width, place) : section;
}

function column(node: ColumnNode, percent: number, rowInner: number, fillHeight: boolean, doc: DocumentContext): string {
  const s = node.style;
  const width = columnInnerWidth(node, rowInner, percent);
  const dark = doc.dark.column("mjml", node);
  let children = "";
  const outerTheme = doc.dark.enter(dark.themed);
  try {
    const shown = doc.visibleChildren(node.children);
    for (let i = 0; i < shown.length; i++) {
      const child = shown[i]!;
      children += child.kind === "component" ? doc.block(child, width, "mjml") : `<mj-raw><tr><td>${childHtml(child, width, doc)}</td></tr></mj-raw>`;
    }
  } finally {
    doc.dark.restore(outerTheme);
  }
  let className = "";
  if (s.backgroundImage) {
    className = doc.nextUid("mr-c");
    doc.headCss.push(
      `.${className}{background-image:url('${encodeUnsafeUrlChars(s.backgroundImage)}') !important;background-size:${s.backgroundSize};background-position:${s.backgroundPosition};background-repeat:${s.backgroundRepeat}}`,
    );
  }
  if (fillHeight && s.backgroundColor !== "transparent") {
    // mj-column paints its colour inside its content box; side by side, the column box paints the rest.
    className ||= doc.nextUid("mr-c");
    doc.desktopCss.push(`.${className}{background-color:${s.backgroundColor}}`);
  }
  // An attribute at a time (`attr`), as for every section: cheaper in QuickJS than a literal for `mjmlAttrs`;
  // one left unset is not a call at all (~1 K instructions each, for every row and column).
  const u = unchangedOf("mj-column");
  const attributes =
    ownAttr("width", percent + "%", u) +
    (s.backgroundColor !== "transparent" ? ownAttr("background-color", toMjmlColor(s.backgroundColor), u) : "") +
    ownAttr("padding", spacing(s.padding), u) +
    (s.border.width > 0 ? ownAttr("border", borderAttr(s.border), u) : "") +
    (s.border.radius > 0 ? ownAttr("border-radius", px(s.border.radius), u) : "") +
    ownAttr("vertical-align", s.verticalAlign, u) +
    // mjml writes the column's direction (ltr unless told) on its box, over the email's.
    (doc.template.canvas.direction === "rtl" ? ownAttr("direction", "rtl", u) : "") +
    ownAttr("css-class", classPair(className, dark.className), u);
  return `<mj-column${attributes}>${children}</mj-column>`;
}

function section(row: RowNode, outerWidth: number, fill: string, place: Place, doc: DocumentContext): string {
  const s = row.style;
  const inner = rowInnerWidth(row, outerWidth);
  const columns = doc.visibleChildren(row.columns);
  // Index loops: a callback per column is a call in QuickJS, and this runs for every row.
  const declared: Array<number | undefined> = [];
  // Side by side, columns with a background are as tall as the row (table cells, above the breakpoint).
  let painted = false;
  for (let i = 0; i < columns.length; i++) {
    declared.push(columns[i]!.width);
    if (columns[i]!.style.backgroundColor !== "transparent") painted = true;
  }
  const layout = layoutColumns(declared, s.gap, inner);
  const fillHeight = s.mobileStack && columns.length > 1 && painted;
  const dark = doc.dark.row("mjml", row);
  let parts = "";
  const outerTheme = doc.dark.enter(dark.themed);
  try {
    for (let i = 0; i < columns.length; i++) {
      if (i > 0 && layout.gap > 0) parts += `<mj-column${ownAttr("width", `${layout.gap}%`, unchangedOf("mj-column"))}></mj-column>`;
      parts += column(columns[i]!, layout.widths[i] ?? 0, inner, fillHeight, doc);
    }
  } finally {
    doc.dark.restore(outerTheme);
  }
  const body = s.mobileStack ? parts : `<mj-group${ownAttr("direction", mirrored(doc), unchangedOf("mj-group"))}>${parts}</mj-group>`;
  const gradient = activeGradient(s.backgroundGradient) ? s.backgroundGradient : undefined;
  const vml = gradient?.linear;
  const className = gradient || s.minHeight > 0 || fillHeight ? doc.nextUid("mr-r") : "";
  if (gradient) {
    // On the section's cell, which paints above the colour of its table; not on the cells inside.
    // (Descendant selectors only: caniemail flags `>` in Gmail and Outlook.)
    // Not !important, so that a gradient button inside keeps its own.
    if (vml)
      doc.notOutlookCss.push(
        `${gradientRule(`.${className} td`, colorUnder(s.backgroundColor, gradient), gradient)}.${className} td td{background-color:transparent;background-image:none}`,
      );
    else doc.headCss.push(`.${className} td{background-image:${gradient.css}}.${className} td td{background-image:none}`);
  }
  if (s.minHeight > 0) doc.headCss.push(`.${className}{min-height:${px(s.minHeight)}}`);
  if (fillHeight) doc.desktopCss.push(`.${className} .mj-outlook-group-fix{display:table-cell !important}`);
  const u = unchangedOf("mj-section");
  const image = s.backgroundImage !== "";
  const attributes =
    (vml ? "" : ownAttr("background-color", toMjmlColor(filled(s.backgroundColor, fill)), u)) +
    (image
      ? attr("background-url", activeGradient(s.backgroundGradient) ? undefined : s.backgroundImage, u) +
        attr("background-size", s.backgroundSize, u) +
        attr("background-position", s.backgroundPosition, u) +
        attr("background-repeat", s.backgroundRepeat === "no-repeat" ? "no-repeat" : "repeat", u)
      : "") +
    ownAttr("padding", spacing(s.padding), u) +
    (s.border.width > 0 ? ownAttr("border", borderAttr(s.border), u) : "") +
    (s.border.radius > 0 ? ownAttr("border-radius", px(s.border.radius), u) : "") +
    (doc.template.canvas.direction === "rtl" ? ownAttr("direction", "rtl", u) : "") +
    ownAttr("css-class", classPair(className, dark.className), u);
  const section = `<mj-section${attributes}>${body}</mj-section>`;
  return vml ? overGradient(section, vml, outerWidth, place) : section;
}

/**
 * `rtl` in a right-to-left email: rows put their first column on the right (columns stack in
 * reading order on phones), and the content box and columns keep the email's direction (mjml writes
 * `ltr` on them otherwise). In `auto`, which way a row runs is not known: rows keep their order.
 */
function mirrored(doc: DocumentContext): "rtl" | undefined {
  return doc.template.canvas.direction === "rtl" ? "rtl" : undefined;
}

/**
 * `fill`: the content colour, when no content box paints it behind the rows: a row without a colour
 * of its own paints it, and a rounded row sits on a box of it (its corners show the content colour).
 */
function rowLike(node: RowLike, width: number, fill: string, place: Place, doc: DocumentContext): string {
  if (node.kind === "row-spacer") return spacerSection(node, width, fill, place, doc);
  if (place === "box" || fill === "transparent" || node.style.border.radius === 0) return section(node, width, fill, place, doc);
  const u = unchangedOf("mj-wrapper");
  const attributes = ownAttr("padding", "0px", u) + ownAttr("background-color", toMjmlColor(fill), u) + ownAttr("direction", mirrored(doc), u);
  return `<mj-wrapper${attributes}>${section(node, width, "transparent", "box", doc)}</mj-wrapper>`;
}

const filled = (color: string, fill: string): string => (color === "transparent" ? fill : color);

/**
 * The content box (one mj-wrapper around the rows) is needed for a canvas padding or a dark-mode
 * class; otherwise the rows paint the content colour themselves, which saves the wrapper's tables
 * and a table per row in Outlook's markup.
 */
function needsContentBox(canvas: DocumentContext["template"]["canvas"], contentClass: string): boolean {
  const { padding } = canvas;
  return contentClass !== "" || padding.top + padding.right + padding.bottom + padding.left > 0;
}

/**
 * On <body> (mjml puts mj-body's class there). mj-body's own box paints the page colour over the
 * body, so the page image goes on that box too, and on no box inside it (column images win by
 * `!important`); descendant selectors only, as caniemail flags `>` in Gmail and Outlook.
 */
const PAGE_CLASS = "mr-page";

/** The head's meta tags for each `color-scheme` value, the same in every document: written once. */
const metaRaws = new Map<string, string>();

function metaRaw(schemes: string): string {
  let raw = metaRaws.get(schemes);
  if (raw === undefined) {
    raw = `<mj-raw>${metaTags(schemes)
      .map((meta) => `<meta${attrs({ name: meta["name"], content: meta["content"] })}${meta["content"] === "" ? ` content=""` : ""}>`)
      .join("")}</mj-raw>`;
    metaRaws.set(schemes, raw);
  }
  return raw;
}

/** The MJML source with slot tokens for merge tags (see `markup/emitter.ts`). */
export function renderMjmlDocument(doc: DocumentContext): string {
  const { template, out } = doc;
  const canvas = template.canvas;
  const contentWidth = canvas.width - horizontal(canvas.padding);
  const pageClass = classList(canvas.bodyBackgroundImage ? PAGE_CLASS : "", doc.dark.page("mjml"));
  const contentClass = doc.dark.content("mjml");
  const contentBox = needsContentBox(canvas, contentClass);
  const fill = contentBox ? "transparent" : canvas.backgroundColor;
  const rows = withSpacersFolded(doc.visibleChildren(template.rows), fill);
  let sections = "";
  for (let i = 0; i < rows.length; i++) sections += (i === 0 ? "" : "\n") + rowLike(rows[i]!, contentWidth, fill, contentBox ? "box" : "body", doc);

  const head: string[] = [
    `<mj-title>${out.text(template.name)}</mj-title>`,
    `<mj-preview>${out.text(canvas.preheaderText)}${PREHEADER_SPACER}</mj-preview>`,
    // mjml puts columns side by side from this width up; our mobile rules apply below it.
    `<mj-breakpoint width="${canvas.mobileBreakpoint + 1}px" />`,
    `<mj-attributes><mj-all${attrs(MJML_ALL)} /></mj-attributes>`,
  ];
  const fonts = googleFontsHref(doc.fonts);
  if (fonts) {
    const first = [...doc.fonts].map(primaryFamily).find((f) => !isWebSafe(f)) ?? "";
    // The href with its `&`s as they are: mjml copies it into `<link href>` (where `&amp;` would be
    // decoded too) and into `@import url(…)` in CSS, where nothing is decoded and `&amp;` would break the
    // URL. Family names are letters, digits, spaces, `_`, `.` and `-` (fontFamilySchema): nothing else to escape.
    head.push(`<mj-font${attrs({ name: first })} href="${fonts}" />`);
  }
  const bodyImage = canvas.bodyBackgroundImage
    ? `\nbody,.${PAGE_CLASS} div{background-image:url('${encodeUnsafeUrlChars(canvas.bodyBackgroundImage)}');background-size:${canvas.bodyBackgroundSize};background-position:${canvas.bodyBackgroundPosition};background-repeat:${canvas.bodyBackgroundRepeat}}.${PAGE_CLASS} div div{background-image:none}`
    : "";
  const schemes = colorSchemes(doc.dark.used);
  const css = [
    baseCss(schemes) + bodyImage,
    ...doc.headCss,
    ...desktopCss(canvas.mobileBreakpoint, doc.desktopCss),
    mobileCss(canvas.mobileBreakpoint, doc.mobileCss),
  ].join("\n");
  head.push(`<mj-style>\n${css}\n</mj-style>`);
  if (doc.notOutlookCss.length > 0)
    head.push(`<mj-raw><!--[if !mso]><!--><style type="text/css">\n${doc.notOutlookCss.join("\n")}\n</style><!--<![endif]--></mj-raw>`);
  // A <style> of its own: a client that refuses a selector here drops these rules, never the layout's.
  if (doc.dark.used) head.push(`<mj-raw><style type="text/css">\n${doc.dark.css()}\n</style></mj-raw>`);
  head.push(metaRaw(schemes));

  const body = [
    `<mj-body${mjmlAttrs("mj-body", { width: px(canvas.width), "background-color": toMjmlColor(canvas.bodyBackgroundColor), "css-class": pageClass })}>`,
    ...(contentBox
      ? [
          `<mj-wrapper${mjmlAttrs("mj-wrapper", { padding: spacing(canvas.padding), "background-color": toMjmlColor(canvas.backgroundColor), direction: mirrored(doc), "css-class": contentClass })}>`,
          sections,
          `</mj-wrapper>`,
        ]
      : [sections]),
    `</mj-body>`,
  ].join("\n");
  return [`<mjml${attrs({ lang: canvas.language, dir: canvas.direction })}>`, `<mj-head>`, ...head, `</mj-head>`, body, `</mjml>`].join("\n");
}
