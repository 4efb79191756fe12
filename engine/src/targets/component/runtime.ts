/**
 * The helpers a react-email component (option `componentProps`) carries, as TSX source: a merge
 * tag's value from props, escaped for where it lands, and the visibility rules read from `context`.
 * The component renders wherever React runs, without the engine, so the rules travel with it: the
 * URL and surrogate rules are written from the engine's own expressions (src/data/escape.ts), the
 * rule evaluator follows src/data/visibility.ts (test/component-props.test.ts holds the two together).
 */

import { LONE_SURROGATE, SAFE_URL_SCHEME, URL_IGNORED_CHARS, URL_UNSAFE_CHARS } from "../../data/escape.js";
import { MERGE_TAG_GROUPS } from "../../data/merge-tags.js";
import { ISO_DATE, LIST_SEPARATORS } from "../../data/visibility.js";
import type { Visibility, VisibilityRule } from "../../schema/common.js";

const regExp = (pattern: RegExp): string => `new RegExp(${JSON.stringify(pattern.source)}, ${JSON.stringify(pattern.flags)})`;

/** A rule as the component reads it: its value already as the engine compares it (text, lower case). */
function ruleData(rule: VisibilityRule): readonly [string, string, string] {
  const always = "alwaysTrue" in rule && rule.alwaysTrue === true;
  return [rule.tag, always ? "always" : rule.operator, String(rule.value).toLowerCase()];
}

/** A node's rules as data: `[match, rules, groups]` (only enabled rule sets are conditions). */
export function conditionData(visibility: Visibility): string {
  return JSON.stringify([visibility.match, visibility.rules.map(ruleData), visibility.groups.map((group) => [group.match, group.rules.map(ruleData)])]);
}

/**
 * The helpers' source: the merge-tag helpers when the template has tags, the rule evaluator when it
 * has conditions (`conditions`, by slot, as conditionData writes them); nothing a component does not use.
 */
export function componentRuntime(hasTags: boolean, conditions: readonly string[]): string {
  const parts = [hasTags ? mergeTagRuntime() : "", conditions.length > 0 ? visibilityRuntime(conditions) : ""];
  return hasTags || conditions.length > 0 ? ["type TagValue = string | number | boolean;\n", ...parts, "\n"].join("") : "";
}

function mergeTagRuntime(): string {
  return `type TagGroup = ${MERGE_TAG_GROUPS.map((g) => JSON.stringify(g)).join(" | ")};
type TagValues = { readonly [group in TagGroup]?: { readonly [name: string]: TagValue | undefined } };
type Position = "text" | "attr" | "url" | "url-part";

const TAG_GROUPS: readonly TagGroup[] = ${JSON.stringify(MERGE_TAG_GROUPS)};
const READS_FIRST: { readonly [position in Position]: TagGroup } = { text: "text", attr: "attr", url: "url", "url-part": "url" };
const LONE_SURROGATE = ${regExp(LONE_SURROGATE)};
const URL_IGNORED_CHARS = ${regExp(URL_IGNORED_CHARS)};
const SAFE_URL_SCHEME = ${regExp(SAFE_URL_SCHEME)};
const URL_UNSAFE_CHARS = ${regExp(URL_UNSAFE_CHARS)};

function tagValue(tags: TagValues, group: TagGroup, name: string): string | undefined {
  const values = tags[group];
  if (values === undefined || !Object.prototype.hasOwnProperty.call(values, name)) return undefined;
  const value: unknown = values[name];
  return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
}

function percentEncoded(ch: string): string {
  return "%" + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
}

/**
 * A tag's value where it lands: a qualified tag reads its group, a bare one the group of its place
 * first. A whole URL without an allowed scheme becomes "#"; a value inside a URL is one component of it.
 * Values stay strings: React escapes them, nothing runs them.
 */
function mergeTag(tags: TagValues, position: Position, group: TagGroup | null, name: string, fallback: string): string {
  const first = group ?? READS_FIRST[position];
  let value = tagValue(tags, first, name);
  if (group === null) for (const other of TAG_GROUPS) if (value === undefined && other !== first) value = tagValue(tags, other, name);
  const text = (value ?? fallback).replace(LONE_SURROGATE, "\\uFFFD");
  if (position === "url") {
    const url = text.replace(URL_IGNORED_CHARS, "").trim();
    return url !== "" && !SAFE_URL_SCHEME.test(url) ? "#" : url.replace(URL_UNSAFE_CHARS, percentEncoded);
  }
  if (position === "url-part") return encodeURIComponent(text).replace(URL_UNSAFE_CHARS, percentEncoded);
  return text;
}
`;
}

