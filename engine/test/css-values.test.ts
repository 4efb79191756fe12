/** Author values written into CSS: the checks that keep them from hiding or adding rules. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fontStack } from "../src/markup/fonts.js";
import { px, round } from "../src/markup/style.js";
import { fontFamilySchema, mobileOverridesSchema, toMjmlColor } from "../src/schema/common.js";
import { cssValueProblem } from "../src/schema/css-values.js";

describe("CSS values from the template", () => {
  it("colours as MJML's validator takes them: #rgb and #rrggbb as written, other hex forms as rgba(), names in lower case", () => {
    const cases: Record<string, string> = {
      "#abc": "#abc",
      "#A1B2C3": "#A1B2C3",
      "#abcd": "rgba(170,187,204,0.87)",
      "#11223380": "rgba(17,34,51,0.5)",
      "#zzz": "#zzz",
      RED: "red",
      Transparent: "transparent",
      "RGB( 1, 2, 3 )": "rgb(1,2,3)",
      "rgba(1,2,3,.5)": "rgba(1,2,3,0.5)",
    };
    for (const [color, mjml] of Object.entries(cases)) expect(toMjmlColor(color), color).toBe(mjml);
  });

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

describe("px", () => {
  it("writes a length rounded to two decimals, whole numbers as they are", () => {
    expect([px(16), px(0), px(-0), px(-3), px(1.005), px(2.5), px(1e-7), px(2 ** 31), px(-(2 ** 31) - 0.25)]).toEqual([
      "16px",
      "0px",
      "0px",
      "-3px",
      `${round(1.005)}px`,
      "2.5px",
      "0px",
      "2147483648px",
      "-2147483648.25px",
    ]);
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })), (value) => {
        expect(px(value)).toBe(`${round(value)}px`);
      }),
      { numRuns: 1000, seed: 20261127 },
    );
  });
});

describe("fontStack", () => {
  it("gives each family as written its stack, the second time as the first", () => {
    const families = ["Helvetica", "helvetica", " Helvetica ", "'Times New Roman'", "Times New Roman", "Arial", "Lato", "Open Sans", "Georgia, serif"];
    const stacks = [
      "Helvetica, sans-serif",
      "helvetica, sans-serif",
      "Helvetica, sans-serif",
      "'Times New Roman', serif",
      "'Times New Roman', serif",
      "Arial, Helvetica, sans-serif",
      "Lato, Arial, Helvetica, sans-serif",
      "'Open Sans', Arial, Helvetica, sans-serif",
      "Georgia, serif",
    ];
    expect(families.map(fontStack)).toEqual(stacks);
    expect(families.map(fontStack)).toEqual(stacks);
  });
});
