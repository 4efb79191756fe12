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
  return minifyPart(source, false) as string;
}

/**
 * `minifyMarkup` of the pieces' concatenation, made a run of pieces at a time: where only
 * whitespace holding a line break (or nothing) stands between a `>` and a `<`, the minifier removes
 * it whole, so what comes before and after is minified as it would be alone, once no comment or
 * protected element is left open there. A document's pieces repeat (a compile writes the same
 * markup for each like block): each distinct run is minified once per `memo`, and each distinct
 * piece's edges are read once.
 */
export function minifyMarkupPieces(pieces: readonly string[], memo: PiecesMemo): string {
  // Joined once: appending to a long string copies it in QuickJS.
  const out: string[] = [];
  let run = "";
  let runEnd: Edge = Edge.None;
  let runInComment = false;
  let gap = "";
  let gapEdge: Edge = Edge.Empty;
  let failed = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as string;
    const edges = edgesOf(piece, memo.edges);
    if (edges.blank) {
      gap += piece;
      if (edges.end > gapEdge) gapEdge = edges.end;
      continue;
    }
    if (run !== "" && !runInComment && isCut(runEnd, gapEdge, edges.start)) {
      let done = memo.runs.get(run);
      if (done === undefined) {
        done = minifyPart(run, true) ?? null;
        memo.runs.set(run, done);
      }
      if (done !== null) {
        out.push(done);
        run = piece;
        runEnd = edges.end;
        runInComment = edges.opensComment;
        gap = "";
        gapEdge = Edge.Empty;
        failed = 0;
        continue;
      }
      // A run that the template's own markup leaves open: the rest is minified whole.
      if (++failed > MAX_FAILED_CUTS) {
        out.push(minifyMarkup(run + gap + pieces.slice(i).join("")));
        return out.join("");
      }
    }
    run += gap + piece;
    runEnd = edges.end;
    runInComment = edges.opensComment || (runInComment && !edges.closesComment);
    gap = "";
    gapEdge = Edge.Empty;
  }
  out.push(minifyMarkup(run + gap));
  return out.join("");
}

/** What minifyMarkupPieces keeps of a document's pieces: runs minified (null: left something open), pieces' edges. */
export interface PiecesMemo {
  readonly runs: Map<string, string | null>;
  readonly edges: Map<string, PieceEdges>;
}

export function piecesMemo(): PiecesMemo {
  return { runs: new Map(), edges: new Map() };
}

/**
 * The whitespace at a piece's start or end: none, ASCII whitespace without or with a line break;
 * None: the piece does not start with `<` (end with `>`) after ASCII whitespace alone.
 */
const Edge = { None: -1, Empty: 0, Blank: 1, LineBreak: 2 } as const;
type Edge = (typeof Edge)[keyof typeof Edge];

interface PieceEdges {
  /** ASCII whitespace alone (its kind in `end`). */
  readonly blank: boolean;
  readonly start: Edge;
  readonly end: Edge;
  /** Whether its last comment is open. */
  readonly opensComment: boolean;
  /** Whether it holds a comment's end. */
  readonly closesComment: boolean;
}

const LINE_SPACE_ONLY = /^[ \t\r\n]*$/;
/** A comment the compile writes is closed within a few pieces (its opening, inner markup, end). */
const MAX_FAILED_CUTS = 8;

/** Whether the minifier removes everything at a join: after a `>`, before a `<`, only ASCII whitespace, none or holding a line break. */
function isCut(before: Edge, gap: Edge, after: Edge): boolean {
  if (before === Edge.None || after === Edge.None) return false;
  return (before === Edge.Empty && gap === Edge.Empty && after === Edge.Empty) || before === Edge.LineBreak || gap === Edge.LineBreak || after === Edge.LineBreak;
}

/** A piece's edges, read once per distinct piece (an expression's test costs QuickJS a match object). */
function edgesOf(piece: string, known: Map<string, PieceEdges>): PieceEdges {
  let edges = known.get(piece);
  if (edges !== undefined) return edges;
  const open = piece.indexOf("<");
  const close = piece.lastIndexOf(">");
  const comment = piece.lastIndexOf("<!--");
  const blank = open === -1 && LINE_SPACE_ONLY.test(piece);
  edges = {
    blank,
    start: blank ? edgeOf(piece) : open === -1 ? Edge.None : edgeOf(piece.slice(0, open)),
    end: blank ? edgeOf(piece) : close === -1 ? Edge.None : edgeOf(piece.slice(close + 1)),
    opensComment: comment !== -1 && piece.indexOf("-->", comment + 4) === -1,
    closesComment: contains(piece, "-->"),
  };
  known.set(piece, edges);
  return edges;
}

function edgeOf(space: string): Edge {
  if (space === "") return Edge.Empty;
  if (!LINE_SPACE_ONLY.test(space)) return Edge.None;
  return contains(space, "\n") ? Edge.LineBreak : Edge.Blank;
}

/** The minified source; with `closed`, undefined when a comment or protected element in it is not closed. */
function minifyPart(source: string, closed: boolean): string | undefined {
  const kept: string[] = [];
  const masked = maskProtectedAndTrimTagEnds(source, kept, closed);
  if (masked === undefined) return undefined;
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
function maskProtectedAndTrimTagEnds(source: string, kept: string[], closed: boolean): string | undefined {
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
    if (found !== undefined && found.end === -1 && closed) return undefined;
    if (found !== undefined && found.end !== -1) {
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

/** The comment (tag "") or protected element, close tag included, that starts at `at`: where it ends (-1: not closed). */
function protectedBlock(source: string, at: number): { end: number; tag: string } | undefined {
  if (source.startsWith("<!--", at)) {
    const close = source.indexOf("-->", at + 4);
    return { end: close === -1 ? -1 : close + 3, tag: "" };
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
  return { end: -1, tag };
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
