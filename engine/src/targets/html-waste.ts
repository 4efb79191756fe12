/**
 * What mjml writes that no client reads, removed from the html target: a solid `background:#x`
 * repeated as `background-color:#x` (the longhand alone is what every client, Outlook included,
 * reads: mjml adds it for the clients that drop the shorthand), empty `style=""`/`class=""`
 * attributes, `<tbody>` tags (an HTML parser adds the element to every table whose rows lack it,
 * so the document's tree, which CSS selectors see, is the same; Outlook's own tables in conditional
 * comments never had them), a zero length written `0` rather than `0px` in style
 * attributes (outside a function's parentheses, where CSS wants the unit; mjml itself writes a
 * bare `0` in Outlook's markup), and mj-navbar's rules for its hamburger menu, which match
 * nothing in an email without one (our menu block never has one). Then what mjml writes for a
 * general case that ours is not (each function says why no reader loses it): the text style of a
 * heading's wrapper that the heading overrides, an empty column's table, a column table's
 * vertical alignment, the zero padding of cells whose table says `cellpadding="0"`, and on
 * Outlook's buttons, `mso-*` properties where Outlook does not look and Word's namespace on each.
 * Merge-tag values are substituted after this step; the zero lengths are looked for inside tags
 * only, never in text.
 *
 * Every step reads the document mjml wrote and marks what it changes (src/targets/edits.ts); the
 * document is written once, after all of them: a copy of the newsletter's html is a large allocation
 * in V8, which each step returning a document paid. So no step sees another's changes: each is
 * written for the markup as mjml writes it (a zero length may still read `0px`), and one that
 * removes or rewrites a region whole wins over the changes inside it. The first three are together
 * the replacement of one global regular expression with three alternatives (the test keeps it as
 * the reference), tried only where their literal start stands (src/base/literal-scan.ts). Each scan
 * is a pass a new template's render pays, so the later steps share theirs (docs/design/html-size.md).
 *
 * The release executable runs `removeHtmlWaste`'s steps in C (engine/runtimes/quickjs/native/html-waste.c,
 * docs/design/executable-runtimes.md), and Node's host runs that C as WebAssembly: this is their
 * definition, and a change here is made there too (test/native-functions.test.ts compares them on
 * generated text, the fixtures on every golden).
 */
import { contains, occurrences } from "../base/literal-scan.js";
import { DocumentEdits } from "./edits.js";

