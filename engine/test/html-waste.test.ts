import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { removeHtmlWaste } from "../src/targets/html-waste.js";

/** The two global regular expressions the scan replaces. */
function removeHtmlWasteReference(html: string): string {
  return html.replace(/background:([^;"'{}()]+);background-color:\1(;?)/g, "background-color:$1$2").replace(/ (?:style|class)=""/g, "");
}

describe("removeHtmlWaste", () => {
  it("keeps the longhand of a repeated solid background and drops empty style and class", () => {
    expect(removeHtmlWaste('<td style="background:#fff;background-color:#fff;padding:0" class="">')).toBe('<td style="background-color:#fff;padding:0">');
    expect(removeHtmlWaste('<div style="background:#fff;background-color:#000">')).toBe('<div style="background:#fff;background-color:#000">');
  });

  it("does not try a background inside one it already replaced", () => {
    const html = "background:background:x;background-color:background:x;background-color:x";
    expect(removeHtmlWaste(html)).toBe(removeHtmlWasteReference(html));
  });

  it("is the regular expressions it replaces, on generated markup", () => {
    const piece = fc.constantFrom(
      ...["background:", "background-color:", ";background-color:", "background:background:", "#fff", "#ff", "red", "a", ";", ":", '"', "'", "(", "}", " "],
      ...[' style=""', ' class=""', "style", " style", " class", '=""', "=", '"', "\n", "\u00e9", "\u{1f600}"],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const html = pieces.join("");
        expect(removeHtmlWaste(html)).toBe(removeHtmlWasteReference(html));
      }),
      { numRuns: 20_000 },
    );
  });
});
