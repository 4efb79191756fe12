import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SLOT_TOKEN_PATTERN } from "../src/markup/emitter.js";
import { compileOutput } from "../src/markup/substitute.js";

/** The output split around its slot tokens with the global expression, as the scan replaces it. */
function splitReference(source: string): { parts: string[]; slotIds: number[] } {
  const parts: string[] = [];
  const slotIds: number[] = [];
  let last = 0;
  for (const match of source.matchAll(SLOT_TOKEN_PATTERN)) {
    parts.push(source.slice(last, match.index));
    slotIds.push(Number(match[1]));
    last = match.index + match[0].length;
  }
  parts.push(source.slice(last));
  return { parts, slotIds };
}

describe("compileOutput", () => {
  it("splits the output around its slot tokens", () => {
    const { parts, slotIds } = compileOutput("<p>\uE0000\uE001 and \uE00012\uE001</p>", [], "markup");
    expect(parts).toEqual(["<p>", " and ", "</p>"]);
    expect(slotIds).toEqual([0, 12]);
  });

  it("is the global expression it replaces, on generated output", () => {
    const piece = fc.constantFrom("\uE000", "\uE001", "\uE0003\uE001", "\uE00045\uE001", "0", "7", "a", "<p>", " ", "\n", "\u{1f600}");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const source = pieces.join("");
        const { parts, slotIds } = compileOutput(source, [], "markup");
        expect({ parts, slotIds }).toEqual(splitReference(source));
      }),
      { numRuns: 20_000 },
    );
  });
});