const BACKGROUND = "background:";
/** Sticky: `background:([^;"'{}()]+);background-color:\1(;?)/g` at one position. */
const REPEATED_BACKGROUND = /background:([^;"'{}()]+);background-color:\1(;?)/y;
const EMPTY_VALUE = '=""';

export function removeHtmlWaste(html: string): string {
  return htmlWasteEdits(html).applyTo(html);
}

/** What every step would change in `html`, marked, not yet made. */
function htmlWasteEdits(html: string): DocumentEdits {
  const edits = new DocumentEdits();
  removeRepeatedBackgrounds(html, edits);
  removeEmptyAttributes(html, edits);
  removeTbodyTags(html, edits);
  removeUnusedMenuRules(html, edits);
  shortenZeroLengths(html, edits);
  leanerDivs(html, edits);
  removeZeroCellPadding(html, edits);
  leanerOutlookButtons(html, edits);
  return edits;
}

/**
 * Sticky at `<div`: a column's box and its table as mjml writes them for a column with no colour,
 * border or padding, the table's vertical alignment its only style (the rest in groups 1 and 2).
 */
const ALIGNED_COLUMN_TABLE =
  /(<div\s+class="mj-column-per-[^"]*"\s+style="[^"]*"\s*>\s*<table\s+border="0"\s+cellpadding="0"\s+cellspacing="0"\s+role="presentation")\s+style="vertical-align:(?:top|middle|bottom);"(\s+width="100%"\s*>)/y;

/**
 * A column's table loses the vertical alignment mjml copies onto it from the column (where it
 * belongs on the column's box and on Outlook's cell, which keep it): a table is a block, which
 * `vertical-align` does not apply to, and each of its rows holds one cell as tall as its content,
 * so nothing could move even where a reader applied it to the cells.
 */
function columnTableAt(html: string, at: number, edits: DocumentEdits): boolean {
  ALIGNED_COLUMN_TABLE.lastIndex = at;
  const match = ALIGNED_COLUMN_TABLE.exec(html);
  if (match === null) return false;
  edits.remove(at + (match[1] as string).length, ALIGNED_COLUMN_TABLE.lastIndex - (match[2] as string).length);
  return true;
}

const ZERO_PADDING = ";padding:0";

/**
 * `padding:0` dropped from the cells mjml writes for a block (`…font-size:0;padding:0;word-break:…`)
 * and for a section's content (`direction:…;font-size:0;padding:0;text-align:…`): both stand in a
 * table with `cellpadding="0"`, which gives its cells that padding in every reader (Outlook's
 * ghost tables rely on it alone). mjml writes the zeros `0px`: such a zero counts where
 * `shortenZeroLengths` makes it `0`.
 */
function removeZeroCellPadding(html: string, edits: DocumentEdits): void {
  for (const at of occurrences(html, ZERO_PADDING)) {
    const fontSizeInPx = html.endsWith("font-size:0px", at);
    const fontSize = fontSizeInPx ? at - 13 : html.endsWith("font-size:0", at) ? at - 11 : -1;
    const zeroEnd = at + ZERO_PADDING.length;
    const paddingInPx = html.startsWith("px;", zeroEnd);
    const after = paddingInPx ? zeroEnd + 3 : html.startsWith(";", zeroEnd) ? zeroEnd + 1 : -1;
    if (fontSize === -1 || after === -1) continue;
    const block = html.startsWith("word-break:break-word;", after);
    const section =
      (html.endsWith(' style="direction:ltr;', fontSize) || html.endsWith(' style="direction:rtl;', fontSize)) && html.startsWith("text-align:", after);
    const tag = html.lastIndexOf("<", fontSize);
    const style = html.lastIndexOf(' style="', fontSize);
    if (!(block || section) || !html.startsWith("<td", tag) || html.lastIndexOf(">", fontSize) > tag || style < tag) continue;
    // In a tag's style attribute: a `0px` is written `0` unless a `(` comes before it in its value.
    if ((fontSizeInPx || paddingInPx) && /["(]/.test(html.slice(style + ' style="'.length, fontSize))) continue;
    edits.remove(at + 1, after);
  }
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
function emptyColumnAt(html: string, at: number, edits: DocumentEdits): boolean {
  EMPTY_COLUMN.lastIndex = at;
  const match = EMPTY_COLUMN.exec(html);
  if (match === null) return false;
  const [, className, align, width] = match as unknown as [string, string, string, string];
  edits.replace(
    at,
    EMPTY_COLUMN.lastIndex,
    `<div class="${className} mj-outlook-group-fix" style="font-size:0;display:inline-block;vertical-align:${align};width:${width};"></div>`,
  );
  return true;
}

/** The divs rewritten in one scan: empty columns, columns' tables and headings' wrappers. */
function leanerDivs(html: string, edits: DocumentEdits): void {
  for (const at of occurrences(html, "<div")) {
    if (!emptyColumnAt(html, at, edits) && !columnTableAt(html, at, edits)) headingWrapperAt(html, at, edits);
  }
}

const WORD_NAMESPACE = ' xmlns:w="urn:schemas-microsoft-com:office:word"';
const OFFICE_NAMESPACE = ' xmlns:o="urn:schemas-microsoft-com:office:office"';
const ROUNDRECT_WITH_NAMESPACE = `<v:roundrect${WORD_NAMESPACE}`;
const NOT_OUTLOOK_START = "<!--[if !mso]><!-->";
const NOT_OUTLOOK_END = "<!--<![endif]-->";
/** A start tag (text holds no `<` before a letter: it is escaped). */
const START_TAG = /<[a-zA-Z][^>]*>/g;
/** A tag's first style attribute: its name and opening quote (group 1), its value (group 2). */
const STYLE_ATTRIBUTE = /(\sstyle=")([^"]*)"/;
/** An `mso-*` declaration, at the start of a style value or after a `;`. */
const OUTLOOK_DECLARATION = /(?<=^|;)\s*mso-[a-z-]+:[^;]*;?/g;

/**
 * Outlook's buttons (a VML `v:roundrect` for Outlook, then the button every other reader sees, in
 * `<!--[if !mso]><!-->`…`<!--<![endif]-->`), in one scan: the `w` namespace of their
 * `w:anchorlock` declared once on `<html>`, beside the `v` and `o` ones mjml declares there (as Word
 * itself writes a document), rather than on each button (the mjml target keeps it on each, as mjml
 * writes its `<html>`); and the `mso-*` properties (only Outlook's Word engine reads them) that
 * mjml writes on the button Outlook skips, dropped.
 */
function leanerOutlookButtons(html: string, edits: DocumentEdits): void {
  const pieces = html.split(ROUNDRECT_WITH_NAMESPACE);
  const head = pieces[0] as string;
  const root = head.indexOf(OFFICE_NAMESPACE);
  if (pieces.length === 1 || root === -1 || !head.startsWith("<html", head.lastIndexOf("<", root))) return;
  edits.insert(root + OFFICE_NAMESPACE.length, WORD_NAMESPACE);
  let at = head.length;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] as string;
    at += ROUNDRECT_WITH_NAMESPACE.length;
    edits.remove(at - WORD_NAMESPACE.length, at);
    removeOutlookProperties(piece, at, edits);
    at += piece.length;
  }
}

/** `mso-*` declarations dropped from the style attributes of the first not-Outlook region in `piece`, which starts at `offset`. */
function removeOutlookProperties(piece: string, offset: number, edits: DocumentEdits): void {
  // The first occurrence only: the literal is near, and indexOf stops there.
  const start = piece.indexOf(NOT_OUTLOOK_START);
  const end = start === -1 ? -1 : piece.indexOf(NOT_OUTLOOK_END, start);
  if (end === -1) return;
  const region = piece.slice(start, end);
  for (const tag of region.matchAll(START_TAG)) {
    const style = STYLE_ATTRIBUTE.exec(tag[0]);
    if (style === null) continue;
    const value = offset + start + tag.index + style.index + (style[1] as string).length;
    for (const declaration of (style[2] as string).matchAll(OUTLOOK_DECLARATION)) {
      edits.remove(value + declaration.index, value + declaration.index + declaration[0].length);
    }
  }
}

/** Properties a heading inherits from its wrapper and nothing else: the wrapper's own box uses them only for text of its own. */
const INHERITED_TEXT = new Set([
  "font-family",
  "font-size",
  "line-height",
  "text-align",
  "color",
  "font-weight",
  "font-style",
  "letter-spacing",
  "text-transform",
]);
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
  // `0px` is not one: `shortenZeroLengths` writes it `0`, and the heading is read as it will be.
  const fontSize = heading?.get("font-size") ?? "";
  if (wrapper === undefined || heading === undefined || fontSize === "0px" || !/^\d+(?:\.\d+)?px$/.test(fontSize)) return false;
  return [...wrapper.keys()].every((name) => INHERITED_TEXT.has(name) && heading.has(name));
}

/**
 * The style of a `<div>` whose only child is a heading that sets every property of it, dropped:
 * mj-text writes its text style on its div, and a heading block carries its own on the heading
 * (Outlook styles `h1`–`h6` from its own sheet otherwise), so the div's is read by nothing.
 */
function headingWrapperAt(html: string, at: number, edits: DocumentEdits): void {
  HEADING_WRAPPER.lastIndex = at;
  const match = HEADING_WRAPPER.exec(html);
  if (match === null) return;
  const [text, wrapperStyle, level, headingStyle] = match as unknown as [string, string, string, string];
  const close = html.indexOf(`</${level}>`, HEADING_WRAPPER.lastIndex); // near: indexOf stops there
  if (close === -1) return;
  HEADING_END.lastIndex = close + level.length + 3;
  if (!HEADING_END.test(html) || !overridesAll(wrapperStyle, headingStyle)) return;
  // `<div` stays; its attributes go, up to the `>` after the style's closing quote.
  edits.remove(at + "<div".length, at + text.indexOf(">", text.indexOf('"', text.indexOf('"') + 1)));
}

/**
 * `0px` → `0` where it is a whole value in a style attribute's declaration (`:0px;`, ` 0px"`,
 * `:0px !important`): inside a tag (its last `<` after its last `>`), in the value of the last
 * attribute opened (` style="`), with no `(` before it there (a function's argument keeps its unit).
 * Found with `lastIndexOf`, which QuickJS runs in C: a loop over characters in JavaScript, run back
 * from each zero of a long `<style>` (which holds no tag), was the costliest step there.
 */
function shortenZeroLengths(html: string, edits: DocumentEdits): void {
  let textUntil = -1;
  for (const at of occurrences(html, "0px")) {
    if (at < textUntil || !isWholeZeroValue(html, at)) continue;
    const open = html.lastIndexOf("<", at);
    if (open === -1 || html.lastIndexOf(">", at) > open) {
      // Text up to the next tag: its other zeros are skipped without a look back.
      textUntil = html.indexOf("<", at);
      if (textUntil === -1) return;
      continue;
    }
    const quote = html.lastIndexOf('"', at);
    if (quote > open && html.startsWith(" style=", quote - 7) && !html.slice(quote, at).includes("(")) edits.remove(at + 1, at + 3);
  }
}

/** Whether the `0px` at `at` is a whole value in a declaration: after `:` or a space, before `;`, a space, `"` or `!`. */
function isWholeZeroValue(html: string, at: number): boolean {
  const before = html.charCodeAt(at - 1);
  const after = html.charCodeAt(at + 3);
  return (before === 0x3a /* : */ || before === 0x20) && (after === 0x3b /* ; */ || after === 0x20 || after === 0x22 /* " */ || after === 0x21) /* ! */;
}

const MENU_RULES_START = "noinput.mj-menu-checkbox {";
/** Sticky at MENU_RULES_START: mj-navbar's head style, from its first rule to the end of its media query. */
const MENU_RULES = /noinput\.mj-menu-checkbox \{[^}]*\}\s*@media[^{]*\{(?:[^{}]*\{[^}]*\})*\s*\}\s*/y;

