import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contains, occurrences } from "../src/base/literal-scan.js";

/** The reference: a global expression's matches, which are left to right and never overlap. */
const byExpression = (text: string, literal: string): number[] =>
  [...text.matchAll(new RegExp(literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g"))].map((match) => match.index);

// Few distinct characters, so literals recur and overlap ("aa" in "aaa"); wide ones too.
const unit = fc.constantFrom("a", "b", "<", "é", "€", "😀");
const text = fc.string({ unit, maxLength: 60 });
const literal = fc.oneof(fc.string({ unit: fc.constantFrom("a", "b"), minLength: 1, maxLength: 3 }), fc.string({ unit, minLength: 1, maxLength: 4 }));

describe("literal scan", () => {
  it("finds every occurrence a global expression finds, overlapping ones skipped", () => {
    fc.assert(
      fc.property(text, literal, (haystack, literal) => {
        expect(occurrences(haystack, literal)).toEqual(byExpression(haystack, literal));
        expect(contains(haystack, literal)).toBe(byExpression(haystack, literal).length > 0);
      }),
      { numRuns: 2000 },
    );
  });

  it("skips an occurrence that overlaps the one before", () => {
    expect(occurrences("aaaa", "aa")).toEqual([0, 2]);
    expect(occurrences("<a<<b", "<")).toEqual([0, 2, 3]);
    expect(contains("abc", "bd")).toBe(false);
  });
});
