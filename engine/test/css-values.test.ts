/** Author values written into CSS: the checks that keep them from hiding or adding rules. */
import { describe, expect, it } from "vitest";
import { fontFamilySchema, mobileOverridesSchema } from "../src/schema/common.js";
import { cssValueProblem } from "../src/schema/css-values.js";

describe("CSS values from the template", () => {
  it("a stylesheet value may not open a comment, a string or a parenthesis it does not close", () => {
    for (const ok of ["red", "#fff", "rgb(1, 2, 3)", "'Open Sans'", "center", "1.5", ""]) expect(cssValueProblem(ok)).toBeUndefined();
    for (const bad of ["red/*", "*/x", "x'", '"x', "rgb(1,2", "a)b(", "'a''"]) expect(cssValueProblem(bad)).toBeDefined();
  });

  it("mobile overrides refuse such strings at their key, and keep numbers and null", () => {
    const parsed = mobileOverridesSchema().safeParse({ color: "red", fontSize: 12, align: null }).data;
    expect(parsed).toMatchObject({ color: "red", fontSize: 12 });
    expect(parsed).not.toHaveProperty("align");
    const result = mobileOverridesSchema().safeParse({ color: "red/* hides the rest" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["color"]);
  });

  it("font families: each name bare or in matching quotes", () => {
    for (const ok of ["Arial", "'Open Sans', Arial, sans-serif", '"Times New Roman" , serif', "Font-Name_2.0"])
      expect(fontFamilySchema.safeParse(ok).success).toBe(true);
    for (const bad of ['"Arial', "Arial'", "'a'b'", "x, 'y", "Arial;color:red", "a{b}"]) expect(fontFamilySchema.safeParse(bad).success).toBe(false);
  });

  // A backtracking pattern would not finish these within the test timeout; a linear one takes milliseconds.
  it("a long near-miss font value is refused without catastrophic backtracking", () => {
    expect(fontFamilySchema.safeParse(`${" ".repeat(50_000)}'${" ".repeat(50_000)}$`).success).toBe(false);
    expect(fontFamilySchema.safeParse(`a${", a".repeat(50_000)}'`).success).toBe(false);
  });
});
