/**
 * Visibility rules decide, per recipient, which rows, spacers, columns and components exist at all.
 * Semantics (see spec/template.md), those of the Maildeno editor's evaluator: context keys match
 * case-insensitively (an exact-case key wins), numbers and booleans compare as text, string
 * comparisons ignore case, a missing key reads as "".
 */
import { RenderError } from "../base/diagnostics.js";
import type { Visibility, VisibilityOperator, VisibilityRule } from "../schema/common.js";

export type Context = Readonly<Record<string, string | number | boolean>>;

/**
 * Context values as text, found by exact key first, then case-insensitively: built once per render.
 * What rules read of a value (lower-cased, as a number, as a date) is computed once per value, and
 * each distinct `contains` rule searches once, so a render's rules cost the rules' own length plus
 * one pass over each value they read, whatever the number of rules naming it; the searches of
 * distinct `contains` rules are bounded together by MAX_CONTEXT_SEARCH.
 */
export interface NormalizedContext {
  get(tag: string): string | undefined;
  /** What rules read of the value `tag` names; undefined when the context has no such key. */
  read(tag: string): ContextValue | undefined;
  /** `decide()` once per distinct (tag, operator, value) for this context. */
  decided(rule: VisibilityRule, decide: () => boolean): boolean;
  /** Counts `units` searched by a `contains` rule; over MAX_CONTEXT_SEARCH, a RenderError naming `tag`. */
  search(tag: string, units: number): void;
}

/** A context value as rules read it, each form computed on first use. */
export class ContextValue {
  #lower: string | undefined;
  #number: { readonly value: number | undefined } | undefined;
  #utcDay: { readonly value: number | undefined } | undefined;

  constructor(readonly raw: string) {}

  get lower(): string {
    this.#lower ??= this.raw.toLowerCase();
    return this.#lower;
  }

  get number(): number | undefined {
    this.#number ??= { value: asNumber(this.lower) };
    return this.#number.value;
  }

  get utcDay(): number | undefined {
    this.#utcDay ??= { value: asUtcDay(this.lower) };
    return this.#utcDay.value;
  }

  get blank(): boolean {
    return this.lower.trim() === "";
  }
}

/**
 * Characters all of a render's `contains` and `not_contains` rules may search in context values
 * together (16 Mi). Each distinct rule searches its value once, so only a context value of megabytes
 * read by thousands of distinct rules gets near it; over it, the render is refused (`context_too_large`)
 * rather than searching for minutes.
 */
export const MAX_CONTEXT_SEARCH = 16 * 1024 * 1024;

export function normalizeContext(context: Context | undefined): NormalizedContext {
  // One ContextValue per entry, found by either map: what is computed of it is computed once.
  const exact = new Map<string, ContextValue>();
  const caseless = new Map<string, ContextValue>();
  for (const [key, value] of Object.entries(context ?? {})) {
    if (value === null || value === undefined) continue;
    const entry = new ContextValue(String(value));
    exact.set(key, entry);
    const lower = key.toLowerCase();
    // Of keys that differ only in case, the lower-case one is what the editor's evaluator reads; else the first.
    if (!caseless.has(lower) || key === lower) caseless.set(lower, entry);
  }
  const read = (tag: string): ContextValue | undefined => exact.get(tag) ?? caseless.get(tag.toLowerCase());
  let decisions: Map<string, boolean> | undefined;
  let searched = 0;
  return {
    get: (tag) => read(tag)?.raw,
    read,
    decided(rule, decide) {
      decisions ??= new Map();
      const key = `${rule.operator}\u0000${rule.tag}\u0000${String(rule.value)}`;
      let result = decisions.get(key);
      if (result === undefined) {
        result = decide();
        decisions.set(key, result);
      }
      return result;
    },
    search(tag, units) {
      searched += units;
      if (searched <= MAX_CONTEXT_SEARCH) return;
      throw new RenderError(`Context too large for the template's visibility rules: "${tag}" and the other values they search`, [
        {
          loc: ["dynamic_data", "context", tag],
          msg: `The template's contains rules would search more than ${MAX_CONTEXT_SEARCH} characters of context in all; this value (${read(tag)?.raw.length ?? 0} characters) is searched by many of them`,
          type: "context_too_large",
        },
      ]);
    },
  };
}

/** Needles up to this long are searched with `includes`, which compares at most this many characters per position. */
const SHORT_NEEDLE = 32;

/**
 * Whether `text` contains `needle`, in time linear in both: QuickJS's `includes` compares the needle
 * at every position (a 1 MB needle in a 7 MB value: 7·10¹² comparisons), so a long needle is
 * searched with Knuth–Morris–Pratt.
 */
export function containsText(text: string, needle: string): boolean {
  if (needle.length <= SHORT_NEEDLE || needle.length > text.length) return text.includes(needle);
  const border = new Int32Array(needle.length);
  for (let i = 1, k = 0; i < needle.length; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = border[k - 1]!;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    border[i] = k;
  }
  for (let i = 0, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== needle.charCodeAt(k)) k = border[k - 1]!;
    if (text.charCodeAt(i) === needle.charCodeAt(k)) k++;
    if (k === needle.length) return true;
  }
  return false;
}

