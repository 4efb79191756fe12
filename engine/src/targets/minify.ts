/**
 * The engine's own minifier, identical for every client (mjml's would need cssnano and differs by
 * version). Comments are never removed: Outlook's conditional comments live in them.
 *
 * html and mjml: inside <style>, <script>, <mj-style> and comments, lines are trimmed and blank
 * lines dropped; <pre> and <textarea> are left alone; elsewhere whitespace between tags that holds
 * a line break is removed, other line breaks become a space, and runs of spaces/tabs collapse to one.
 * A single space between two inline elements on one line is kept, so `<b>a</b> <i>b</i>` keeps its
 * word gap. react-email: lines trimmed, 3+ newlines collapse to one blank line, the whole trimmed.
 *
 * The release executable runs `minifyMarkup`'s steps in C (engine/runtimes/quickjs/native/markup-minify.c,
 * docs/design/executable-runtimes.md), and Node's host runs that C as WebAssembly: this is their
 * definition, and a change here is made there too (test/native-functions.test.ts compares them on
 * generated text, the fixtures on every golden).
 */

import { contains, occurrences } from "../base/literal-scan.js";
import { isSpace } from "../base/whitespace.js";

/** `<style>`, `<script>`, `<mj-style>`, `<pre>`, `<textarea>` opened at the sticky position, and the close of each. */
const PROTECTED_OPEN = /<(style|script|mj-style|pre|textarea)\b[^>]*>/iy;
const PROTECTED_CLOSE: Readonly<Record<string, RegExp>> = {
  style: /<\/style\s*>/iy,
  script: /<\/script\s*>/iy,
  "mj-style": /<\/mj-style\s*>/iy,
  pre: /<\/pre\s*>/iy,
  textarea: /<\/textarea\s*>/iy,
};
const PLACEHOLDER_START = "<\uE002";

/**
 * A block's lines trimmed, blank ones dropped. Most blocks are one line (Outlook's conditional
 * comments): trimmed whole. The others in a loop rather than `map` and `filter`, whose callbacks
 * QuickJS calls in its interpreter, twice a line.
 */
function tidyLines(block: string): string {
  if (!block.includes("\n")) return block.trim();
  let out = "";
  for (const line of block.split("\n")) {
    const trimmed = line.trim();
    if (trimmed !== "") out = out === "" ? trimmed : `${out}\n${trimmed}`;
  }
  return out;
}

/**
 * The steps are those of a handful of global regular expressions (the test keeps them as the
 * reference), written as scans that jump from one candidate to the next: the release executable's
 * QuickJS runs a global expression by trying it at every character, which made this minifier ~15% of
 * a cold html render (bench/README.md). Candidates are found with `split`, which QuickJS runs as a
 * tight loop in C; its `indexOf` compares at every position through a function call.
 */
export function minifyMarkup(source: string): string {
  const kept: string[] = [];
  const masked = maskProtectedAndTrimTagEnds(source, kept);
  const minified = collapseBlankRuns(collapseLineBreaks(masked)).trim();
  return restoreProtected(minified, kept);
}

/**
 * Comments and protected elements → `<\uE002i>`, the block (lines tidied, except pre and textarea)
 * kept as `kept[i]`; and the whitespace before the `>` or `/>` that ends a start tag elsewhere,
 * removed. One scan of the tags for both: the second was a pass over the whole document. A tag's
 * whitespace is removed before the line breaks are collapsed, which gives what removing it after
 * would (the reference test): a line break inside a tag only ever becomes a space.
 */
function maskProtectedAndTrimTagEnds(source: string, kept: string[]): string {
  const tags = occurrences(source, "<");
  let out = "";
  let copied = 0;
  for (let k = 0; k < tags.length; k++) {
    const at = tags[k] as number;
    if (at < copied) continue;
    // Read once: each read of a character is a call in QuickJS.
    const next = source.charCodeAt(at + 1);
    // An end tag (half of a document's tags) is neither a block nor a start tag.
    if (next === 0x2f /* / */) continue;
    const found = mayOpenProtected(source, at, next) ? protectedBlock(source, at) : undefined;
    if (found !== undefined) {
      const { end, tag } = found;
      const block = source.slice(at, end);
      kept.push(tag === "pre" || tag === "textarea" ? block : tidyLines(block));
      out += `${source.slice(copied, at)}${PLACEHOLDER_START}${kept.length - 1}>`;
      copied = end;
      continue;
    }
    // A start tag: `<`, a letter, and its `>` before the next `<`.
    if (!isAsciiLetter(next)) continue;
    const close = source.indexOf(">", at + 2);
    if (close === -1 || close > (tags[k + 1] ?? source.length)) continue;
    const spaceEnd = source.charCodeAt(close - 1) === 0x2f /* / */ ? close - 1 : close;
    if (spaceEnd <= at + 2 || !isSpace(source.charCodeAt(spaceEnd - 1))) continue;
    // `trimEnd` removes what `\s` matches, as isSpace, in one call.
    const spaceStart = at + 2 + source.slice(at + 2, spaceEnd).trimEnd().length;
    out += source.slice(copied, spaceStart);
    copied = spaceEnd;
  }
  return out + source.slice(copied);
}
/**
 * Whether the `<` at `at` (`next`: the character after it) may open a comment or a protected
 * element: `!`, or the start of one of those names (`st`, `sc`, `pr`, `te`, `mj-st`, in any case).
 * Most tags (td, tr, table, span, p, mj-section) are refused here rather than by the expression,
 * which QuickJS runs through a call.
 */
