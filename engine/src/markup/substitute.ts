/**
 * The last step of every render: slot tokens are replaced by the recipient's values, each escaped
 * for the position it lands in. Everything before this step is cached per template and visible set.
 */

import type { RenderWarning } from "../base/diagnostics.js";
import { occurrences } from "../base/literal-scan.js";
import type { DynamicData } from "../base/types.js";
import { encodeUnsafeUrlChars, encodeUrlPart, escapeHtml, escapeJsx, isSafeWholeUrl, normalizeUrlValue, replaceLoneSurrogates } from "../data/escape.js";
import { MERGE_TAG_GROUPS, type MergeTagGroup, type MergeTagRef } from "../data/merge-tags.js";
import { type Flavor, SLOT_TOKEN_PATTERN, type Slot, type SlotPosition } from "./emitter.js";

/** Output split around its slot tokens: `parts[0] slot[0] parts[1] … parts[n]`. */
export interface CompiledOutput {
  readonly parts: readonly string[];
  readonly slotIds: readonly number[];
  readonly slots: readonly Slot[];
  readonly flavor: Flavor;
}

const TOKEN_OPEN = "\uE000";
/** SLOT_TOKEN_PATTERN at one position, tried only where a token opens (src/base/literal-scan.ts). */
const SLOT_TOKEN_AT = new RegExp(SLOT_TOKEN_PATTERN.source, "y");

export function compileOutput(source: string, slots: readonly Slot[], flavor: Flavor): CompiledOutput {
  const parts: string[] = [];
  const slotIds: number[] = [];
  let copied = 0;
  // A token holds one TOKEN_OPEN, at its start: tokens found this way never overlap.
  for (const at of occurrences(source, TOKEN_OPEN)) {
    SLOT_TOKEN_AT.lastIndex = at;
    const token = SLOT_TOKEN_AT.exec(source);
    if (token === null) continue;
    parts.push(source.slice(copied, at));
    slotIds.push(Number(token[1]));
    copied = SLOT_TOKEN_AT.lastIndex;
  }
  parts.push(source.slice(copied));
  return { parts, slotIds, slots, flavor };
}

const PREFERRED_GROUP: Record<SlotPosition, MergeTagGroup> = { text: "text", attr: "attr", url: "url", "url-part": "url" };

export type Lookup = (group: MergeTagGroup, name: string) => string | undefined;

export function lookupIn(data: DynamicData | undefined): Lookup {
  const tags = data?.merge_tags;
  return (group, name) => {
    const values = tags?.[group];
    if (!values || !Object.hasOwn(values, name)) return undefined;
    const value: unknown = values[name];
    return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
  };
}

/** A qualified tag reads its own group; a bare tag reads the group that fits, then the others. */
export function resolveMergeTag(ref: MergeTagRef, position: SlotPosition, lookup: Lookup): string | undefined {
  const group = mergeTagGroupOf(ref, position, lookup);
  return group === undefined ? undefined : lookup(group, ref.name);
}

/** The group whose value a tag reads (resolveMergeTag), or undefined when none has one. */
function mergeTagGroupOf(ref: MergeTagRef, position: SlotPosition, lookup: Lookup): MergeTagGroup | undefined {
  if (ref.group) return lookup(ref.group, ref.name) === undefined ? undefined : ref.group;
  const preferred = PREFERRED_GROUP[position];
  if (lookup(preferred, ref.name) !== undefined) return preferred;
  return MERGE_TAG_GROUPS.find((group) => group !== preferred && lookup(group, ref.name) !== undefined);
}

/**
 * A recipient's values for a compiled output, resolved but not yet escaped. Escaping and the output's
 * size come after, on demand, so that an output over the size limit is refused before it is built
 * (src/engine/output-bound.ts). A value is escaped once per way of escaping it, however many slots
 * it fills: a tag written 120,000 times costs one escape, and its slots share the escaped string.
 */
export interface Substitution {
  readonly warnings: RenderWarning[];
  /** Tags with neither a value nor a default, for `strict`. */
  readonly missing: string[];
  /** For each slot token of the output, in output order, the index of its value in `sources`. */
  readonly sourceOfToken: readonly number[];
  /** Each distinct (value, escaping) the output needs, with the number of tokens it fills. */
  readonly sources: readonly SlotSource[];
  /** `sources[i]` escaped for its position (computed once, then kept). */
  escaped(i: number): string;
  /** The escaped value of every slot token, in output order (the same string objects for the same source). */
  values(): readonly string[];
}

/** How a value is escaped: text and attribute positions alike, URLs and URL parts each their own way. */
export type EscapeKind = "markup" | "url" | "url-part";

const ESCAPE_KIND: Record<SlotPosition, EscapeKind> = { text: "markup", attr: "markup", url: "url", "url-part": "url-part" };
const KIND_INDEX: Record<EscapeKind, number> = { markup: 0, url: 1, "url-part": 2 };

/**
 * The most UTF-8 bytes one UTF-16 code unit of a value can become, escaped for each kind (in html,
 * mjml and jsx alike): `"` is `&quot;` and `{` is `&#123;` (6); in a URL a space is `%20`, a U+3000
 * `%3000` and `&` is `&amp;` (5); in a URL part a BMP character is three percent-encoded bytes (9).
 * A value escaped is never longer than this many bytes per code unit (a property test checks it), so
 * the output's size is bounded before anything is escaped.
 */
