/**
 * The html target's lean writing (minified a run of writes at a time, then cleaned up) gives what
 * minifyMarkup(removeHtmlWaste(full document)) does: on any pieces, and on the compile's documents.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { compileMjmlToHtml, compileMjmlToPieces } from "../src/mjml-to-html/index.js";
import { removeHtmlWaste } from "../src/targets/html-waste.js";
import { minifyMarkup, minifyMarkupPieces, piecesMemo } from "../src/targets/minify.js";
import { generateTemplates } from "./support/generated-templates.js";

const piece = fc.constantFrom(
  ...["<table>", "</td>", "<td", ' style="a:0px"', ">", "<", "x", "a b", "\n      <tr>\n        ", "\n    ", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\ufeff"],
  ...["<!--[if mso | IE]>", "<![endif]-->", "<!--", "-->", "<!-- a\n  b -->", "<style>\n  .a { b }\n</style>", "<style>", "</style>", "<pre>\n  x  \n</pre>", "<PRE>"],
  ...['<td\n  style="x"\n  >\n', "<br />", "<b>a</b> <i>b</i>", "</div>\n      \n    <div>", "\n  <textarea> a\n</textarea>"],
);

describe("minifyMarkupPieces", () => {
  it("equals minifyMarkup of the concatenation, for any pieces", () => {
    const memo = piecesMemo();
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 4 }).map((parts) => parts.join("")), { maxLength: 40 }), (pieces) => {
        expect(minifyMarkupPieces(pieces, memo)).toBe(minifyMarkup(pieces.join("")));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the compile's documents minified a write at a time, then cleaned up", () => {
  it("equal the clean-up's then the minifier's passes over the whole document", async () => {
    const documents: string[] = [];
    for (const fixture of listCases("render")) documents.push((await render(fixture.template, { target: "mjml", dynamicData: fixture.dynamicData, minify: false })).output);
    for (const { template } of generateTemplates(60, 11)) documents.push((await render(template, { target: "mjml", minify: false })).output);
    for (const mjml of documents) {
      expect(removeHtmlWaste(minifyMarkupPieces(compileMjmlToPieces(mjml, true), piecesMemo()))).toBe(minifyMarkup(removeHtmlWaste(compileMjmlToHtml(mjml))));
    }
  });
});
