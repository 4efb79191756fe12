/**
 * Merge-tag syntax: `{{ name }}`, `{{ group.name }}` and a pipe default `{{ name|'fallback' }}`
 * (single quotes, double quotes or bare). Parsing a string gives literal text and tag references
 * in order; the renderers decide where each reference lands.
 */

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

const TAG_PATTERN = /\{\{\s*(?:(text|url|attr)\.)?([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*(?:\|\s*(?:'([^']*)'|"([^"]*)"|([^}\s][^}]*?)))?\s*\}\}/g;

const parsedCache = new Map<string, TemplatedString>();
const PARSED_CACHE_LIMIT = 10_000;

export function parseMergeTags(input: string): TemplatedString {
  // Most strings hold no tag: no match to look for (a cold process pays for every regex run).
  if (!input.includes("{{")) return input === "" ? [] : [input];
  const cached = parsedCache.get(input);
  if (cached) return cached;
  const parts: Array<string | MergeTagRef> = [];
  let last = 0;
  for (const match of input.matchAll(TAG_PATTERN)) {
    const start = match.index;
    if (start > last) parts.push(input.slice(last, start));
    const [source, group, name, single, double, bare] = match;
    parts.push({
      name: name ?? "",
      group: group as MergeTagGroup | undefined,
      fallback: single ?? double ?? bare?.trim(),
      source,
    });
    last = start + source.length;
  }
  if (last < input.length) parts.push(input.slice(last));
  if (parsedCache.size >= PARSED_CACHE_LIMIT) parsedCache.clear();
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
  return [...input.matchAll(TAG_PATTERN)].map((match) => {
    const [source, group, name, single, double, bare] = match;
    return {
      ref: { name: name ?? "", group: group as MergeTagGroup | undefined, fallback: single ?? double ?? bare?.trim(), source },
      index: match.index,
      bareFallback: bare,
    };
  });
}

export function hasMergeTags(input: string): boolean {
  TAG_PATTERN.lastIndex = 0;
  const found = TAG_PATTERN.test(input);
  TAG_PATTERN.lastIndex = 0;
  return found;
}
