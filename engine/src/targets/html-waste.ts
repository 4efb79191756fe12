/**
 * What mjml writes that no client reads, removed from the html target: a solid `background:#x`
 * repeated as `background-color:#x` (the longhand alone is what every client, Outlook included,
 * reads: mjml adds it for the clients that drop the shorthand), empty `style=""`/`class=""`
 * attributes, `<tbody>` tags (an HTML parser adds the element to every table whose rows lack it,
 * so the document's tree, which CSS selectors see, is the same; Outlook's own tables in conditional
 * comments never had them), a zero length written `0` rather than `0px` in style
 * attributes (outside a function's parentheses, where CSS wants the unit; mjml itself writes a
 * bare `0` in Outlook's markup), and mj-navbar's rules for its hamburger menu, which match
 * nothing in an email without one (our menu block never has one), and the text style of a heading's
 * wrapper that the heading's own overrides. Merge-tag values are substituted
 * after this step; the zero lengths are looked for inside tags only, never in text.
 *
 * The first three are the replacements of global regular expressions (the test keeps them as the
 * reference), tried only where their literal start stands (src/base/literal-scan.ts).
 */
import { contains, occurrences } from "../base/literal-scan.js";

const BACKGROUND = "background:";
/** Sticky: `background:([^;"'{}()]+);background-color:\1(;?)/g` at one position. */
const REPEATED_BACKGROUND = /background:([^;"'{}()]+);background-color:\1(;?)/y;
const EMPTY_VALUE = '=""';

export function removeHtmlWaste(html: string): string {
  const lean = shortenZeroLengths(removeUnusedMenuRules(removeTbodyTags(removeEmptyAttributes(removeRepeatedBackgrounds(html)))));
  const columns = removeZeroCellPadding(removeColumnTableAlignment(emptyColumnsWithoutTables(lean)));
  return declareWordNamespaceOnce(removeOutlookPropertiesOutsideOutlook(removeOverriddenWrapperStyles(columns)));
}

/** Sticky at `<table`: a column's table as mjml writes it for a column with no colour or border, its vertical alignment its only style. */
const ALIGNED_COLUMN_TABLE = /<table(\s+border="0"\s+cellpadding="0"\s+cellspacing="0"\s+role="presentation")\s+style="vertical-align:(?:top|middle|bottom);"(\s+width="100%"\s*>)/y;

/**
 * A column's table loses the vertical alignment mjml copies onto it from the column (where it
 * belongs on the column's box and on Outlook's cell, which keep it): a table is a block, which
 * `vertical-align` does not apply to, and each of its rows holds one cell as tall as its content,
 * so nothing could move even where a reader applied it to the cells.
 */
function removeColumnTableAlignment(html: string): string {
  let out = "";
  let copied = 0;
  for (const at of occurrences(html, "<table")) {
    ALIGNED_COLUMN_TABLE.lastIndex = at;
    const match = ALIGNED_COLUMN_TABLE.exec(html);
    if (match === null) continue;
    out += `${html.slice(copied, at)}<table${match[1] as string}${match[2] as string}`;
    copied = ALIGNED_COLUMN_TABLE.lastIndex;
  }
  return out + html.slice(copied);
}

const ZERO_PADDING = "font-size:0;padding:0;";

/**
 * `padding:0` dropped from the cells mjml writes for a block (`…font-size:0;padding:0;word-break:…`)
 * and for a section's content (`direction:…;font-size:0;padding:0;text-align:…`): both stand in a
 * table with `cellpadding="0"`, which gives its cells that padding in every reader (Outlook's
 * ghost tables rely on it alone).
 */
function removeZeroCellPadding(html: string): string {
  let out = "";
  let copied = 0;
  for (const at of occurrences(html, ZERO_PADDING)) {
    const after = at + ZERO_PADDING.length;
    const block = html.startsWith("word-break:break-word;", after);
    const section = (html.endsWith(' style="direction:ltr;', at) || html.endsWith(' style="direction:rtl;', at)) && html.startsWith("text-align:", after);
    const tag = html.lastIndexOf("<", at);
    if (!(block || section) || !html.startsWith("<td", tag) || html.lastIndexOf(">", at) > tag || html.lastIndexOf(' style="', at) < tag) continue;
    out += html.slice(copied, at + "font-size:0;".length);
    copied = after;
  }
  return out + html.slice(copied);
}

/**
 * Sticky at `<div`: an empty column as mjml writes it (its class in group 1, its vertical alignment
 * in 2, its width in 3: 100% in a section, its share in a group), a div holding a table without rows.
 */
const EMPTY_COLUMN =
  /<div\s+class="(mj-column-per-[0-9-]+) mj-outlook-group-fix"\s+style="font-size:0(?:px)?;text-align:(?:left|right|center);direction:(?:ltr|rtl);display:inline-block;vertical-align:(top|middle|bottom);width:([0-9.]+%);"\s*>\s*<table\s+border="0"\s+cellpadding="0"\s+cellspacing="0"\s+role="presentation"\s+style="vertical-align:\2;"\s+width="100%"\s*>\s*(?:<tbody>\s*<\/tbody>\s*)?<\/table>\s*<\/div>/y;

/**
 * An empty column (the gap between two columns is one) as an empty div of its width: the table it
 * held has no rows, so it draws nothing anywhere, and text alignment and direction have no text to
 * act on. Its classes stay (its width, and the one that makes columns of equal height table cells),
 * its vertical alignment (its place in the line of columns) and its zero font size (Outlook reads the div).
 */
function emptyColumnsWithoutTables(html: string): string {
  let out = "";
  let copied = 0;
  for (const at of occurrences(html, "<div")) {
    EMPTY_COLUMN.lastIndex = at;
    const match = EMPTY_COLUMN.exec(html);
    if (match === null) continue;
    out += `${html.slice(copied, at)}<div class="${match[1] as string} mj-outlook-group-fix" style="font-size:0;display:inline-block;vertical-align:${match[2] as string};width:${match[3] as string};"></div>`;
    copied = EMPTY_COLUMN.lastIndex;
  }
  return out + html.slice(copied);
}

const NOT_OUTLOOK_START = "<!--[if !mso]><!-->";
const NOT_OUTLOOK_END = "<!--<![endif]-->";
/** A start tag (text holds no `<` before a letter: it is escaped). */
const START_TAG = /<[a-zA-Z][^>]*>/g;
/** An `mso-*` declaration, at the start of a style value or after a `;`. */
const OUTLOOK_DECLARATION = /(?<=^|;)\s*mso-[a-z-]+:[^;]*;?/g;

/**
 * Outlook's own properties (`mso-*`: only Outlook's Word engine reads them) dropped from the style
 * attributes of markup Outlook skips (`<!--[if !mso]><!-->`…`<!--<![endif]-->`): mjml writes them
 * on every button, which the html target hides from Outlook where it draws it in VML.
 */
function removeOutlookPropertiesOutsideOutlook(html: string): string {
  let out = "";
  let copied = 0;
  for (const at of occurrences(html, NOT_OUTLOOK_START)) {
    if (at < copied) continue;
    const end = html.indexOf(NOT_OUTLOOK_END, at);
    if (end === -1) break;
    const region = html.slice(at, end);
    if (!region.includes("mso-")) continue;
    const cleaned = region.replace(START_TAG, (tag) =>
      tag.replace(/(\sstyle=")([^"]*)"/, (_attribute, name: string, style: string) => `${name}${style.replace(OUTLOOK_DECLARATION, "")}"`),
    );
    out += html.slice(copied, at) + cleaned;
    copied = end;
  }
  return out + html.slice(copied);
}

const WORD_NAMESPACE = ' xmlns:w="urn:schemas-microsoft-com:office:word"';
const OFFICE_NAMESPACE = ' xmlns:o="urn:schemas-microsoft-com:office:office"';
const ROUNDRECT_WITH_NAMESPACE = `<v:roundrect${WORD_NAMESPACE}`;

/**
 * The `w` namespace of Outlook's buttons (`w:anchorlock`) declared once on `<html>`, beside the `v`
 * and `o` ones mjml declares there (as Word itself writes a document), rather than on each button.
 * The buttons' VML carries it for the mjml target, whose `<html>` mjml writes.
 */
function declareWordNamespaceOnce(html: string): string {
  const first = html.indexOf(ROUNDRECT_WITH_NAMESPACE);
  if (first === -1) return html;
  const root = html.indexOf(OFFICE_NAMESPACE);
  if (root === -1 || root > first || html.lastIndexOf("<html", root) === -1) return html;
  const declared = root + OFFICE_NAMESPACE.length;
  return `${html.slice(0, declared)}${WORD_NAMESPACE}${html.slice(declared).split(ROUNDRECT_WITH_NAMESPACE).join("<v:roundrect")}`;
}

/** Properties a heading inherits from its wrapper and nothing else: the wrapper's own box uses them only for text of its own. */
const INHERITED_TEXT = new Set(["font-family", "font-size", "line-height", "text-align", "color", "font-weight", "font-style", "letter-spacing", "text-transform"]);
/** Sticky at `<div`: a div with only a style (group 1), then a heading's start tag (its level in group 2, its style in group 3). */
const HEADING_WRAPPER = /<div\s+style="([^"]*)"\s*>\s*<(h[1-6])(?:\s+[a-z-]+="[^"]*")*?\s+style="([^"]*)"[^>]*>/y;
const HEADING_END = /\s*<\/div>/y;

/** A style attribute's declarations by property, or undefined when one is not `name:value`. */
function declarationsOf(style: string): Map<string, string> | undefined {
  const declarations = new Map<string, string>();
  for (const declaration of style.split(";")) {
    if (declaration.trim() === "") continue;
    const colon = declaration.indexOf(":");
    if (colon === -1) return undefined;
    declarations.set(declaration.slice(0, colon).trim().toLowerCase(), declaration.slice(colon + 1).trim());
  }
  return declarations;
}

/** Whether a heading's style sets every property of its wrapper's, all of them inherited text properties, at a font size of its own (a relative one would be of the div's). */
function overridesAll(wrapperStyle: string, headingStyle: string): boolean {
  const wrapper = declarationsOf(wrapperStyle);
  const heading = declarationsOf(headingStyle);
  if (wrapper === undefined || heading === undefined || !/^\d+(?:\.\d+)?px$/.test(heading.get("font-size") ?? "")) return false;
  return [...wrapper.keys()].every((name) => INHERITED_TEXT.has(name) && heading.has(name));
}

/**
 * The style of a `<div>` whose only child is a heading that sets every property of it, dropped:
 * mj-text writes its text style on its div, and a heading block carries its own on the heading
 * (Outlook styles `h1`–`h6` from its own sheet otherwise), so the div's is read by nothing.
 */
function removeOverriddenWrapperStyles(html: string): string {
  let out = "";
  let copied = 0;
  for (const at of occurrences(html, "<div")) {
    HEADING_WRAPPER.lastIndex = at;
    const match = HEADING_WRAPPER.exec(html);
    if (match === null) continue;
    const [text, wrapperStyle, level, headingStyle] = match as unknown as [string, string, string, string, string];
    const close = html.indexOf(`</${level}>`, HEADING_WRAPPER.lastIndex);
    if (close === -1) continue;
    HEADING_END.lastIndex = close + level.length + 3;
    if (!HEADING_END.test(html) || !overridesAll(wrapperStyle, headingStyle)) continue;
    out += `${html.slice(copied, at)}<div>`;
    copied = at + text.indexOf(">", text.indexOf('"', text.indexOf('"') + 1)) + 1;
  }
  return out + html.slice(copied);
}

/** `0px` → `0` where it is a whole value in a style attribute's declaration (`:0px;`, ` 0px"`, `:0px !important`). */
function shortenZeroLengths(html: string): string {
  let out = "";
  let copied = 0;
  let attribute = -1;
  let inStyle = false;
  for (const at of occurrences(html, "0px")) {
    const before = html.charCodeAt(at - 1);
    const after = html.charCodeAt(at + 3);
    if ((before !== 0x3a /* : */ && before !== 0x20) || (after !== 0x3b /* ; */ && after !== 0x20 && after !== 0x22 /* " */ && after !== 0x21) /* ! */)
      continue;
    const quote = styleValueStart(html, at);
    if (quote === -1) continue;
    if (quote !== attribute) {
      attribute = quote;
      inStyle = isStyleAttributeOfTag(html, quote);
    }
    if (!inStyle) continue;
    out += html.slice(copied, at + 1);
    copied = at + 3;
  }
  return out + html.slice(copied);
}

/** The `"` that opens the attribute value holding `at`, or -1: a `<`, `>` or `(` before it (text, or inside a function). */
function styleValueStart(html: string, at: number): number {
  for (let i = at - 1; i >= 0; i--) {
    const code = html.charCodeAt(i);
    if (code === 0x22 /* " */) return i;
    if (code === 0x3c /* < */ || code === 0x3e /* > */ || code === 0x28 /* ( */) return -1;
  }
  return -1;
}

/** Whether the value opened at `quote` is a `style` attribute's, inside a tag (a `<` before it, not a `>`). */
function isStyleAttributeOfTag(html: string, quote: number): boolean {
  if (!html.startsWith(" style=", quote - 7)) return false;
  for (let i = quote - 8; i >= 0; i--) {
    const code = html.charCodeAt(i);
    if (code === 0x3c /* < */) return true;
    if (code === 0x3e /* > */) return false;
  }
  return false;
}

const MENU_RULES_START = "noinput.mj-menu-checkbox {";
/** Sticky at MENU_RULES_START: mj-navbar's head style, from its first rule to the end of its media query. */
const MENU_RULES = /noinput\.mj-menu-checkbox \{[^}]*\}\s*@media[^{]*\{(?:[^{}]*\{[^}]*\})*\s*\}\s*/y;

/** mj-navbar's hamburger rules removed when no hamburger's checkbox is in the document. */
function removeUnusedMenuRules(html: string): string {
  const at = html.indexOf(MENU_RULES_START);
  if (at === -1 || contains(html, 'class="mj-menu-checkbox"')) return html;
  MENU_RULES.lastIndex = at;
  return MENU_RULES.test(html) ? html.slice(0, at) + html.slice(MENU_RULES.lastIndex) : html;
}

/** `<tbody>` and `</tbody>` removed, in one scan. */
function removeTbodyTags(html: string): string {
  const pieces = html.split("tbody>");
  const last = pieces.length - 1;
  let out = "";
  for (let i = 0; i < last; i++) {
    const piece = pieces[i] as string;
    if (piece.endsWith("</")) out += piece.slice(0, -2);
    else if (piece.endsWith("<")) out += piece.slice(0, -1);
    else out += `${piece}tbody>`;
  }
  return out + (pieces[last] as string);
}

/** `background:X;background-color:X` → `background-color:X`. */
function removeRepeatedBackgrounds(html: string): string {
  let out = "";
  let copied = 0;
  for (const at of occurrences(html, BACKGROUND)) {
    if (at < copied) continue;
    REPEATED_BACKGROUND.lastIndex = at;
    const match = REPEATED_BACKGROUND.exec(html);
    if (match === null) continue;
    out += `${html.slice(copied, at)}background-color:${match[1] as string}${match[2] as string}`;
    copied = REPEATED_BACKGROUND.lastIndex;
  }
  return out + html.slice(copied);
}

/**
 * ` style=""` and ` class=""` removed inside tags: `=""` ends each, and neither name holds it. Text
 * may say the same words (quotes are not escaped in text), so only where the last `<` before them
 * comes after the last `>`.
 */
function removeEmptyAttributes(html: string): string {
  const pieces = html.split(EMPTY_VALUE);
  const last = pieces.length - 1;
  let out = "";
  let inTag = false;
  for (let i = 0; i < last; i++) {
    const piece = pieces[i] as string;
    const open = piece.lastIndexOf("<");
    const close = piece.lastIndexOf(">");
    if (open !== close) inTag = open > close;
    out += inTag && (piece.endsWith(" style") || piece.endsWith(" class")) ? piece.slice(0, -6) : piece + EMPTY_VALUE;
  }
  return out + (pieces[last] as string);
}