export const ESCAPE_GROWTH: Readonly<Record<EscapeKind, number>> = { markup: 6, url: 5, "url-part": 9 };

export interface SlotSource {
  /** The value as resolved (a default when the tag has none), lone surrogates already replaced. */
  readonly value: string;
  readonly kind: EscapeKind;
  /** How many slot tokens of the output it fills. */
  readonly tokens: number;
}

export function substitute(compiled: CompiledOutput, data: DynamicData | undefined): Substitution {
  const { slotIds, slots, flavor } = compiled;
  const escapeFor = flavor === "jsx" ? escapeJsx : escapeHtml;
  const lookup = lookupIn(data);
  const warnings: RenderWarning[] = [];
  const missing: string[] = [];
  const reported = new Set<string>();
  const firstTime = (key: string): boolean => {
    if (reported.has(key)) return false;
    reported.add(key);
    return true;
  };
  /**
   * Sources by identity: where the value comes from (a group's entry, by name; or a default, by its
   * text) and its escaping. Keyed by strings the template already holds, with the rest as an index,
   * so a lookup builds no key.
   */
  const byName = new Map<string, number[]>();
  const byDefault = new Map<string, number[]>();
  const sources: { value: string; kind: EscapeKind; tokens: number; malformed: boolean; unsafe: boolean }[] = [];
  const sourceOfSlot = new Map<number, number>();

  const sourceFor = (keys: Map<string, number[]>, key: string, slot: number, raw: string, kind: EscapeKind): number => {
    let indexes = keys.get(key);
    if (indexes === undefined) {
      indexes = [];
      keys.set(key, indexes);
    }
    let index = indexes[slot];
    if (index === undefined) {
      const wellFormed = replaceLoneSurrogates(raw);
      const value = wellFormed ?? raw;
      const url = kind === "url" ? normalizeUrlValue(value) : "";
      index = sources.push({ value, kind, tokens: 0, malformed: wellFormed !== undefined, unsafe: url !== "" && !isSafeWholeUrl(url) }) - 1;
      indexes[slot] = index;
    }
    return index;
  };

  /** A slot's source; its warnings, in output order, the first time a tag is met. */
  const resolve = (slotId: number): number => {
    const known = sourceOfSlot.get(slotId);
    if (known !== undefined) return known;
    const slot = slots[slotId];
    if (!slot) return sourceFor(byDefault, "", 0, "", "markup");
    const { ref, position } = slot;
    const group = mergeTagGroupOf(ref, position, lookup);
    const kind = ESCAPE_KIND[position];
    let index: number;
    if (group !== undefined) index = sourceFor(byName, ref.name, MERGE_TAG_GROUPS.indexOf(group) * 3 + KIND_INDEX[kind], lookup(group, ref.name) ?? "", kind);
    else {
      if (firstTime(`missing:${ref.group ?? ""}.${ref.name}`)) {
        const label = ref.group ? `${ref.group}.${ref.name}` : ref.name;
        if (ref.fallback === undefined) missing.push(label);
        warnings.push({
          code: "MISSING_MERGE_TAG",
          message: ref.fallback === undefined ? `Merge tag "${label}" has no value; rendered empty` : `Merge tag "${label}" has no value; rendered its default`,
          path: slot.path,
        });
      }
      index = sourceFor(byDefault, ref.fallback ?? "", KIND_INDEX[kind], ref.fallback ?? "", kind);
    }
    const source = sources[index]!;
    if (source.malformed && firstTime(`malformed:${ref.source}`)) {
      warnings.push({
        code: "MALFORMED_MERGE_TAG_VALUE",
        message: `Merge tag "${ref.source}" gave text that is not valid Unicode (a lone UTF-16 surrogate); each was replaced by U+FFFD`,
        path: slot.path,
      });
    }
    if (source.unsafe && firstTime(`unsafe:${ref.source}`)) {
      warnings.push({
        code: "UNSAFE_URL",
        message: `Merge tag "${ref.source}" gave a URL without an allowed scheme (http, https, mailto, tel); it was replaced by "#"`,
        path: slot.path,
      });
    }
    sourceOfSlot.set(slotId, index);
    return index;
  };

  const sourceOfToken = slotIds.map(resolve);
  for (const index of sourceOfToken) sources[index]!.tokens++;

  const escapedSources: (string | undefined)[] = [];
  const escapedSource = (i: number): string => {
    const known = escapedSources[i];
    if (known !== undefined) return known;
    const { value, kind, unsafe } = sources[i]!;
    let result: string;
    // "#", not "": the html target's anchor was compiled before the value was known, and mjml turns an
    // empty href into no link at all; an inert "#" reads the same in every target.
    if (kind === "url") result = unsafe ? "#" : escapeFor(encodeUnsafeUrlChars(normalizeUrlValue(value)));
    else if (kind === "url-part") result = escapeFor(encodeUnsafeUrlChars(encodeUrlPart(value)));
    else result = escapeFor(value);
    escapedSources[i] = result;
    return result;
  };

  return { warnings, missing, sourceOfToken, sources, escaped: escapedSource, values: () => sourceOfToken.map(escapedSource) };
}

/** `parts[0] values[0] parts[1] …`: the output text. */
export function joinOutput(compiled: CompiledOutput, values: readonly string[]): string {
  const { parts } = compiled;
  let output = parts[0] ?? "";
  for (let i = 0; i < values.length; i++) output += values[i]! + (parts[i + 1] ?? "");
  return output;
}
