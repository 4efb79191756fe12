/**
 * mjml-core's helpers as our MJML compiler reimplements them without regular expressions
 * (src/mjml-to-html/helpers.ts): the same results as mjml-core 5.4.1's on generated values.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shorthandParser } from "../src/mjml-to-html/helpers.js";

const require = createRequire(import.meta.url);
const reference = require("mjml-core/lib/helpers/shorthandParser") as { default: (value: string, direction: string) => number };

/** CSS values as attributes hold them, with every kind of whitespace `\s` matches around and between. */
const value = fc
  .array(fc.constantFrom("0", "10px", "25px", "1.5em", "-4px", "50%", "auto", "x", " ", "  ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u200b"), {
    maxLength: 12,
  })
  .map((pieces) => pieces.join(""));

describe("mjml-core helpers", () => {
  it("shorthandParser reads each side as mjml-core does", () => {
    fc.assert(
      fc.property(value, fc.constantFrom("top", "right", "bottom", "left" as const), (css, direction) => {
        expect(shorthandParser(css, direction)).toBe(reference.default(css, direction));
      }),
      { numRuns: 5000 },
    );
  });
});