/** mj-navbar's hamburger rules removed when no hamburger's checkbox is in the document. */
function removeUnusedMenuRules(html: string, edits: DocumentEdits): void {
  const at = html.indexOf(MENU_RULES_START);
  if (at === -1 || contains(html, 'class="mj-menu-checkbox"')) return;
  MENU_RULES.lastIndex = at;
  if (MENU_RULES.test(html)) edits.remove(at, MENU_RULES.lastIndex);
}

/** `<tbody>` and `</tbody>` removed, in one scan. */
function removeTbodyTags(html: string, edits: DocumentEdits): void {
  for (const at of occurrences(html, "tbody>")) {
    if (html.startsWith("</", at - 2)) edits.remove(at - 2, at + 6);
    else if (html.charCodeAt(at - 1) === 0x3c /* < */) edits.remove(at - 1, at + 6);
  }
}

/** `background:X;background-color:X` → `background-color:X`, as the expression's replacement (nothing inside it changed). */
function removeRepeatedBackgrounds(html: string, edits: DocumentEdits): void {
  let matched = 0;
  for (const at of occurrences(html, BACKGROUND)) {
    if (at < matched) continue;
    REPEATED_BACKGROUND.lastIndex = at;
    const match = REPEATED_BACKGROUND.exec(html);
    if (match === null) continue;
    matched = REPEATED_BACKGROUND.lastIndex;
    edits.replace(at, matched, `background-color:${match[1] as string}${match[2] as string}`);
  }
}

/**
 * ` style=""` and ` class=""` removed inside tags: `=""` ends each, and neither name holds it. Text
 * may say the same words (quotes are not escaped in text), so only where the last `<` before them
 * comes after the last `>`.
 */
function removeEmptyAttributes(html: string, edits: DocumentEdits): void {
  const pieces = html.split(EMPTY_VALUE);
  const last = pieces.length - 1;
  let at = 0;
  let inTag = false;
  for (let i = 0; i < last; i++) {
    const piece = pieces[i] as string;
    const open = piece.lastIndexOf("<");
    const close = piece.lastIndexOf(">");
    if (open !== close) inTag = open > close;
    at += piece.length;
    if (inTag && (piece.endsWith(" style") || piece.endsWith(" class"))) edits.remove(at - 6, at + EMPTY_VALUE.length);
    at += EMPTY_VALUE.length;
  }
}
