import { describe, expect, it } from "vitest";
import { evaluateRule, isVisible, normalizeContext } from "../src/data/visibility.js";
import { type VisibilityRule, visibilityRuleSchema, visibilitySchema } from "../src/schema/common.js";

const rule = (operator: string, value: string | number | boolean = "", tag = "k"): VisibilityRule => visibilityRuleSchema().parse({ tag, operator, value });
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
    ["contains", "", undefined, true], // a missing key is "", as in the editor
    ["not_contains", "", undefined, false],
    ["not_contains", "xyz", "hello", true],
    ["not_contains", "ell", "hello", false],
    ["not_contains", "a", undefined, true],
    ["starts_with", "he", "Hello", true],
    ["starts_with", "lo", "hello", false],
    ["starts_with", "", undefined, true],
    ["ends_with", "LO", "hello", true],
    ["ends_with", "he", "hello", false],
    ["ends_with", "", undefined, true],
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
    ["date_on", "2001-02-01", "2", false], // not an ISO date (Date.parse reads it as 2001-02-01)
    ["date_before", "2030-01-01", "us, pro; 2", false],
    ["date_on", "2026-03-04", "2026-03-04T23:30:00", true], // no offset: UTC, whatever the server's zone
    ["date_on", "2026-03-05", "2026-03-04T23:30:00-05:00", true],
    ["date_on", "2026-03-04", "2026-03-04T01:00:00+0200", false],
    ["date_on", "2024-03-01", "2024-02-30", false],
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

  it("prefers the exact-case key when two keys differ only in case", () => {
    expect(check(rule("==", "a", "Plan"), { plan: "b", Plan: "a" })).toBe(true);
    expect(check(rule("==", "b", "plan"), { Plan: "a", plan: "b" })).toBe(true);
    expect(check(rule("==", "b", "PLAN"), { Plan: "a", plan: "b" })).toBe(true);
  });

  it("rejects unknown operators at validation", () => {
    expect(visibilityRuleSchema().safeParse({ tag: "k", operator: "~=" }).success).toBe(false);
  });

  it("reads the editor's spellings: empty tag, operator and match in any case, enabled as a string", () => {
    expect(visibilityRuleSchema().parse({ tag: "", operator: "==", value: "" })).toEqual({ tag: "", operator: "==", value: "" });
    // Another case is read as the Maildeno editor and engine read it: an unknown operator (true), match "all".
    expect(visibilityRuleSchema().parse({ tag: "k", operator: "Starts_With", value: null })).toEqual({
      tag: "k",
      operator: "starts_with",
      value: "",
      alwaysTrue: true,
    });
    expect(check(rule("CONTAINS", "zz"), { k: "pro" })).toBe(true);
    const parsed = visibilitySchema().parse({ enabled: "true", match: "ANY", rules: [], groups: [{ match: "Any" }, { match: "any" }] });
    expect(parsed).toMatchObject({ enabled: true, match: "all", groups: [{ match: "all" }, { match: "any" }] });
    expect(visibilitySchema().parse({ enabled: "FALSE" }).enabled).toBe(false);
    expect(visibilitySchema().safeParse({ enabled: "yes" }).success).toBe(false);
  });

  it("evaluates a date-time without offset as UTC under any server time zone", async () => {
    const { execFileSync } = await import("node:child_process");
    const script = `import { evaluateRule, normalizeContext } from "./src/data/visibility.ts";
      console.log(evaluateRule({ tag: "d", operator: "date_on", value: "2026-03-04" }, normalizeContext({ d: "2026-03-04T23:30:00" })));`;
    for (const tz of ["UTC", "America/Los_Angeles", "Asia/Tokyo"]) {
      const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        env: { ...process.env, TZ: tz },
        encoding: "utf8",
      });
      expect(out.trim(), tz).toBe("true");
    }
  });
});

describe("rule sets", () => {
  const vis = (v: unknown) => visibilitySchema().parse(v);
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
