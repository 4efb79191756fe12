/**
 * A conditional comment's inner markup minified from its template text (src/mjml-to-html/
 * conditional-template.ts): wherever minifiedTemplate answers, its answer is minifyInner of the
 * markup, for any text around any value; and it answers for the values components write (attribute
 * lists, nothing).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minifiedTemplate, minifyInner } from "../src/mjml-to-html/conditional-template.js";

/** Static parts as components write them, and the characters that take part in minifyInner's matches. */
const staticPiece = fc.constantFrom(
  ...["\n      ", "\n", " ", "  ", "\t", "\r\n", "\r", "\u2028", "\u00a0", "\ufeff", ""],
  ...["<table", "<td", "</td>", "<tr>", ">", "<", '"', ' class="', '" style="', "width:", ";", "x", "\uE000"],
);

/** Values as components write them, and values with white space, `<` or `>` anywhere. */
const value = fc.oneof(
  fc.constantFrom("", "600px", "mj-column-per-100", ' align="left"', ' bgcolor="#ffffff"', "a b", "vertical-align:top;width:600px;"),
  fc.array(fc.constantFrom(" ", "  ", "\n", "\t", "\u00a0", "<", ">", "<b>", "a", "-", '"', "\uE000"), { maxLength: 5 }).map((texts) => texts.join("")),
);

/** A template's text before and after its value, and the value. */
const template = fc.tuple(
  fc.array(staticPiece, { maxLength: 5 }).map((pieces) => pieces.join("")),
  value,
  fc.array(staticPiece, { maxLength: 5 }).map((pieces) => pieces.join("")),
);

describe("a conditional's inner markup minified from its template", () => {
  it("is minifyInner of the markup, wherever it is given", () => {
    fc.assert(
      fc.property(template, ([before, text, after]) => {
        const minified = minifiedTemplate(before, text, after);
        if (minified !== undefined) expect(minified).toBe(minifyInner(before + text + after));
      }),
      { numRuns: 20_000 },
    );
  });

  it("is given for the values components write", () => {
    const before = `
            <td
              `;
    const after = `
            >
          `;
    for (const attributes of [' class="a-outlook b-outlook" style="vertical-align:top;width:600px;"', ' align="left" class=""', "", "600px"]) {
      expect(minifiedTemplate(before, attributes, after)).toBe(minifyInner(before + attributes + after));
    }
  });
});