export const LIST_SEPARATORS = /[,;\n]+/;
/** ISO 8601 dates as people write them: a date, or a date-time with optional seconds, fraction and offset. */
export const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function asNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * UTC calendar day number of an ISO date or date-time, or undefined when the text is not one. A
 * date-time without an offset is UTC: never the server's time zone.
 */
export function asUtcDay(text: string): number | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = "00", minute = "00", second = "00", offset] = match;
  const zone = offset === undefined || offset.toUpperCase() === "Z" ? "Z" : offset.includes(":") ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
  const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`);
  // Date.parse rolls 2024-02-30 over to March: a day that does not exist is not a date.
  if (Number.isNaN(ms) || new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDate() !== Number(day)) return undefined;
  return Math.floor(ms / 86_400_000);
}

export function evaluateRule(rule: VisibilityRule, context: NormalizedContext): boolean {
  if ("alwaysTrue" in rule && rule.alwaysTrue) return true;
  // Only a search costs the value's length: the other operators cost the rule's (a value's forms are kept).
  if (rule.operator === "contains" || rule.operator === "not_contains") return context.decided(rule, () => decideRule(rule, context));
  return decideRule(rule, context);
}

function decideRule(rule: VisibilityRule, context: NormalizedContext): boolean {
  const value = context.read(rule.tag);
  const present = value !== undefined;
  const actual = value?.lower ?? "";
  const expected = String(rule.value).toLowerCase();
  switch (rule.operator) {
    case "==":
      return actual === expected;
    case "!=":
      return actual !== expected;
    // A missing key is "": `contains ""` is true and `not_contains ""` false, as in the editor.
    case "contains":
    case "not_contains": {
      context.search(rule.tag, actual.length);
      const found = containsText(actual, expected);
      return rule.operator === "contains" ? found : !found;
    }
    case "starts_with":
      return actual.startsWith(expected);
    case "ends_with":
      return actual.endsWith(expected);
    case "in":
    case "not_in": {
      const items = expected
        .split(LIST_SEPARATORS)
        .map((item) => item.trim())
        .filter((item) => item !== "");
      // The context value is compared as it is (untrimmed), as the editor and its engine do.
      const found = present && items.includes(actual);
      return rule.operator === "in" ? found : !found;
    }
    case ">":
    case "<":
    case ">=":
    case "<=": {
      const a = value?.number;
      const b = asNumber(expected);
      if (a === undefined || b === undefined) return false;
      return rule.operator === ">" ? a > b : rule.operator === "<" ? a < b : rule.operator === ">=" ? a >= b : a <= b;
    }
    case "date_before":
    case "date_after":
    case "date_on": {
      const a = value?.utcDay;
      const b = asUtcDay(expected);
      if (a === undefined || b === undefined) return false;
      return rule.operator === "date_before" ? a < b : rule.operator === "date_after" ? a > b : a === b;
    }
    case "is_empty":
      return value?.blank ?? true;
    case "is_not_empty":
      return !(value?.blank ?? true);
  }
}

function combine(results: boolean[], match: "all" | "any"): boolean {
  return match === "all" ? results.every(Boolean) : results.some(Boolean);
}

export function isVisible(visibility: Visibility, context: NormalizedContext): boolean {
  if (!visibility.enabled) return true;
  const results = [
    ...visibility.rules.map((rule) => evaluateRule(rule, context)),
    ...visibility.groups.map((group) =>
      group.rules.length === 0
        ? true
        : combine(
            group.rules.map((rule) => evaluateRule(rule, context)),
            group.match,
          ),
    ),
  ];
  if (results.length === 0) return true;
  return combine(results, visibility.match);
}

const ALWAYS_WITH_EMPTY_VALUE: Partial<Record<VisibilityOperator, boolean>> = {
  contains: true,
  starts_with: true,
  ends_with: true,
  not_contains: false,
  in: false,
  not_in: true,
};

/** Why a rule cannot depend on the recipient (it is still evaluated, as the editor does), or undefined. */
export function meaninglessRuleReason(rule: VisibilityRule): string | undefined {
  if (rule.tag.trim() === "") return "has no tag, so it compares an empty value for every recipient";
  const value = String(rule.value);
  const always = ALWAYS_WITH_EMPTY_VALUE[rule.operator];
  if (always !== undefined && value.split(LIST_SEPARATORS).every((item) => item.trim() === "")) return `has an empty value, so it is always ${always}`;
  if ([">", "<", ">=", "<="].includes(rule.operator) && asNumber(value) === undefined)
    return `compares with ${JSON.stringify(value)}, which is not a number, so it is always false`;
  if (rule.operator.startsWith("date_") && asUtcDay(value) === undefined)
    return `compares with ${JSON.stringify(value)}, which is not an ISO date (YYYY-MM-DD), so it is always false`;
  return undefined;
}
