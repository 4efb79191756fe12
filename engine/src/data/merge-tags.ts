/**
 * Merge-tag syntax: `{{ name }}`, `{{ group.name }}` and a pipe default `{{ name|'fallback' }}`
 * (single quotes, double quotes or bare). Parsing a string gives literal text and tag references
 * in order; the renderers decide where each reference lands.
 */

import { TextCache } from "../base/caches.js";

export const MERGE_TAG_GROUPS = ["text", "url", "attr"] as const;
export type MergeTagGroup = (typeof MERGE_TAG_GROUPS)[number];

export interface MergeTagRef {
  /** The name without its group. */
  readonly name: string;
  /** The group named in the tag, when qualified. */
  readonly group: MergeTagGroup | undefined;
  /** The pipe default, when given. */
  readonly fallback: string | undefined;
  /** The tag as written, for messages. */
  readonly source: string;
}

/** Literal text and tag references, in order. A string without tags is one literal. */
export type TemplatedString = ReadonlyArray<string | MergeTagRef>;

/**
 * The grammar of a tag. Matched with `matchAll`, it is quadratic on text with many `{{` and no
 * closing `}}` near them (each start scans on to the next `}`: 100 KB of `{{ a|` took 8 s), so
 * `parseMergeTags` finds the same matches with `scanTags` below, in linear time; a property test
 * checks the two agree.
 */
export const MERGE_TAG_PATTERN = /\{\{\s*(?:(text|url|attr)\.)?([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*(?:\|\s*(?:'([^']*)'|"([^"]*)"|([^}\s][^}]*?)))?\s*\}\}/g;

/** Parsed strings: 10,000 of them, of 4 Mi code units in all (src/base/caches.ts). */
const parsedCache = new TextCache<TemplatedString>(10_000, 4 * 1024 * 1024);

export function parseMergeTags(input: string): TemplatedString {
  // Most strings hold no tag: no match to look for (a cold process pays for every regex run).
  if (!input.includes("{{")) return input === "" ? [] : [input];
  const cached = parsedCache.get(input);
  if (cached) return cached;
  const parts: Array<string | MergeTagRef> = [];
  let last = 0;
  for (const tag of scanTags(input)) {
    if (tag.start > last) parts.push(input.slice(last, tag.start));
    const source = input.slice(tag.start, tag.end);
    parts.push({ name: tag.name, group: tag.group, fallback: tag.fallback, source });
    last = tag.end;
  }
  if (last < input.length) parts.push(input.slice(last));
  parsedCache.set(input, parts);
  return parts;
}

/** A tag as written, where it stands, and which of the default's forms it uses. */
export interface LocatedMergeTag {
  readonly ref: MergeTagRef;
  readonly index: number;
  /** The default as written without quotes (a bare default), if it has one. */
  readonly bareFallback: string | undefined;
}

/** Every well-formed tag of a string with its position (the syntax checks of data/merge-tag-syntax.ts). */
export function locateMergeTags(input: string): LocatedMergeTag[] {
  if (!input.includes("{{")) return [];
  return [...scanTags(input)].map((tag) => ({
    ref: { name: tag.name, group: tag.group, fallback: tag.fallback, source: input.slice(tag.start, tag.end) },
    index: tag.start,
    bareFallback: tag.bare,
  }));
}

export function hasMergeTags(input: string): boolean {
  return input.includes("{{") && !scanTags(input).next().done;
}

interface ScannedTag {
  readonly start: number;
  readonly end: number;
  readonly group: MergeTagGroup | undefined;
  readonly name: string;
  readonly fallback: string | undefined;
  /** A bare default as written (untrimmed). */
  readonly bare?: string | undefined;
}

/** `{{`, spaces, an optional group, the name and the spaces after it: the part of a tag that never backtracks far. */
const TAG_HEAD = /\{\{\s*(?:(text|url|attr)\.)?([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*/y;
const SPACE = /\s/;

/**
 * The matches of MERGE_TAG_PATTERN, in order, in time linear in the input. The pattern's only long
 * scans are in a default: to the closing quote, then over spaces to `}}`, or, for a bare default, to
 * the first `}`, which must be followed by `}`. Starts are tried in increasing order, so each of those
 * scans asks for a position at or after the one it asked for last time: remembering its last answer
 * (`forward`) examines each character once in all.
 */
function* scanTags(input: string): Generator<ScannedTag> {
  const nextSingle = forward((from) => input.indexOf("'", from));
  const nextDouble = forward((from) => input.indexOf('"', from));
  const nextBrace = forward((from) => input.indexOf("}", from));
  const skipSpaces = (from: number): number => {
    let at = from;
    while (at < input.length && SPACE.test(input[at]!)) at++;
    return at;
  };
  const afterBar = forward(skipSpaces);
  const afterSingle = forward(skipSpaces);
  const afterDouble = forward(skipSpaces);
  const closesAt = (at: number): boolean => input.startsWith("}}", at);

  for (let start = input.indexOf("{{"); start !== -1; ) {
    TAG_HEAD.lastIndex = start;
    const head = TAG_HEAD.exec(input);
    let tag: ScannedTag | undefined;
    if (head !== null) {
      const at = TAG_HEAD.lastIndex;
      const found = (end: number, fallback: string | undefined, bare?: string): ScannedTag => ({
        start,
        end,
        group: head[1] as MergeTagGroup | undefined,
        name: head[2] ?? "",
        fallback,
        bare,
      });
      if (closesAt(at)) tag = found(at + 2, undefined);
      else if (input[at] === "|") {
        const value = afterBar(at + 1);
        const quote = input[value];
        // The alternatives in the pattern's order: 'single', "double", then bare (which may start with a quote).
        const close = quote === "'" ? nextSingle(value + 1) : quote === '"' ? nextDouble(value + 1) : -1;
        const end = close === -1 ? -1 : (quote === "'" ? afterSingle : afterDouble)(close + 1);
        if (end !== -1 && closesAt(end)) tag = found(end + 2, input.slice(value + 1, close));
        else if (value < input.length && quote !== "}" && !SPACE.test(quote ?? "")) {
          const brace = nextBrace(value);
          if (brace !== -1 && input[brace + 1] === "}") tag = found(brace + 2, input.slice(value, brace).trim(), input.slice(value, brace));
        }
      }
    }
    if (tag !== undefined) yield tag;
    start = input.indexOf("{{", tag === undefined ? start + 1 : tag.end);
  }
}

/**
 * `find(from)` for calls whose `from` never decreases: when `from` is between the last call's `from`
 * and its answer, the answer is the same (nothing was found before it), so no character is examined
 * twice. `find` returns the position found at or after `from`, or -1.
 */
function forward(find: (from: number) => number): (from: number) => number {
  let lastFrom = Number.POSITIVE_INFINITY;
  let lastFound = -1;
  return (from) => {
    if (from >= lastFrom && (lastFound === -1 || from <= lastFound)) return lastFound;
    lastFrom = from;
    lastFound = find(from);
    return lastFound;
  };
}
