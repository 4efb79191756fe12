import { describe, expect, it } from "vitest";
import { evaluateRule, isVisible, normalizeContext } from "../src/data/visibility.js";
import { visibilityRuleSchema, visibilitySchema, type VisibilityRule } from "../src/template/common.js";

const rule = (operator: string, value: string | number | boolean = "", tag = "k"): VisibilityRule => visibilityRuleSchema.parse({ tag, operator, value });
const check = (r: VisibilityRule, context: Record<string, string | number | boolean>) => evaluateRule(r, normalizeContext(context));

describe("visibility operators", () => {
  // [operator, rule value, context value (undefined = missing key), expected]
  const table: Array<[string, string | number | boolean, string | number | boolean | undefined, boolean]> = [
    ["==", "pro", "PRO", true],
    ["==", "pro", "free", false],
    ["==", "", undefined, true],
    ["!=", "pro", "free", true],
    ["!=", "pro", "Pro", false],
    ["!=", "pro", undefined, true],
    ["contains", "ell", "HELLO", true],
    ["contains", "xyz", "hello", false],
    ["contains", "", undefined, false],
    ["not_contains", "xyz", "hello", true],
    ["not_contains", "ell", "hello", false],
    ["not_contains", "a", undefined, true],
    ["starts_with", "he", "Hello", true],
    ["starts_with", "lo", "hello", false],
    ["starts_with", "", undefined, false],
    ["ends_with", "LO", "hello", true],
    ["ends_with", "he", "hello", false],
    ["ends_with", "", undefined, false],
    ["in", "gold, silver;bronze\n platinum ", "Bronze", true],
    ["in", "gold,,silver", "", false],
    ["in", "gold", "iron", false],
    ["in", "gold", undefined, false],
    ["not_in", "gold, silver", "iron", true],
    ["not_in", "gold; silver", "SILVER", false],
    ["not_in", "gold", undefined, true],
    [">", 5, 10, true],
    [">", 5, "5", false],
    [">", 5, "ten", false],
    [">", 5, undefined, false],
    ["<", "10", 2, true],
    ["<", "10", 20, false],
    [">=", 5, "5", true],
    [">=", 5, 4.9, false],
    ["<=", "5", 5, true],
    ["<=", "5", 6, false],
    ["<=", "x", 1, false],
    ["date_before", "2026-01-01", "2025-12-31", true],
    ["date_before", "2026-01-01", "2026-01-01", false],
    ["date_before", "2026-01-01", "not a date", false],
    ["date_before", "2026-01-01", undefined, false],
    ["date_after", "2026-01-01", "2026-01-02T00:00:00Z", true],
    ["date_after", "2026-01-01", "2025-06-01", false],
    ["date_on", "2026-03-04", "2026-03-04T23:59:59Z", true],
    ["date_on", "2026-03-04", "2026-03-05", false],
    ["is_empty", "", "   ", true],
    ["is_empty", "", undefined, true],
    ["is_empty", "", "x", false],
    ["is_not_empty", "", "x", true],
    ["is_not_empty", "", undefined, false],
    ["equals", "a", "A", true],
    ["not_equals", "a", "A", false],
    ["is_set", "", "x", true],
    ["is_not_set", "", "x", false],
  ];
  it.each(table)("%s %j against %j → %s", (operator, value, actual, expected) => {
    expect(check(rule(operator, value), actual === undefined ? {} : { k: actual })).toBe(expected);
  });

  it("compares numbers and booleans as text", () => {
    expect(check(rule("==", "2"), { k: 2 })).toBe(true);
    expect(check(rule("==", 2), { k: "2" })).toBe(true);
    expect(check(rule("==", "true"), { k: true })).toBe(true);
    expect(check(rule("==", true), { k: "TRUE" })).toBe(true);
  });

  it("matches keys case-insensitively but never a different name", () => {
    expect(check(rule("==", "pro", "plan"), { Plan: "pro" })).toBe(true);
    expect(check(rule("==", "true", "isPremium"), { premium: true })).toBe(false);
  });

  it("rejects unknown operators at validation", () => {
    expect(visibilityRuleSchema.safeParse({ tag: "k", operator: "~=" }).success).toBe(false);
  });
});

describe("rule sets", () => {
  const vis = (v: unknown) => visibilitySchema.parse(v);
  const ctx = normalizeContext({ plan: "pro", country: "fr" });
  it("is visible when disabled or empty", () => {
    expect(isVisible(vis({ enabled: false, rules: [{ tag: "plan", operator: "==", value: "x" }] }), ctx)).toBe(true);
    expect(isVisible(vis({ enabled: true }), ctx)).toBe(true);
  });
  it("combines rules and groups by match", () => {
    const hit = { tag: "plan", operator: "==", value: "pro" };
    const miss = { tag: "country", operator: "==", value: "de" };
    expect(isVisible(vis({ enabled: true, match: "all", rules: [hit, miss] }), ctx)).toBe(false);
    expect(isVisible(vis({ enabled: true, match: "any", rules: [hit, miss] }), ctx)).toBe(true);
    expect(isVisible(vis({ enabled: true, match: "all", rules: [hit], groups: [{ match: "any", rules: [miss, hit] }] }), ctx)).toBe(true);
    expect(isVisible(vis({ enabled: true, match: "all", rules: [hit], groups: [{ match: "all", rules: [miss, hit] }] }), ctx)).toBe(false);
    expect(isVisible(vis({ enabled: true, match: "all", groups: [{ match: "all", rules: [] }] }), ctx)).toBe(true);
  });
});