function visibilityRuntime(conditions: readonly string[]): string {
  return `type ContextValues = { readonly [key: string]: TagValue | null | undefined };
type Match = "all" | "any";
type Rule = readonly [tag: string, operator: string, value: string];
type Condition = readonly [match: Match, rules: readonly Rule[], groups: readonly (readonly [Match, readonly Rule[]])[]];

const LIST_SEPARATORS = ${regExp(LIST_SEPARATORS)};
const ISO_DATE = ${regExp(ISO_DATE)};
const CONDITIONS: readonly Condition[] = [${conditions.join(", ")}];

function contextReader(context: ContextValues): (key: string) => string | undefined {
  const exact = new Map<string, string>();
  const caseless = new Map<string, string>();
  for (const key of Object.keys(context)) {
    const value = context[key];
    if (value === null || value === undefined) continue;
    exact.set(key, String(value));
    const lower = key.toLowerCase();
    if (!caseless.has(lower) || key === lower) caseless.set(lower, String(value));
  }
  return (key) => exact.get(key) ?? caseless.get(key.toLowerCase());
}

function asNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function asUtcDay(text: string): number | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year = "", month = "", day = "", hour = "00", minute = "00", second = "00", offset] = match;
  const zone = offset === undefined || offset.toUpperCase() === "Z" ? "Z" : offset.includes(":") ? offset : offset.slice(0, 3) + ":" + offset.slice(3);
  const ms = Date.parse(year + "-" + month + "-" + day + "T" + hour + ":" + minute + ":" + second + zone);
  if (Number.isNaN(ms) || new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDate() !== Number(day)) return undefined;
  return Math.floor(ms / 86400000);
}

function ruleHolds([tag, operator, expected]: Rule, read: (key: string) => string | undefined): boolean {
  if (operator === "always") return true;
  const raw = read(tag);
  const actual = raw === undefined ? "" : raw.toLowerCase();
  switch (operator) {
    case "==": return actual === expected;
    case "!=": return actual !== expected;
    case "contains": return actual.includes(expected);
    case "not_contains": return !actual.includes(expected);
    case "starts_with": return actual.startsWith(expected);
    case "ends_with": return actual.endsWith(expected);
    case "in":
    case "not_in": {
      const items = expected.split(LIST_SEPARATORS).map((item) => item.trim()).filter((item) => item !== "");
      const found = raw !== undefined && items.includes(actual);
      return operator === "in" ? found : !found;
    }
    case ">": case "<": case ">=": case "<=": {
      const a = raw === undefined ? undefined : asNumber(actual);
      const b = asNumber(expected);
      if (a === undefined || b === undefined) return false;
      return operator === ">" ? a > b : operator === "<" ? a < b : operator === ">=" ? a >= b : a <= b;
    }
    case "date_before": case "date_after": case "date_on": {
      const a = raw === undefined ? undefined : asUtcDay(actual);
      const b = asUtcDay(expected);
      if (a === undefined || b === undefined) return false;
      return operator === "date_before" ? a < b : operator === "date_after" ? a > b : a === b;
    }
    case "is_empty": return raw === undefined || actual.trim() === "";
    case "is_not_empty": return raw !== undefined && actual.trim() !== "";
    default: return false;
  }
}

function combine(results: readonly boolean[], match: Match): boolean {
  return match === "all" ? results.every(Boolean) : results.some(Boolean);
}

/** Whether each rule set holds for this context, by slot: which rows, columns and blocks are shown. */
function shownFor(context: ContextValues): readonly boolean[] {
  const read = contextReader(context);
  return CONDITIONS.map(([match, rules, groups]) => {
    const results = [...rules.map((rule) => ruleHolds(rule, read)), ...groups.map(([inner, list]) => list.length === 0 || combine(list.map((rule) => ruleHolds(rule, read)), inner))];
    return results.length === 0 || combine(results, match);
  });
}
`;
}
