/**
 * Visibility rules decide, per recipient, which rows, spacers, columns and components exist at all.
 * Semantics (see spec/template.md), those of the Maildeno editor's evaluator: context keys match
 * case-insensitively (an exact-case key wins), numbers and booleans compare as text, string
 * comparisons ignore case, a missing key reads as "".
 */
import type { Visibility, VisibilityOperator, VisibilityRule } from "../schema/common.js";

export type Context = Readonly<Record<string, string | number | boolean>>;

/** Context values as text, found by exact key first, then case-insensitively: built once per render. */
export interface NormalizedContext {
  get(tag: string): string | undefined;
}

export function normalizeContext(context: Context | undefined): NormalizedContext {
  const exact = new Map<string, string>();
  const caseless = new Map<string, string>();
  for (const [key, value] of Object.entries(context ?? {})) {
    if (value === null || value === undefined) continue;
    exact.set(key, String(value));
    const lower = key.toLowerCase();
    // Of keys that differ only in case, the lower-case one is what the editor's evaluator reads; else the first.
    if (!caseless.has(lower) || key === lower) caseless.set(lower, String(value));
  }
  return { get: (tag) => exact.get(tag) ?? caseless.get(tag.toLowerCase()) };
}

const LIST_SEPARATORS = /[,;\n]+/;
/** ISO 8601 dates as people write them: a date, or a date-time with optional seconds, fraction and offset. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

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
  const raw = context.get(rule.tag);
  const present = raw !== undefined;
  const actual = (raw ?? "").toLowerCase();
  const expected = String(rule.value).toLowerCase();
  switch (rule.operator) {
    case "==":
      return actual === expected;
    case "!=":
      return actual !== expected;
    // A missing key is "": `contains ""` is true and `not_contains ""` false, as in the editor.
    case "contains":
      return actual.includes(expected);
    case "not_contains":
      return !actual.includes(expected);
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
      const a = present ? asNumber(actual) : undefined;
      const b = asNumber(expected);
      if (a === undefined || b === undefined) return false;
      return rule.operator === ">" ? a > b : rule.operator === "<" ? a < b : rule.operator === ">=" ? a >= b : a <= b;
    }
    case "date_before":
    case "date_after":
    case "date_on": {
      const a = present ? asUtcDay(actual) : undefined;
      const b = asUtcDay(expected);
      if (a === undefined || b === undefined) return false;
      return rule.operator === "date_before" ? a < b : rule.operator === "date_after" ? a > b : a === b;
    }
    case "is_empty":
      return actual.trim() === "";
    case "is_not_empty":
      return actual.trim() !== "";
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
