/**
 * What mjml writes that no client reads, removed from the html target: a solid `background:#x`
 * repeated as `background-color:#x` (the longhand alone is what every client, Outlook included,
 * reads: mjml adds it for the clients that drop the shorthand), empty `style=""`/`class=""`
 * attributes, `<tbody>` tags (an HTML parser adds the element to every table whose rows lack it,
 * so the document's tree, which CSS selectors see, is the same; Outlook's own tables in conditional
 * comments never had them), a zero length written `0` rather than `0px` in style
 * attributes (outside a function's parentheses, where CSS wants the unit; mjml itself writes a
 * bare `0` in Outlook's markup), and mj-navbar's rules for its hamburger menu, which match
 * nothing in an email without one (our menu block never has one). Merge-tag values are substituted
 * after this step; the zero lengths are looked for inside tags only, never in text.
 *
 * The first three are the replacements of global regular expressions (the test keeps them as the
 * reference), tried only where their literal start stands (src/base/literal-scan.ts).
 *
 * The steps run over the document in chunks (wasteChunks), each step over every chunk in turn: a
 * long document is never copied whole between two steps. V8 allocates a string over 128 KiB (a
 * two-byte one over 64 Ki characters, as soon as the email holds a character beyond Latin-1) in a
 * space of its own, which made each step's copy of the newsletter cost more than its scan
 * (bench/RESULTS.md). A cut comes right after a `>`, where a step working on the chunks gives what
 * it gives on the whole: a step added here must keep that true (or, like removeUnusedMenuRules,
 * see the document whole where it cannot), and the test checks it on every fixture.
 */
import { contains, occurrences } from "../base/literal-scan.js";

const BACKGROUND = "background:";
/** Sticky: `background:([^;"'{}()]+);background-color:\1(;?)/g` at one position. */
const REPEATED_BACKGROUND = /background:([^;"'{}()]+);background-color:\1(;?)/y;
const EMPTY_VALUE = '=""';

/** Chunks of about this many characters: far below V8's 64 Ki two-byte characters. */
const CHUNK_LENGTH = 16_384;

/**
 * `html`: the document, or its pieces (the MJML compile's, src/mjml-to-html/document.ts), which are
 * never joined whole. `chunkLength`: for the test, which cuts short documents into many chunks.
 */
export function removeHtmlWaste(html: string | readonly string[], chunkLength = CHUNK_LENGTH): string {
  const chunks = removeHtmlWasteInChunks(html, chunkLength);
  return chunks.length === 1 ? (chunks[0] as string) : chunks.join("");
}

/** removeHtmlWaste's result in chunks, each but the last ending with a `>` (minifyMarkup reads them so). */
export function removeHtmlWasteInChunks(html: string | readonly string[], chunkLength = CHUNK_LENGTH): string[] {
  let chunks = wasteChunks(typeof html === "string" ? [html] : html, chunkLength);
  chunks = chunks.map(removeRepeatedBackgrounds);
  chunks = chunks.map(removeEmptyAttributes);
  chunks = chunks.map(removeTbodyTags);
  chunks = removeUnusedMenuRules(chunks);
  chunks = chunks.map(shortenZeroLengths);
  return chunks;
}

/**
 * The concatenation of `pieces` cut into chunks of at least `length` characters (the last may be
 * shorter, and a chunk longer where no cut was found), each cut right after a `>`. No step's match
 * holds a `>` that is not its last character (a zero length, an empty attribute), or a `>` at all
 * but where a repeated background's value holds one, and those steps' looks back (is this `=""`
 * inside a tag, is this `0px` in a style attribute) stop at a `>`: so the steps do on the chunks
 * what they do on the whole, given two more conditions on a cut, checked by isCut.
 */
function wasteChunks(pieces: readonly string[], length: number): string[] {
  const chunks: string[] = [];
  let pending = "";
  let tryAt = length;
  for (const piece of pieces) {
    pending += piece;
    if (pending.length < tryAt) continue;
    pending = cutInto(chunks, pending, length);
    tryAt = pending.length + length;
  }
  if (pending !== "" || chunks.length === 0) chunks.push(pending);
  return chunks;
}

/** `text` cut into chunks of at least `length` characters, pushed to `chunks`; returns what is left after the last cut. */
function cutInto(chunks: string[], text: string, length: number): string {
  let start = 0;
  let gt = text.indexOf(">", length - 1);
  while (gt !== -1 && gt + 1 < text.length) {
    const cut = gt + 1;
    if (isCut(text, start, cut)) {
      chunks.push(text.slice(start, cut));
      start = cut;
      gt = text.indexOf(">", start + length - 1);
    } else gt = text.indexOf(">", cut);
  }
  return start === 0 ? text : text.slice(start);
}

/**
 * Whether the chunk from `start` may end at `cut`, right after a `>`: the `>` ends no `<tbody>` or
 * `</tbody>` (whose removal would leave the chunk ending with what stood before it), and no
 * `background` stands in the characters a background's value may hold that end the chunk (a
 * repeated background running on past the cut).
 */
function isCut(text: string, start: number, cut: number): boolean {
  return !text.startsWith("tbody>", cut - 6) && !backgroundRunsTo(text, start, cut);
}

/** Whether `background` stands in the run of characters that a background's value may hold (not `;"'{}()`) that ends at `end`. */
function backgroundRunsTo(html: string, start: number, end: number): boolean {
  let runStart = end;
  while (runStart > start && !isValueStop(html.charCodeAt(runStart - 1))) runStart--;
  return end - runStart >= "background".length && html.slice(runStart, end).includes("background");
}

/** The characters a repeated background's value cannot hold (REPEATED_BACKGROUND's `[^;"'{}()]`). */
const VALUE_STOPS: ReadonlySet<number> = new Set([...";\"'{}()"].map((c) => c.charCodeAt(0)));
const isValueStop = (code: number): boolean => VALUE_STOPS.has(code);

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
const HAMBURGER_CHECKBOX = 'class="mj-menu-checkbox"';

/**
 * mj-navbar's hamburger rules removed when no hamburger's checkbox is in the document (its chunks).
 * The expression reads forward without a choice to undo (each part ends at the first brace of a
 * kind), so a match found within the chunk where the rules start, which cannot end at the chunk's
 * last `>`, is the document's match; a miss may depend on what follows, and is tried again on the
 * rest of the document, whole.
 */
function removeUnusedMenuRules(chunks: string[]): string[] {
  const first = chunks.findIndex((chunk) => contains(chunk, MENU_RULES_START));
  if (first === -1 || chunks.some((chunk) => contains(chunk, HAMBURGER_CHECKBOX))) return chunks;
  const own = withoutMenuRules(chunks[first] as string);
  if (own !== undefined) {
    chunks[first] = own;
    return chunks;
  }
  const rest = withoutMenuRules(chunks.slice(first).join(""));
  return rest === undefined ? chunks : [...chunks.slice(0, first), rest];
}

/** `text` without the menu rules that start at its first MENU_RULES_START, or undefined when they do not match there. */
function withoutMenuRules(text: string): string | undefined {
  const at = text.indexOf(MENU_RULES_START);
  MENU_RULES.lastIndex = at;
  return MENU_RULES.test(text) ? text.slice(0, at) + text.slice(MENU_RULES.lastIndex) : undefined;
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