function mayOpenProtected(source: string, at: number, next: number): boolean {
  const first = next | 0x20;
  if (first === 0x21 /* ! */) return true;
  const second = source.charCodeAt(at + 2) | 0x20;
  if (first === 0x73 /* s */) return second === 0x74 /* t */ || second === 0x63; /* c */
  if (first === 0x70 /* p */) return second === 0x72; /* r */
  if (first === 0x74 /* t */) return second === 0x65; /* e */
  // mj-style among the mj- tags: `s`, `t` after the dash.
  return first === 0x6d /* m */ && second === 0x6a /* j */ && (source.charCodeAt(at + 4) | 0x20) === 0x73 && (source.charCodeAt(at + 5) | 0x20) === 0x74;
}

/** The comment (tag "") or protected element, close tag included, that starts at `at`: where it ends. */
function protectedBlock(source: string, at: number): { end: number; tag: string } | undefined {
  if (source.startsWith("<!--", at)) {
    const close = source.indexOf("-->", at + 4);
    return close === -1 ? undefined : { end: close + 3, tag: "" };
  }
  PROTECTED_OPEN.lastIndex = at;
  const open = PROTECTED_OPEN.exec(source);
  if (open === null) return undefined;
  const tag = (open[1] as string).toLowerCase();
  const close = PROTECTED_CLOSE[tag] as RegExp;
  for (let end = source.indexOf("</", PROTECTED_OPEN.lastIndex); end !== -1; end = source.indexOf("</", end + 1)) {
    close.lastIndex = end;
    if (close.test(source)) return { end: close.lastIndex, tag };
  }
  return undefined;
}

/**
 * Whitespace holding a line break (spaces, tabs and CRs before it, any whitespace after it):
 * removed between a tag's `>` and the next `<`, a space elsewhere. Line by line: a line's leading
 * whitespace, and lines of whitespace alone, belong to the break before them.
 */
function collapseLineBreaks(text: string): string {
  const lines = text.split("\n");
  const last = lines.length - 1;
  let out = "";
  let lastCode = Number.NaN;
  for (let i = 0; i <= last; i++) {
    let line = lines[i] as string;
    if (i > 0) {
      line = line.trimStart();
      if (line === "" && i < last) continue;
      out += lastCode === 0x3e /* > */ && line.charCodeAt(0) === 0x3c /* < */ ? "" : " ";
    }
    lastCode = line.charCodeAt(line.length - 1);
    // The guard first: a call costs QuickJS more than the comparison.
    if (i < last && lastCode <= 0x20 && isLineSpace(lastCode)) {
      line = trimLineSpaceEnd(line);
      lastCode = line.charCodeAt(line.length - 1);
    }
    out += line;
  }
  return out;
}

/** The spaces, tabs and CRs that end a line, removed. */
function trimLineSpaceEnd(line: string): string {
  let end = line.length;
  while (end > 0 && isLineSpace(line.charCodeAt(end - 1))) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** Runs of two or more spaces and tabs → one space. */
function collapseBlankRuns(text: string): string {
  // Tabs are rare in markup: the expression then, which costs QuickJS work at every character.
  if (contains(text, "\t")) return text.replace(/[ \t]{2,}/g, " ");
  // A run of spaces splits into empty pieces and, when odd, a piece that starts with its last space.
  const pieces = text.split("  ");
  const last = pieces.length - 1;
  let out = pieces[0] as string;
  for (let i = 1; i <= last; i++) {
    const piece = pieces[i] as string;
    if (piece === "" && i < last) continue;
    out += ` ${piece.charCodeAt(0) === 0x20 ? piece.slice(1) : piece}`;
  }
  return out;
}

/** `<\uE002i>` → `kept[i]`. */
function restoreProtected(text: string, kept: readonly string[]): string {
  const pieces = text.split(PLACEHOLDER_START);
  let out = pieces[0] as string;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] as string;
    let digits = 0;
    while (isDigit(piece.charCodeAt(digits))) digits++;
    out += digits > 0 && piece[digits] === ">" ? (kept[Number(piece.slice(0, digits))] ?? "") + piece.slice(digits + 1) : PLACEHOLDER_START + piece;
  }
  return out;
}

const isLineSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0d;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isAsciiLetter = (code: number): boolean => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

export function minifyJsx(source: string): string {
  return source
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
