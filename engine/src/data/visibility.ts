/**
 * Visibility rules decide, per recipient, which rows, spacers, columns and components exist at all.
 * Semantics (see spec/template.md): context keys match case-insensitively, numbers and booleans
 * compare as text, string comparisons ignore case, a missing key reads as "".
 */
import type { Visibility, VisibilityRule } from "../template/common.js";

export type Context = Readonly<Record<string, string | number | boolean>>;

/** Lower-cased keys, text values: built once per render. */
export type NormalizedContext = ReadonlyMap<string, string>;

export function normalizeContext(context: Context | undefined): NormalizedContext {
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(context ?? {})) {
    if (value === null || value === undefined) continue;
    map.set(key.toLowerCase(), String(value));
  }
  return map;
}

const LIST_SEPARATORS = /[,;\n]+/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function asNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** UTC calendar day number, or undefined when the text is not a date. */
function asUtcDay(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const ms = DATE_ONLY.test(trimmed) ? Date.parse(`${trimmed}T00:00:00Z`) : Date.parse(trimmed);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 86_400_000);
}

export function evaluateRule(rule: VisibilityRule, context: NormalizedContext): boolean {
  const raw = context.get(rule.tag.toLowerCase());
  const present = raw !== undefined;
  const actual = (raw ?? "").toLowerCase();
  const expected = String(rule.value).toLowerCase();
  switch (rule.operator) {
    case "==":
      return actual === expected;
    case "!=":
      return actual !== expected;
    case "contains":
      return present && actual.includes(expected);
    case "not_contains":
      return !present || !actual.includes(expected);
    case "starts_with":
      return present && actual.startsWith(expected);
    case "ends_with":
      return present && actual.endsWith(expected);
    case "in":
    case "not_in": {
      const items = expected.split(LIST_SEPARATORS).map((item) => item.trim()).filter((item) => item !== "");
      const found = present && items.includes(actual.trim());
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
    ...visibility.groups.map((group) => (group.rules.length === 0 ? true : combine(group.rules.map((rule) => evaluateRule(rule, context)), group.match))),
  ];
  if (results.length === 0) return true;
  return combine(results, visibility.match);
}
