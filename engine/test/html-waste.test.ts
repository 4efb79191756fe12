import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { compileMjmlToHtml, compileMjmlToHtmlPieces } from "../src/mjml-to-html/index.js";
import { removeHtmlWaste, removeHtmlWasteInChunks } from "../src/targets/html-waste.js";
import { minifyMarkup } from "../src/targets/minify.js";
import { toHydrated } from "./support/editor-form.js";
import { scannedLengths } from "./support/scanned-lengths.js";

/** mj-navbar's head style as the compiler writes it (unminified), up to the end of its media query. */
function readMenuRules(): string {
  const html = compileMjmlToHtml(
    '<mjml><mj-body><mj-section><mj-column><mj-navbar><mj-navbar-link href="/">A</mj-navbar-link></mj-navbar></mj-column></mj-section></mj-body></mjml>',
  );
  const start = html.indexOf("noinput.mj-menu-checkbox");
  const end = html.indexOf("</style>", start);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, end);
}

/** The global regular expressions the scans replace. */
function removeHtmlWasteReference(html: string): string {
  return html
    .replace(/background:([^;"'{}()]+);background-color:\1(;?)/g, "background-color:$1$2")
    .replace(/ (?:style|class)=""/g, (empty, at: number, text: string) => (text.lastIndexOf("<", at) > text.lastIndexOf(">", at) ? "" : empty))
    .replace(/<\/?tbody>/g, "");
}

describe("removeHtmlWaste", () => {
  it("keeps the longhand of a repeated solid background and drops empty style and class", () => {
    expect(removeHtmlWaste('<td style="background:#fff;background-color:#fff;padding:0" class="">')).toBe('<td style="background-color:#fff;padding:0">');
    expect(removeHtmlWaste('<div style="background:#fff;background-color:#000">')).toBe('<div style="background:#fff;background-color:#000">');
  });

  it("keeps text that reads like an empty attribute (quotes are not escaped in text)", () => {
    const text = '<h1 style="margin:0">Write style="" or class="" to clear it</h1><p class="" style="">x</p>';
    expect(removeHtmlWaste(text)).toBe('<h1 style="margin:0">Write style="" or class="" to clear it</h1><p>x</p>');
  });

  it("drops <tbody> tags", () => {
    expect(removeHtmlWaste("<table><tbody><tr><td>a > b</td></tr></tbody></table>")).toBe("<table><tr><td>a > b</td></tr></table>");
  });

  it("drops mj-navbar's hamburger rules when the email has no hamburger, and only then", () => {
    const rules = readMenuRules();
    const html = `<style type="text/css">\n${rules}</style><div class="mj-inline-links"><a class="mj-link">A</a></div>`;
    expect(removeHtmlWaste(html)).toBe('<style type="text/css">\n</style><div class="mj-inline-links"><a class="mj-link">A</a></div>');
    const withHamburger = `${html}<input type="checkbox" id="x" class="mj-menu-checkbox" style="display:none !important; max-height:0; visibility:hidden;" />`;
    expect(removeHtmlWaste(withHamburger)).toBe(withHamburger);
  });

  it("writes a zero length in a style attribute as 0, and nowhere else", () => {
    expect(removeHtmlWaste('<td style="padding:0px;margin:0px auto;border:0px solid red;line-height:0px !important" class="a">')).toBe(
      '<td style="padding:0;margin:0 auto;border:0 solid red;line-height:0 !important" class="a">',
    );
    expect(removeHtmlWaste('<!--[if mso | IE]><td style="line-height:0px;font-size:0px;"><![endif]-->')).toBe(
      '<!--[if mso | IE]><td style="line-height:0;font-size:0;"><![endif]-->',
    );
    const kept = [
      '<td style="padding:10px 20px;width:calc(100% - 0px);margin:1.0px -0px">',
      '<p>a style="margin:0px" b</p>',
      '<h2 style="margin:0">x style="margin:0px"</h2>',
      '<img alt="size: 0px;" src="a">',
      "<style>p { padding:0px; }</style>",
    ];
    for (const html of kept) expect(removeHtmlWaste(html)).toBe(html);
  });

  it("removes each tag once, not one that a removal makes", () => {
    const html = "</<tbody>tbody><tb<tbody>ody>";
    expect(removeHtmlWaste(html)).toBe(removeHtmlWasteReference(html));
  });

  it("does not try a background inside one it already replaced", () => {
    const html = "background:background:x;background-color:background:x;background-color:x";
    expect(removeHtmlWaste(html)).toBe(removeHtmlWasteReference(html));
  });

  it("is the regular expressions it replaces, on generated markup", () => {
    const piece = fc.constantFrom(
      ...["background:", "background-color:", ";background-color:", "background:background:", "#fff", "#ff", "red", "a", ";", ":", '"', "'", "(", "}", " "],
      ...[' style=""', ' class=""', "style", " style", " class", '=""', "=", '"', "\n", "\u00e9", "\u{1f600}"],
      ...["<tbody>", "</tbody>", "<tbody", "tbody>", "<", ">", "</", "tbody"],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const html = pieces.join("");
        expect(removeHtmlWaste(html)).toBe(removeHtmlWasteReference(html));
      }),
      { numRuns: 20_000 },
    );
  });

  it("does on a document cut into chunks what it does on the whole, for every fixture's html", async () => {
    const whole = Number.MAX_SAFE_INTEGER;
    for (const fixture of listCases("render")) {
      const mjml = (await render(fixture.template, { target: "mjml", dynamicData: fixture.dynamicData, minify: false })).output;
      const pieces = compileMjmlToHtmlPieces(mjml);
      const expected = removeHtmlWaste(pieces.join(""), whole);
      for (const length of [1, 97, 4096]) {
        expect(removeHtmlWaste(pieces.join(""), length), `${fixture.name}, chunks of ${length}`).toBe(expected);
        expect(removeHtmlWaste(pieces, length), `${fixture.name}, the compile's pieces in chunks of ${length}`).toBe(expected);
        expect(minifyMarkup(removeHtmlWasteInChunks(pieces, length)), `${fixture.name}, minified from chunks of ${length}`).toBe(minifyMarkup(expected));
      }
    }
  });

  it("cuts a document nowhere a step would read across", () => {
    const whole = Number.MAX_SAFE_INTEGER;
    const documents = [
      // a tbody tag ends the chunk: removed, the zero length after it would follow `a:`
      '<td style="a:<tbody>0px;">',
      // a repeated background whose value holds a `>`, on both sides of a `>`
      "<p>background:a>;background-color:a>;</p>",
      "<p>background:a>b;background-color:a>b</p>",
      // the menu rules hold a `>`: their match runs past a cut
      "<style>noinput.mj-menu-checkbox { a:b }\n@media x { .a > .b { c:d } }\n</style><p>x</p>",
    ];
    for (const html of documents) {
      expect(removeHtmlWaste(html, whole)).not.toBe(html);
      expect(removeHtmlWaste(html, 1), html).toBe(removeHtmlWaste(html, whole));
    }
  });

  it("does on a document cut into chunks what it does on the whole, on generated markup", () => {
    const menuRules = readMenuRules();
    const piece = fc.constantFrom(
      ...["background:", ";background-color:", "a", ";", ":", '"', "{", "}", " ", "\n", ">", "<", '<td style="', "<tbody>", "</tbody>"],
      ...[' style=""', ' class=""', "0px", menuRules, "noinput.mj-menu-checkbox {", "@media", 'class="mj-menu-checkbox"', "\u00e9"],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 1, max: 16 }), (pieces, length) => {
        const html = pieces.join("");
        const expected = removeHtmlWaste(html, Number.MAX_SAFE_INTEGER);
        expect(removeHtmlWaste(html, length)).toBe(expected);
        expect(removeHtmlWaste(pieces, length)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it("reads a long document from the compile chunk by chunk, never whole", async () => {
    const newsletter = listCases("render").find((c) => c.name === "realistic-newsletter");
    if (newsletter === undefined) throw new Error("the realistic-newsletter fixture is missing");
    const mjml = (
      await render(toHydrated(newsletter.template as Record<string, unknown>), { target: "mjml", dynamicData: newsletter.dynamicData, minify: false })
    ).output;
    const html = compileMjmlToHtml(mjml);
    // Long enough for V8 to allocate the document apart (two-byte: it holds a "—"): what the test is about.
    expect(html.length).toBeGreaterThan(65_536);
    expect(html).toContain("\u2014");
    let cleaned = "";
    const lengths = scannedLengths(() => {
      cleaned = removeHtmlWaste(compileMjmlToHtmlPieces(mjml));
    });
    expect(cleaned).toBe(removeHtmlWaste(html));
    expect(Math.max(...lengths)).toBeLessThan(html.length / 3);
    // Minified from the chunks, the document is never scanned whole either (its steps after the
    // first scan the text with its comments and style blocks masked, shorter than the document).
    let minified = "";
    const minifyLengths = scannedLengths(() => {
      minified = minifyMarkup(removeHtmlWasteInChunks(compileMjmlToHtmlPieces(mjml)));
    });
    expect(minified).toBe(minifyMarkup(cleaned));
    expect(Math.max(...minifyLengths)).toBeLessThan(cleaned.length);
  });
});
