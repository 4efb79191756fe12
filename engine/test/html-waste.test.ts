import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { compileMjmlToHtml } from "../src/mjml-to-html/index.js";
import { DocumentEdits } from "../src/targets/edits.js";
import { removeHtmlWaste } from "../src/targets/html-waste.js";

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

/**
 * The global regular expression the scans replace: three alternatives, each read on the markup as
 * written (no step sees another's changes: a removal that makes a new `<tbody>` leaves it).
 */
function removeHtmlWasteReference(html: string): string {
  return html.replace(
    /background:([^;"'{}()]+);background-color:\1(;?)| (?:style|class)=""|<\/?tbody>/g,
    (found, background: string | undefined, end: string | undefined, at: number, text: string) => {
      if (background !== undefined) return `background-color:${background}${end}`;
      if (found.startsWith(" ")) return text.lastIndexOf("<", at) > text.lastIndexOf(">", at) ? "" : found;
      return "";
    },
  );
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

  it("drops the text style of a heading's wrapper when the heading sets every property of it, and only then", () => {
    const wrapper = "font-family:Arial, sans-serif;font-size:13px;line-height:1;text-align:left;color:#000000;";
    const heading = 'style="font-family:Georgia;font-size:20px;line-height:1.2;color:#111111;text-align:left;margin:0"';
    expect(removeHtmlWaste(`<td><div style="${wrapper}"><h2 ${heading}>Hi {{name}}</h2></div></td>`)).toBe(
      `<td><div><h2 ${heading}>Hi {{name}}</h2></div></td>`,
    );
    // As mjml writes it, before the minifier; with the heading's dir first.
    expect(removeHtmlWaste(`<div\n   style="${wrapper}"\n  ><h3 dir="rtl" ${heading}>a</h3>\n</div>`)).toBe(`<div><h3 dir="rtl" ${heading}>a</h3>\n</div>`);
    const kept = [
      `<div style="${wrapper}"><h2 ${heading}>a</h2>more text</div>`,
      `<div style="${wrapper}"><h2 style="font-size:20px;margin:0">a</h2></div>`,
      `<div style="padding:4px;font-size:13px"><h2 style="padding:0;font-size:20px">a</h2></div>`,
      `<div style="font-size:13px;color:#000"><h2 style="font-size:1.5em;color:#111">a</h2></div>`,
      `<div class="x" style="${wrapper}"><h2 ${heading}>a</h2></div>`,
      `<div style="${wrapper}"><p ${heading}>a</p></div>`,
    ];
    // A heading whose font size is `0px` (written `0`, a length of no unit) keeps its wrapper's style.
    expect(removeHtmlWaste(`<div style="font-size:13px"><h2 style="font-size:0px">a</h2></div>`)).toBe(
      `<div style="font-size:13px"><h2 style="font-size:0">a</h2></div>`,
    );
    for (const html of kept) expect(removeHtmlWaste(html)).toBe(html);
    // Every level, and white space of any kind where mjml may write it.
    for (const level of [1, 6]) {
      expect(removeHtmlWaste(`<div \t\n style="${wrapper}" \n>\r\n <h${level} ${heading}>a</h${level}> </div>`)).toBe(
        `<div>\r\n <h${level} ${heading}>a</h${level}> </div>`,
      );
    }
    for (const html of [
      `<div style="${wrapper}"><h7 ${heading}>a</h7></div>`,
      `<div style="${wrapper}"><H2 ${heading}>a</H2></div>`,
      `<divstyle="${wrapper}"><h2 ${heading}>a</h2></div>`,
    ]) {
      expect(removeHtmlWaste(html)).toBe(html);
    }
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

  it("writes an empty column as an empty div, keeping its classes, alignment and zero font size", () => {
    const html = compileMjmlToHtml(
      '<mjml><mj-body><mj-section><mj-column width="40%"><mj-text>a</mj-text></mj-column><mj-column width="2%" vertical-align="middle"></mj-column><mj-column width="58%" css-class="x"></mj-column></mj-section></mj-body></mjml>',
    );
    const lean = removeHtmlWaste(html);
    expect(lean).toContain(
      '<div class="mj-column-per-2 mj-outlook-group-fix" style="font-size:0;display:inline-block;vertical-align:middle;width:100%;"></div>',
    );
    // In a group, a column's width is its share of the row.
    const group = compileMjmlToHtml(
      '<mjml><mj-body><mj-section><mj-group><mj-column width="49%"><mj-text>a</mj-text></mj-column><mj-column width="2%"></mj-column><mj-column width="49%"><mj-text>b</mj-text></mj-column></mj-group></mj-section></mj-body></mjml>',
    );
    expect(removeHtmlWaste(group)).toContain(
      '<div class="mj-column-per-2 mj-outlook-group-fix" style="font-size:0;display:inline-block;vertical-align:top;width:2%;"></div>',
    );
    // A column with a class of its own (a dark colour, a background image) keeps all it had.
    expect(lean).toMatch(/<div\s+class="mj-column-per-58 mj-outlook-group-fix x"\s+style="font-size:0;text-align:left;direction:ltr;[^"]*"\s*>\s*<table/);
    // A column with content keeps its table (its vertical alignment is only on its box).
    expect(lean).toMatch(
      /<div\s+class="mj-column-per-40 mj-outlook-group-fix"[^>]*>\s*<table\s+border="0"\s+cellpadding="0"\s+cellspacing="0"\s+role="presentation"\s+width="100%"\s*>\s*<tr>/,
    );
  });

  it("drops a column table's vertical alignment only where it is the table's whole style", () => {
    const column = '<div class="mj-column-per-50 mj-outlook-group-fix" style="font-size:0;display:inline-block;vertical-align:top;width:100%;">\n<table';
    expect(removeHtmlWaste(`${column} border="0" cellpadding="0" cellspacing="0" role="presentation" style="vertical-align:top;" width="100%"><tr>`)).toBe(
      `${column} border="0" cellpadding="0" cellspacing="0" role="presentation" width="100%"><tr>`,
    );
    const kept = [
      `${column} border="0" cellpadding="0" cellspacing="0" role="presentation" style="background-color:#fff;vertical-align:top;" width="100%">`,
      `${column} border="0" cellpadding="0" cellspacing="0" role="presentation" style="vertical-align:top;" width="50%">`,
      '<div><table border="0" cellpadding="0" cellspacing="0" role="presentation" style="vertical-align:top;" width="100%">',
    ];
    for (const html of kept) expect(removeHtmlWaste(html)).toBe(html);
  });

  it("drops a zero padding from mjml's block and section cells, whose tables say cellpadding=0", () => {
    expect(removeHtmlWaste('<td align="left" style="font-size:0;padding:0;word-break:break-word;">')).toBe(
      '<td align="left" style="font-size:0;word-break:break-word;">',
    );
    expect(removeHtmlWaste('<td style="direction:rtl;font-size:0;padding:0;text-align:center;">')).toBe(
      '<td style="direction:rtl;font-size:0;text-align:center;">',
    );
    expect(removeHtmlWaste('<td class="x" style="background:#fff;font-size:0;padding:0;word-break:break-word;">')).toBe(
      '<td class="x" style="background:#fff;font-size:0;word-break:break-word;">',
    );
    // As mjml writes them, `0px`: the zeros `0px` becomes, and only those.
    expect(removeHtmlWaste('<td align="left" style="font-size:0px;padding:0px;word-break:break-word;">')).toBe(
      '<td align="left" style="font-size:0;word-break:break-word;">',
    );
    expect(removeHtmlWaste('<td style="direction:ltr;font-size:0px;padding:0;text-align:center;">')).toBe(
      '<td style="direction:ltr;font-size:0;text-align:center;">',
    );
    const keptAsWritten = '<td style="background:url(a.png);font-size:0px;padding:0px;word-break:break-word;">';
    expect(removeHtmlWaste(keptAsWritten)).toBe(keptAsWritten);
    const kept = [
      '<td style="padding:0;font-size:0;height:28px;">',
      '<div style="font-size:0;padding:0;word-break:break-word;">',
      '<td title="font-size:0;padding:0;word-break:break-word;">',
      '<p>style="font-size:0;padding:0;word-break:break-word;"</p>',
    ];
    for (const html of kept) expect(removeHtmlWaste(html)).toBe(html);
  });

  it("declares Word's namespace once on <html> for Outlook's buttons, and drops mso-* properties from the buttons Outlook skips", () => {
    const root =
      '<html lang="en" xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">';
    const vml = (ns: string) =>
      `<!--[if mso]><td style="mso-line-height-rule:exactly;"><v:roundrect${ns} href="a"><w:anchorlock/></v:roundrect></td><![endif]-->`;
    const link = (style: string) =>
      `<!--[if !mso]><!--><td style="cursor:auto;${style}"><a style="display:inline-block;padding:10px;${style}border-radius:4px;">a;mso-padding-alt:0;</a></td><!--<![endif]-->`;
    const ns = ' xmlns:w="urn:schemas-microsoft-com:office:word"';
    const button = vml(ns) + link("mso-padding-alt:0;");
    expect(removeHtmlWaste(`${root}${button}${button}`)).toBe(`${root.slice(0, -1)}${ns}>${vml("")}${link("")}${vml("")}${link("")}`);
    // Nothing without our root, and no not-Outlook markup but a button's.
    expect(removeHtmlWaste(button)).toBe(button);
    expect(removeHtmlWaste(root)).toBe(root);
    expect(removeHtmlWaste(`${root}${link("mso-padding-alt:0;")}`)).toBe(`${root}${link("mso-padding-alt:0;")}`);
    const twoInARow = `${root}${vml(ns)}<!--[if !mso]><!--><p style="mso-a:1;mso-b:2;color:red;font-family:x-mso-y">a</p><!--<![endif]-->`;
    expect(removeHtmlWaste(twoInARow)).toBe(
      `${root.slice(0, -1)}${ns}>${vml("")}<!--[if !mso]><!--><p style="color:red;font-family:x-mso-y">a</p><!--<![endif]-->`,
    );
  });

  it("removes each tag once, not one that a removal makes", () => {
    const html = "</<tbody>tbody><tb<tbody>ody>";
    expect(removeHtmlWaste(html)).toBe(removeHtmlWasteReference(html));
    expect(removeHtmlWaste('</ class=""tbody><p class="">')).toBe("</tbody><p>");
  });

  it("does not try a background inside one it already replaced", () => {
    const html = "background:background:x;background-color:background:x;background-color:x";
    expect(removeHtmlWaste(html)).toBe(removeHtmlWasteReference(html));
  });

  it("is the regular expressions it replaces, on generated markup", () => {
    const piece = fc.constantFrom(
      ...["background:", "background-color:", ";background-color:", "background:background:", "#fff", "#ff", "red", "a", ";", ":", '"', "'", "(", "}", " "],
      ...[' style=""', ' class=""', "style", " style", " class", '=""', "=", '"', "\n", "\u00e9", "\u{1f600}"],
      ...["<tbody>", "</tbody>", "<tbody", "tbody>", "<", ">", "</", "tbody", "t", "body>", "<body>", "</body>"],
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

describe("DocumentEdits", () => {
  it("applies edits by position, at one position in the order marked, and drops one inside an edit applied before it", () => {
    const edits = new DocumentEdits();
    edits.replace(6, 11, "there");
    edits.insert(0, "[");
    edits.remove(7, 9);
    edits.insert(11, "!");
    edits.insert(11, "]");
    edits.replace(0, 5, "Hi");
    expect(edits.applyTo("hello world")).toBe("[Hi there!]");
    expect(new DocumentEdits().applyTo("same")).toBe("same");
  });
});

describe("the html clean-up's cost", () => {
  it("marks every step's changes on the compiled document and writes it once", async () => {
    const newsletter = listCases("render").find((c) => c.name === "realistic-newsletter")!;
    const mjml = await render(newsletter.template, { target: "mjml", dynamicData: newsletter.dynamicData, minify: false });
    const html = compileMjmlToHtml(mjml.output);
    const applied = vi.spyOn(DocumentEdits.prototype, "applyTo");
    try {
      // The JavaScript definition itself: Node's host runs the C as WebAssembly (native-functions.test.ts holds the two equal).
      removeHtmlWaste(html);
      // One document written for all the steps (each step returning one cost a copy of a document over 128 KiB on V8).
      expect(applied).toHaveBeenCalledTimes(1);
      const [edits] = applied.mock.contexts as DocumentEdits[];
      expect(edits!.size).toBeGreaterThan(100);
    } finally {
      applied.mockRestore();
    }
  });
});
