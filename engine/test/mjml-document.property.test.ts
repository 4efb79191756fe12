/**
 * The HTML document around a body written into a BodyWriter (src/mjml-to-html/document.ts): for any
 * markup, written in any order of plain text, conditional comments and scanned markup (each within
 * its contract), or scanned whole, cut into parts anywhere, it is the document mjml-core 5.4.1 makes
 * of that markup: its skeleton around the body minified by minifyOutlookConditionnals, then
 * mergeOutlookConditionnals over all of it.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GlobalData } from "../src/mjml-to-html/component.js";
import { BodyWriter, documentParts } from "../src/mjml-to-html/document.js";
import { type HtmlOutput, StringOutput } from "../src/mjml-to-html/html-output.js";

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
  ...[" ", "  ", "\n", "\n      ", "\t", "\u00a0", "\ufeff", "\r\n", "\r", "\u2028"],
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

function globalDataOf(head: {
  title: string;
  fonts: Readonly<Record<string, string>>;
  headRaw: readonly (string | null)[];
  style: readonly string[];
}): GlobalData {
  return {
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
}

function reference(body: string, globalData: GlobalData): string {
  return mergeOutlookConditionnals(skeleton({ ...globalData, content: minifyOutlookConditionnals(body), inlineStyle: [] }));
}

/** Pieces of plain text and of a conditional's inner markup (BodyWriter's contract: no `<!`, no text ending with `<`). */
const plain = piece.filter((text) => !text.includes("<!"));

const whitespace = fc.constantFrom(" ", "  ", "\n", "\n      ", "\t", "\u00a0", "\ufeff", "");

/**
 * Writes a conditional's inner markup as a component writes it: its first text, its second as the
 * value, the others after it; or, with fewer than two, without a value.
 */
function writeConditional(output: HtmlOutput, texts: readonly string[]): void {
  if (texts.length < 2) output.conditional(texts.join(""));
  else output.conditional(texts[0] as string, texts[1], texts.slice(2).join(""));
}

/** A write: plain text, whitespace, an Outlook conditional comment around plain markup, or any markup scanned. */
const write = fc.oneof(
  {
    arbitrary: fc
      .array(plain, { minLength: 1, maxLength: 4 })
      .map((texts) => ({ kind: "text" as const, markup: texts.join("") }))
      .filter(({ markup }) => markup.trim() !== "" && !markup.includes("<!") && !markup.endsWith("<")),
    weight: 4,
  },
  { arbitrary: fc.array(whitespace, { maxLength: 3 }).map((texts) => ({ kind: "space" as const, markup: texts.join("") })), weight: 4 },
  {
    arbitrary: fc
      .array(plain, { maxLength: 4 })
      .map((texts) => ({ kind: "conditional" as const, markup: texts.join(""), texts }))
      .filter(({ markup }) => !markup.includes("<!")),
    weight: 4,
  },
  { arbitrary: fc.array(piece, { maxLength: 3 }).map((texts) => ({ kind: "scan" as const, markup: texts.join("") })), weight: 1 },
);

describe("the document around a body written in order", () => {
  it("is mjml-core's, whatever is written, with or without scanning it all", () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 40 }), fc.boolean(), headData, (writes, scanAll, head) => {
        const globalData = globalDataOf(head);
        const raw = new StringOutput();
        const writer = new BodyWriter(scanAll);
        for (const write of writes) {
          if (write.kind === "conditional") {
            writeConditional(raw, write.texts);
            writeConditional(writer, write.texts);
          } else {
            raw[write.kind](write.markup);
            writer[write.kind](write.markup);
          }
        }
        expect(documentParts(writer, globalData).join("")).toBe(reference(raw.html, globalData));
      }),
      { numRuns: 5000 },
    );
  });

  it("is mjml-core's for any markup scanned, however it is cut", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), headData, (pieces, cuts, head) => {
        const body = pieces.join("");
        const globalData = globalDataOf(head);
        const writer = new BodyWriter(false);
        for (const part of cut(body, cuts)) writer.scan(part);
        expect(documentParts(writer, globalData).join("")).toBe(reference(body, globalData));
      }),
      { numRuns: 5000 },
    );
  });
});
