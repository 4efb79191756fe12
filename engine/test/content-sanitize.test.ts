/**
 * Content HTML is reduced to the email-safe subset (spec/template.md, "Content HTML") in every target,
 * with an UNSAFE_CONTENT warning at the prop's path; hostile and malformed markup never gives a
 * react-email module that does not compile. The golden cases render/content-* show whole documents.
 */
import { transformSync } from "esbuild";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { RENDER_TARGETS, render, validateTemplate } from "../src/index.js";
import { ContentHtml } from "../src/markup/content.js";
import { readSimpleMarkup, readWithParser } from "../src/markup/content-tree.js";
import { cssAsRead, isSafeContentUrl } from "../src/markup/sanitize-html.js";

const doc = (content: string) => ({
  template_id: "t",
  template_name: "t",
  schema_version: "1.0",
  canvas: {},
  rows: [{ columns: [{ children: [{ type: "component", componentType: "paragraph", props: { content } }] }] }],
});
const CONTENT_PATH = ["rows", "0", "columns", "0", "children", "0", "props", "content"];

/** Every element and attribute of an html/mjml output, and every URL. */
function markup(output: string) {
  const elements = new Set<string>();
  const attributes = new Set<string>();
  const urls: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        elements.add(name);
        for (const [key, value] of Object.entries(attribs)) {
          attributes.add(key);
          if (key === "href" || key === "src") urls.push(value);
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(output);
  parser.end();
  return { elements, attributes, urls };
}

const compiles = (tsx: string) => transformSync(tsx, { loader: "tsx", jsx: "automatic" });

describe("content sanitiser", () => {
  it.each([
    ["<script>", "<p>a</p><script>alert(1)</script>", "alert(1)"],
    ["<iframe>", '<iframe src="https://evil.example/x"></iframe>', "evil.example"],
    ["<object>", '<object data="https://evil.example/x.swf"></object>', "evil.example"],
    ["<embed>", '<embed src="https://evil.example/x.swf">', "evil.example"],
    ["<style>", "<style>.evil{color:red}</style>", ".evil"],
    ["<svg>", "<svg><a href='javascript:alert(1)'>x</a></svg>", "javascript:"],
    ["a handler", '<p onmouseover="steal()">x</p>', "steal()"],
    ["a handler without quotes", "<img src=x onerror=steal()>", "steal()"],
    ["javascript:", '<a href="javascript:steal()">x</a>', "steal()"],
    ["javascript: with spaces and case", '<a href=" \tJaVaScRiPt:steal()">x</a>', "steal()"],
    ["javascript: spelled with references", '<a href="&#106;ava&#x73;cript&colon;steal()">x</a>', "steal()"],
    ["javascript: split by a newline reference", '<a href="java&#10;script:steal()">x</a>', "steal()"],
    ["vbscript:", '<a href="vbscript:steal()">x</a>', "steal()"],
    ["data:text/html", '<a href="data:text/html;base64,c3RlYWwoKQ==">x</a>', "c3RlYWwoKQ"],
    ["an SVG data image", '<img src="data:image/svg+xml;base64,c3RlYWwoKQ==">', "c3RlYWwoKQ"],
    ["a script URL after an empty tag", '<a href="{{ u }}javascript:steal()">x</a>', "steal()"],
    ["a CSS expression", '<span style="width:expression(steal())">x</span>', "steal()"],
    ["a CSS expression split by a comment", '<span style="width:exp/**/ression(steal())">x</span>', "steal()"],
    ["a CSS expression spelled with a CSS escape", '<span style="width:exp\\ression(steal())">x</span>', "steal()"],
    ["javascript: in a CSS url() spelled with a reference", '<span style="background:url(&#106;avascript:steal())">x</span>', "steal()"],
    [
      "javascript: hidden by a reference in one declaration of several",
      '<span style="color:red;background:url(java&#x73;cript&colon;steal())">x</span>',
      "steal()",
    ],
    ["a conditional comment", "<!--[if mso]><script>steal()</script><![endif]-->", "steal()"],
  ])("removes %s in every target, with a warning at the content's path", async (_label, content, marker) => {
    for (const target of RENDER_TARGETS) {
      const result = await render(doc(content), { target });
      expect(result.output).not.toContain(marker);
      expect(result.warnings).toEqual([expect.objectContaining({ code: "UNSAFE_CONTENT", path: CONTENT_PATH })]);
    }
  });

  it("keeps email-safe markup exactly as written, without a warning", async () => {
    const content =
      '<p style="color:#333;font-size:14px" class="lead">Hi <strong>there</strong>, <a href="https://example.com/?a=1&amp;b=2" target="_blank" rel="noopener">read</a> ' +
      '<a href="mailto:a@example.com">mail</a> <a href="tel:+331">call</a> <a href="#top">top</a> <a href="/relative">rel</a></p>' +
      '<table role="presentation" cellpadding="0"><tr><td colspan="2" bgcolor="#eeeeee" data-id="x" aria-label="cell">cell</td></tr></table>' +
      '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="dot"><img src="cid:logo@example" alt="logo"><!-- note --></p>';
    const result = await render(doc(content), { target: "mjml" });
    expect(result.warnings).toEqual([]);
    expect(result.output).toContain(content);
    expect(validateTemplate(doc(content)).warnings).toEqual([]);
  });

  it("unwraps an unknown element and keeps its text", async () => {
    const result = await render(doc("<p><blink>hello</blink> <custom-tag>world</custom-tag></p>"), { target: "html" });
    expect(result.output).toContain("<p>hello world</p>");
    expect(result.warnings.map((w) => w.code)).toEqual(["UNSAFE_CONTENT"]);
  });

  it("the warning is also a validation warning, before any render", () => {
    const report = validateTemplate(doc("<script>x</script>"));
    expect(report.valid).toBe(true);
    expect(report.warnings).toEqual([expect.objectContaining({ code: "UNSAFE_CONTENT", path: CONTENT_PATH, message: expect.stringContaining("<script>") })]);
  });

  it("URL rule: allowed schemes, relative URLs, inline raster images only in img src", () => {
    for (const url of ["https://a.example/", "HTTP://a", "mailto:x@y", "tel:1", "#x", "/p", "p?q=a:b", "https://{{ host }}/x", "{{ url.x }}"])
      expect(isSafeContentUrl(url, false)).toBe(true);
    for (const url of [
      "javascript:x",
      "jAvAscript:x",
      "\u0000javascript:x",
      "java\tscript:x",
      "data:image/png;base64,AA",
      "file:///etc/passwd",
      "x&colon;y",
      "&#0000106avascript:x",
      "ftp://a",
      "foo&bar:x",
    ])
      expect(isSafeContentUrl(url, false)).toBe(false);
    expect(isSafeContentUrl("data:image/jpeg;base64,AA", true)).toBe(true);
    expect(isSafeContentUrl("data:image/svg+xml;base64,AA", true)).toBe(false);
  });
});

/** Fragments an author (or an attacker with a template key) might paste, mixed at random. */
const fragment = fc.constantFrom(
  "<p>",
  "</p>",
  "<span {x}>",
  '<span {{ y }}="1">',
  "<a{b>",
  "</a{b>",
  "<em }>",
  "<div on{z}=1>",
  '<a href="javascript:x()">',
  "</a>",
  "<img src=x onerror=y()>",
  "<script>",
  "</script>",
  "<style>",
  "</style>",
  "<b>",
  "</b>",
  "{",
  "}",
  "{{ name }}",
  "text",
  "&amp;",
  "&#123;",
  "<svg>",
  "<!--[if mso]>",
  "<![endif]-->",
  "<!-- c -->",
  "<table><tr><td>",
  "</td></tr></table>",
  '<p class="{a}" style="color:{b}">',
  '<p data-{x}="1">',
  '"',
  "'",
  "=",
  "<",
  ">",
);
const hostileContent = fc.array(fragment, { maxLength: 25 }).map((parts) => parts.join(""));
const ACTIVE_ELEMENT = /^(?:script|iframe|object|embed|style|svg|form)$/;

describe("hostile content never escapes the allow-list nor breaks a target", () => {
  it("html and mjml keep no active element or handler; react-email always compiles", async () => {
    await fc.assert(
      fc.asyncProperty(hostileContent, async (content) => {
        const template = doc(`<p>start</p>${content}<p>end</p>`);
        const tsx = await render(template, { target: "react-email", dynamicData: { merge_tags: { text: { name: "{}" } } } });
        expect(() => compiles(tsx.output)).not.toThrow();
        const mjml = await render(template, { target: "mjml" });
        const body = mjml.output.slice(mjml.output.indexOf("<mj-body"));
        const { elements, attributes, urls } = markup(body);
        for (const name of elements) expect(name).not.toMatch(ACTIVE_ELEMENT);
        for (const name of attributes) expect(name).not.toMatch(/^on|[{}]/);
        for (const url of urls) expect(url).not.toMatch(/^\s*javascript:/i);
        await expect(render(template, { target: "html" })).resolves.toBeDefined();
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });
});

/** A style attribute's value as a browser gets it: htmlparser2 decodes the references (the real HTML algorithm). */
function attributeAsDecoded(raw: string): string {
  let value = "";
  const parser = new Parser(
    {
      onattribute: (_name, decoded) => {
        value = decoded;
      },
    },
    { decodeEntities: true },
  );
  parser.write(`<p style="${raw}">`);
  parser.end();
  return value;
}

/** What a CSS parser makes of a declaration list: comments out, escapes decoded; then without spaces or controls. */
function cssAsParsed(css: string): string {
  const uncommented = css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "");
  const unescaped = uncommented.replace(/\\([0-9a-f]{1,6})[ \t\n\r\f]?|\\([\s\S])/gi, (_m, hex: string | undefined, ch: string | undefined) =>
    hex === undefined ? (ch === "\n" ? "" : (ch ?? "")) : String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd),
  );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a client skips these inside a scheme
  return unescaped.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
}

const ACTIVE_CSS = /expression\(|javascript:|vbscript:|-moz-binding|behavior:|@import/i;

describe("the style filter judges a style as a client reads it", () => {
  const piece = fc.constantFrom(
    "color:red",
    ";",
    "width:",
    "exp",
    "ression(",
    "/**/",
    "/*",
    "*/",
    "&#106;",
    "&#x6A",
    "&#0000106",
    "&#X65;",
    "java",
    "script:",
    "&colon;",
    "&NewLine;",
    "&Tab;",
    "&lpar;",
    "&semi;",
    "&ast;",
    "url(",
    ")",
    "\\65 ",
    "\\",
    "e",
    "behav",
    "ior:",
    "@imp",
    "ort",
    " ",
    "&#59;",
    "'",
    "&quot;",
    "-moz-",
    "binding",
    "vb",
    "&#10;",
    "data:image/png;base64,AA",
    "x",
  );
  const style = fc.array(piece, { maxLength: 16 }).map((pieces) => pieces.join(""));

  it("keeps nothing active in the decoded form, and claims a removal only when it made one", async () => {
    await fc.assert(
      fc.asyncProperty(style, async (raw) => {
        const result = await render(doc(`<p style="${raw}">x</p>`), { target: "mjml" });
        const kept = /<p style="([^"]*)">x<\/p>/.exec(result.output)?.[1];
        expect(kept).toBeDefined();
        const before = cssAsParsed(attributeAsDecoded(raw));
        const after = cssAsParsed(attributeAsDecoded(kept!));
        expect(after).not.toMatch(ACTIVE_CSS);
        const claimed = result.warnings.some((w) => w.message.includes("a declaration of <p style>"));
        expect(claimed).toBe(ACTIVE_CSS.test(before));
        if (!claimed) expect(after).toBe(before);
      }),
      { numRuns: 1500, seed: 20261126 },
    );
  });

  it("reads references, comments and escapes as a client does", () => {
    expect(cssAsRead("background:url(&#106;avascript:x)")).toBe("background:url(javascript:x)");
    expect(cssAsRead("width:exp/**/ression(x)/* unclosed")).toBe("width:expression(x)");
    expect(cssAsRead("width:\\65 xp\\ression(x)")).toBe("width:expression(x)");
    expect(cssAsRead("font-family:&quot;A&amp;B&quot;")).toBe('font-family:"A&B"');
  });
});

describe("content without a tag", () => {
  it("reads as the parser reads the same text before a tag: one text node, entities and merge tags as written", () => {
    const piece = fc.constantFrom(
      ...["a", "é", " ", "\n", "\u00a0", "&", "&amp;", "&lt;", "&#39;", ">", '"', "'"],
      ...["{{ first_name }}", "{{ nick|'<b>friend</b>' }}", "{{", "}}", "\uE000", "\uE002"],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        const content = new ContentHtml();
        // The same text and an empty element after it goes through the parser.
        const parsed = content.nodes(`${text}<b></b>`);
        expect(content.nodes(text)).toEqual(parsed.slice(0, -1));
      }),
      { numRuns: 500 },
    );
  });
});

