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
  if (ref.group) return lookup(ref.group, ref.name);
  const preferred = PREFERRED_GROUP[position];
  const direct = lookup(preferred, ref.name);
  if (direct !== undefined) return direct;
  for (const group of MERGE_TAG_GROUPS) {
    if (group === preferred) continue;
    const value = lookup(group, ref.name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The recipient's escaped value for every slot token of a compiled output, in output order. */
export interface Substitution {
  readonly values: readonly string[];
  readonly warnings: RenderWarning[];
  /** Tags with neither a value nor a default, for `strict`. */
  readonly missing: string[];
}

/** `parts[0] values[0] parts[1] …`: the output text. */
export function joinOutput(compiled: CompiledOutput, values: readonly string[]): string {
  const { parts } = compiled;
  let output = parts[0] ?? "";
  for (let i = 0; i < values.length; i++) output += values[i]! + (parts[i + 1] ?? "");
  return output;
}

export function substitute(compiled: CompiledOutput, data: DynamicData | undefined): Substitution {
  const { slotIds, slots, flavor } = compiled;
  if (slotIds.length === 0) return { values: [], warnings: [], missing: [] };
  const escapeFor = flavor === "jsx" ? escapeJsx : escapeHtml;
  const lookup = lookupIn(data);
  const warnings: RenderWarning[] = [];
  const missing: string[] = [];
  const reported = new Set<string>();
  const values = new Map<number, string>();

  const slotValue = (slotId: number): string => {
    const known = values.get(slotId);
    if (known !== undefined) return known;
    const slot = slots[slotId];
    if (!slot) return "";
    const { ref, position } = slot;
    let value = resolveMergeTag(ref, position, lookup);
    if (value === undefined) {
      const key = `missing:${ref.group ?? ""}.${ref.name}`;
      if (!reported.has(key)) {
        reported.add(key);
        const label = ref.group ? `${ref.group}.${ref.name}` : ref.name;
        if (ref.fallback === undefined) missing.push(label);
        warnings.push({
          code: "MISSING_MERGE_TAG",
          message: ref.fallback === undefined ? `Merge tag "${label}" has no value; rendered empty` : `Merge tag "${label}" has no value; rendered its default`,
          path: [],
        });
      }
      value = ref.fallback ?? "";
    }
    const wellFormed = replaceLoneSurrogates(value);
    if (wellFormed !== undefined) {
      value = wellFormed;
      const key = `malformed:${ref.source}`;
      if (!reported.has(key)) {
        reported.add(key);
        warnings.push({
          code: "MALFORMED_MERGE_TAG_VALUE",
          message: `Merge tag "${ref.source}" gave text that is not valid Unicode (a lone UTF-16 surrogate); each was replaced by U+FFFD`,
          path: [],
        });
      }
    }
    let escaped: string;
    if (position === "url") {
      const url = normalizeUrlValue(value);
      if (url !== "" && !isSafeWholeUrl(url)) {
        const key = `unsafe:${ref.source}`;
        if (!reported.has(key)) {
          reported.add(key);
          warnings.push({
            code: "UNSAFE_URL",
            message: `Merge tag "${ref.source}" gave a URL without an allowed scheme (http, https, mailto, tel); it was replaced by "#"`,
            path: [],
          });
        }
        // "#", not "": the html target's anchor was compiled before the value was known, and mjml turns an
        // empty href into no link at all; an inert "#" reads the same in every target.
        escaped = "#";
      } else escaped = escapeFor(encodeUnsafeUrlChars(url));
    } else if (position === "url-part") {
      escaped = escapeFor(encodeUnsafeUrlChars(encodeUrlPart(value)));
    } else escaped = escapeFor(value);
    values.set(slotId, escaped);
    return escaped;
  };

  return { values: slotIds.map(slotValue), warnings, missing };
}
