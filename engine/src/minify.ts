/**
 * The engine's own minifier, identical for every client (mjml's would need cssnano and differs by
 * version). Comments are never removed: Outlook's conditional comments live in them.
 *
 * html and mjml: inside <style>, <script>, <mj-style> and comments, lines are trimmed and blank
 * lines dropped; <pre> and <textarea> are left alone; elsewhere whitespace between tags that holds
 * a line break is removed, other line breaks become a space, and runs of spaces/tabs collapse to one.
 * A single space between two inline elements on one line is kept, so `<b>a</b> <i>b</i>` keeps its
 * word gap. react-email: lines trimmed, 3+ newlines collapse to one blank line, the whole trimmed.
 */

import { isSpace } from "./whitespace.js";

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
/** Sticky: the whitespace run at its `lastIndex` (an expression at one position runs in C; a loop per character is interpreted). */
const SPACE_RUN = /\s*/y;

function tidyLines(block: string): string {
  return block
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * The steps are those of a handful of global regular expressions (the test keeps them as the
 * reference), written as scans that jump with `indexOf`: the release executable's QuickJS runs a
 * global expression by trying it at every character, which made this minifier ~15% of a cold html
 * render (bench/README.md).
 */
export function minifyMarkup(source: string): string {
  const kept: string[] = [];
  const masked = maskProtected(source, kept);
  const minified = collapseBlankRuns(trimTagEnds(collapseLineBreaks(masked))).trim();
  return restoreProtected(minified, kept);
}

/** Comments and protected elements → `<\uE002i>`, the block (lines tidied, except pre and textarea) kept as `kept[i]`. */
function maskProtected(source: string, kept: string[]): string {
  let out = "";
  let copied = 0;
  for (let at = source.indexOf("<"); at !== -1; ) {
    const found = protectedBlock(source, at);
    if (found === undefined) {
      at = source.indexOf("<", at + 1);
      continue;
    }
    const { end, tag } = found;
    const block = source.slice(at, end);
    kept.push(tag === "pre" || tag === "textarea" ? block : tidyLines(block));
    out += `${source.slice(copied, at)}${PLACEHOLDER_START}${kept.length - 1}>`;
    copied = end;
    at = source.indexOf("<", end);
  }
  return out + source.slice(copied);
}

/** The comment (tag "") or protected element, close tag included, that starts at `at`: where it ends. */
function protectedBlock(source: string, at: number): { end: number; tag: string } | undefined {
  if (source.startsWith("<!--", at)) {
    const close = source.indexOf("-->", at + 4);
    return close === -1 ? undefined : { end: close + 3, tag: "" };
  }
  // Only s, p, t and m can start one of those names: most tags are refused without running the expression.
  const initial = source.charCodeAt(at + 1) | 0x20;
  if (initial !== 0x73 && initial !== 0x70 && initial !== 0x74 && initial !== 0x6d) return undefined;
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
 * removed between a tag's `>` and the next `<`, a space elsewhere.
 */
function collapseLineBreaks(text: string): string {
  let out = "";
  let copied = 0;
  for (let newline = text.indexOf("\n"); newline !== -1; ) {
    let start = newline;
    while (start > copied && isLineSpace(text.charCodeAt(start - 1))) start--;
    SPACE_RUN.lastIndex = newline + 1;
    SPACE_RUN.test(text);
    const end = SPACE_RUN.lastIndex;
    out += text.slice(copied, start) + (text[start - 1] === ">" && text[end] === "<" ? "" : " ");
    copied = end;
    newline = text.indexOf("\n", end);
  }
  return out + text.slice(copied);
}

/** Whitespace before the `>` or `/>` that ends a start tag, removed. */
function trimTagEnds(text: string): string {
  let out = "";
  let copied = 0;
  for (let open = text.indexOf("<"); open !== -1; ) {
    const next = text.indexOf("<", open + 1);
    const close = isAsciiLetter(text.charCodeAt(open + 1)) ? text.indexOf(">", open + 2) : -1;
    if (close !== -1 && (next === -1 || close < next)) {
      const spaceEnd = text.charCodeAt(close - 1) === 0x2f /* / */ ? close - 1 : close;
      let spaceStart = spaceEnd;
      while (spaceStart > open + 2 && isSpace(text.charCodeAt(spaceStart - 1))) spaceStart--;
      if (spaceStart < spaceEnd) {
        out += text.slice(copied, spaceStart);
        copied = spaceEnd;
      }
    }
    open = next;
  }
  return out + text.slice(copied);
}

/** Runs of two or more spaces and tabs → one space. */
function collapseBlankRuns(text: string): string {
  let out = "";
  let copied = 0;
  let doubleSpace = text.indexOf("  ");
  let tab = text.indexOf("\t");
  for (;;) {
    // The first pair of blanks from `copied`: two spaces, or one holding the first tab that has a blank neighbour.
    if (doubleSpace !== -1 && doubleSpace < copied) doubleSpace = text.indexOf("  ", copied);
    if (tab !== -1 && tab < copied) tab = text.indexOf("\t", copied);
    let tabPair = -1;
    while (tab !== -1 && (doubleSpace === -1 || tab <= doubleSpace)) {
      if (tab - 1 >= copied && text.charCodeAt(tab - 1) === 0x20) tabPair = tab - 1;
      else if (isBlank(text.charCodeAt(tab + 1))) tabPair = tab;
      if (tabPair !== -1) break;
      tab = text.indexOf("\t", tab + 1);
    }
    const start = tabPair === -1 ? doubleSpace : doubleSpace === -1 ? tabPair : Math.min(tabPair, doubleSpace);
    if (start === -1) break;
    let end = start + 2;
    while (isBlank(text.charCodeAt(end))) end++;
    out += `${text.slice(copied, start)} `;
    copied = end;
  }
  return out + text.slice(copied);
}

/** `<\uE002i>` → `kept[i]`. */
function restoreProtected(text: string, kept: readonly string[]): string {
  let out = "";
  let copied = 0;
  for (let at = text.indexOf(PLACEHOLDER_START); at !== -1; at = text.indexOf(PLACEHOLDER_START, at + 1)) {
    let digits = at + PLACEHOLDER_START.length;
    while (isDigit(text.charCodeAt(digits))) digits++;
    if (digits === at + PLACEHOLDER_START.length || text[digits] !== ">") continue;
    out += text.slice(copied, at) + (kept[Number(text.slice(at + PLACEHOLDER_START.length, digits))] ?? "");
    copied = digits + 1;
    at = digits;
  }
  return out + text.slice(copied);
}

const isBlank = (code: number): boolean => code === 0x20 || code === 0x09;
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
