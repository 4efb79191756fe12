/**
 * The HTML document around a rendered body, assembled from the body's parts without copying the body
 * whole first (src/mjml-to-html/document.ts, documentHtml): for any markup, cut into parts anywhere,
 * it is the document mjml-core 5.4.1 makes of that markup: its skeleton around the body minified by
 * minifyOutlookConditionnals, then mergeOutlookConditionnals over all of it.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GlobalData } from "../src/mjml-to-html/component.js";
import { documentHtml } from "../src/mjml-to-html/document.js";

const require = createRequire(import.meta.url);
const skeleton = require("mjml-core/lib/helpers/skeleton") as (options: object) => string;
const minifyOutlookConditionnals = require("mjml-core/lib/helpers/minifyOutlookConditionnals") as (content: string) => string;
const mergeOutlookConditionnals = require("mjml-core/lib/helpers/mergeOutlookConditionnals") as (content: string) => string;

/** Markup as containers write it, and the fragments of it a cut or a stray literal can leave. */
const piece = fc.constantFrom(
  ...["<!--[if mso | IE]>", "<!--[if mso]>", "<!--[if !mso | IE]><!-->", "<!--<![endif]-->", "<![endif]-->", "<!--[if", "<!--[i", "<!--"],
  ...["<![endif]", "<![end", "]>", "]", "-->", " mso | IE]>", "<!--[if ]>", "<!--[ifx]>"],
  // the literals' tails without their heads, which a search by a part of a literal must not take for it
  ...["[if", "[if mso | IE]>", "[endif]-->", "<!", "<!-", "!--", "-"],
  ...["<table>", "</td>", "<td", ' style="font-family:Roboto, Arial"', ' class="a  b"', ">", "<", '"', "x", "Roboto"],
  ...[" ", "  ", "\n", "\n      ", "\t", "\u00a0", "\ufeff"],
  ...['\n      <!--[if mso | IE]>\n      <table\n        role="presentation"\n      >\n      <![endif]-->\n    ', "<!--[if mso | IE]></td></tr><![endif]-->"],
);

/** Cuts `text` at the given positions (taken modulo its length, so any may fall inside a literal). */
function cut(text: string, at: readonly number[]): string[] {
  const positions = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const position of positions) {
    parts.push(text.slice(from, position));
    from = position;
  }
  parts.push(text.slice(from));
  return parts;
}

const headData = fc.record({
  title: fc.constantFrom("", "Cases", "<![endif]--> <!--[if mso | IE]>"),
  fonts: fc.constantFrom({}, { Roboto: "https://fonts.example/roboto" }, { mso: "https://fonts.example/mso", Lato: "https://fonts.example/lato" }),
  headRaw: fc.constantFrom([], ['<meta name="x">', null], ["<!--[if mso]><x><![endif]-->\n  <!--[if mso | IE]><y><![endif]-->"]),
  style: fc.constantFrom([], [".x{color:red}"]),
});

describe("the document around a body in parts", () => {
  it("is mjml-core's, however the body is cut", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), headData, (pieces, cuts, head) => {
        const body = pieces.join("");
        const globalData: GlobalData = {
          breakpoint: "480px",
          defaultAttributes: {},
          fonts: head.fonts,
          headStyle: {},
          componentsHeadStyle: [],
          headRaw: [...head.headRaw],
          mediaQueries: {},
          preview: "",
          style: [...head.style],
          title: head.title,
          forceOWADesktop: false,
          lang: "und",
          dir: "auto",
        };
        const reference = mergeOutlookConditionnals(skeleton({ ...globalData, content: minifyOutlookConditionnals(body), inlineStyle: [] }));
        expect(documentHtml(cut(body, cuts), globalData)).toBe(reference);
      }),
      { numRuns: 5000 },
    );
  });
});
