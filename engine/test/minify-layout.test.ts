import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSpace } from "../src/base/whitespace.js";
import { layoutColumns } from "../src/targets/layout.js";
import { minifyJsx, minifyMarkup } from "../src/targets/minify.js";

describe("minifyMarkup", () => {
  it("removes formatting whitespace between tags and collapses runs", () => {
    expect(minifyMarkup("<div>\n  <p>a   b\n c</p>\n</div>\n")).toBe("<div><p>a b c</p></div>");
  });
  it("keeps one space between inline elements on a line", () => {
    expect(minifyMarkup("<b>a</b> <i>b</i>")).toBe("<b>a</b> <i>b</i>");
  });
  it("keeps comments, and only trims lines inside style, script and comments", () => {
    const source =
      "<head>\n  <style>\n    a { color: red; }\n\n\n    b { x: y; }\n  </style>\n  <!--[if mso]>\n    <xml>  keep  </xml>\n  <![endif]-->\n</head>";
    expect(minifyMarkup(source)).toBe("<head><style>\na { color: red; }\nb { x: y; }\n</style><!--[if mso]>\n<xml>  keep  </xml>\n<![endif]--></head>");
  });
  it("leaves pre alone and tidies tag whitespace", () => {
    expect(minifyMarkup('<pre>  a\n   b</pre>\n<td\n   align="left"\n>x</td>')).toBe('<pre>  a\n   b</pre><td align="left">x</td>');
  });

  it("is the regular expressions it replaces, on generated markup", () => {
    const piece = fc.constantFrom(
      ...["<", ">", "/", "/>", " ", "  ", "\t", "\n", "\r", "\v", "\u00a0", "\u2028", "\ufeff", "a", "B", "1", "=", '"', "<a", "<b x", "<P ", "<td", "</td>"],
      ...["<!--", "-->", "<!-->", "<style>", "<STYLE a>", "</style>", "</Style >", "<styles>", "<script>", "</script>", "<mj-style>", "</mj-style>"],
      ...["<pre>", "</pre>", "<PRE>", "<textarea x>", "</textarea>", "\uE002", "<\uE0020>", "<\uE00212>", "<\uE002>"],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const source = pieces.join("");
        expect(minifyMarkup(source)).toBe(minifyMarkupReference(source));
      }),
      { numRuns: 20_000 },
    );
  });

  it("reads as whitespace exactly what \\s matches", () => {
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code++) if (isSpace(code) !== /\s/.test(String.fromCharCode(code))) differing.push(`U+${code.toString(16)}`);
    expect(differing).toEqual([]);
  });
});

/** The minifier as global regular expressions, as it was written before it scanned with indexOf. */
function minifyMarkupReference(source: string): string {
  const tidyLines = (block: string): string =>
    block
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .join("\n");
  const kept: string[] = [];
  const masked = source.replace(
    /<!--[\s\S]*?-->|<(style|script|mj-style|pre|textarea)\b[^>]*>[\s\S]*?<\/\1\s*>/gi,
    (block: string, tag: string | undefined) => {
      const lower = tag?.toLowerCase();
      kept.push(lower === "pre" || lower === "textarea" ? block : tidyLines(block));
      return `<\uE002${kept.length - 1}>`;
    },
  );
  const minified = masked
    .replace(/>[ \t\r]*\n\s*</g, "><")
    .replace(/[ \t\r]*\n\s*/g, " ")
    .replace(/(<[A-Za-z][^<>]*?)\s+(\/?>)/g, "$1$2")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
  return minified.replace(/<\uE002(\d+)>/g, (_, index: string) => kept[Number(index)] ?? "");
}

describe("minifyJsx", () => {
  it("trims lines, collapses 3+ newlines to one blank line and trims the whole", () => {
    expect(minifyJsx("\n  a\n\n\n\n    b  \n\nc\n")).toBe("a\n\nb\n\nc");
  });
});

describe("layoutColumns", () => {
  it("keeps exporter widths (already scaled for the gap)", () => {
    expect(layoutColumns([49, 49], 12, 600)).toEqual({ widths: [49, 49], gap: 2 });
  });
  it("scales hand-written widths that fill the row, remainder into the last column", () => {
    expect(layoutColumns([33.33, 33.33, 33.34], 12, 600)).toEqual({ widths: [32, 32, 32], gap: 2 });
    expect(layoutColumns([70, 30], 6, 600)).toEqual({ widths: [69.3, 29.7], gap: 1 });
  });
  it("shares what is left among columns without a width", () => {
    expect(layoutColumns([50, undefined, undefined], 0, 600)).toEqual({ widths: [50, 25, 25], gap: 0 });
  });
  it("a single column has no gap", () => {
    expect(layoutColumns([undefined], 12, 600)).toEqual({ widths: [100], gap: 0 });
  });
});