describe("rich text read without the parser", () => {
  const same = (text: string) => text;
  const pieces = fc.constantFrom(
    ...[
      "<p>",
      "</p>",
      "<P>",
      "</P>",
      "<strong>",
      "</strong>",
      "<a>",
      "</a>",
      "<li>",
      "</li>",
      "<ul>",
      "</ul>",
      "<h2>",
      "</h2>",
      "<div>",
      "</div>",
      "<span>",
      "</span>",
    ],
    ...["<br>", "</br>", "<br/>", "<img>", "<hr>", "<script>", "</script>", "<style>", "<textarea>", "<title>", "<svg>", "<table>", "<td>", "<form>", "<font>"],
    ...[
      '<a href="https://x.example/?a=1&b=2">',
      '<a HREF="x">',
      '<a href="a>b">',
      '<a href="a<b">',
      "<a href='x'>",
      "<a href=x>",
      "<a href>",
      '<a href="x" href="y">',
    ],
    ...['<span style="color:red" data-merge="first_name">', '<p class="x" >', "<p >", "< p>", "<3", "<!-- c -->", "<!x>", "</ p>", "</p >"],
    ...["text", " ", "\n", "\t", "&amp;", "&", ">", "<", '"', "\uE002", "é"],
  );
  const readBoth = (html: string) => ({ simple: readSimpleMarkup(html, same), parsed: readWithParser(html, same).nodes });

  it("reads every tag's attributes from its first, whatever the text before it left off", () => {
    // A tag read up to a repeated attribute leaves the reader to the parser; the next text starts afresh.
    expect(readSimpleMarkup('<a href="https://x.example/a" href="y">t</a>', same)).toBeUndefined();
    const html = '<p class="lead"><a href="https://x.example/a" title="t">a</a><a title="u" href="/b">b</a></p>';
    expect(readSimpleMarkup(html, same)).toEqual(readWithParser(html, same).nodes);
  });

  it("gives what htmlparser2 gives wherever it reads the markup itself", () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 14 }), (list) => {
        const { simple, parsed } = readBoth(list.join(""));
        if (simple !== undefined) expect(simple).toEqual(parsed);
      }),
      { numRuns: 3000 },
    );
  });

  it("reads an editor's nested rich text itself, as htmlparser2 reads it", () => {
    const inline = ["strong", "em", "b", "i", "u", "s", "span", "code", "sup", "sub", "mark", "small", "a"];
    const attributes = fc.constantFrom(
      ...["", ' href="https://example.com/?a=1&amp;b=2"', ' style="color:#333; font-weight:700"', ' class="x" data-merge="first_name"'],
      ...[' target="_blank" rel="noopener"', ' HREF="https://example.com/"', ' Style="color:red"', ' title="a > b"'],
    );
    const text = fc.constantFrom("Hello", " world ", "{{ first_name }}", "&nbsp;", "a > b", "\n", "é 😀");
    const tree: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        text,
        fc.constant("<br>"),
        fc
          .tuple(fc.constantFrom(...inline), fc.boolean(), attributes, fc.array(tie("node"), { maxLength: 3 }))
          .map(([name, upper, attrs, children]) => `<${upper ? name.toUpperCase() : name}${attrs}>${children.join("")}</${name}>`),
      ),
    })).node;
    const block = fc
      .tuple(fc.constantFrom("p", "h1", "h3", "div", "blockquote"), attributes, fc.array(tree, { maxLength: 4 }))
      .map(([name, attrs, children]) => `<${name}${attrs}>${children.join("")}</${name}>`);
    const list = fc.array(tree, { minLength: 1, maxLength: 3 }).map((items) => `<ul>${items.map((item) => `<li>${item}</li>`).join("")}</ul>`);
    fc.assert(
      fc.property(fc.array(fc.oneof(block, list, tree), { maxLength: 4 }), (parts) => {
        const html = parts.join("");
        const { simple, parsed } = readBoth(html);
        // Nested links are the one thing an editor's tree can hold that the parser reads otherwise.
        if (!/<a[ >][\s\S]*<a[ >]/i.test(html)) expect(simple, html).toBeDefined();
        if (simple !== undefined) expect(simple).toEqual(parsed);
      }),
      { numRuns: 1500 },
    );
  });
});
