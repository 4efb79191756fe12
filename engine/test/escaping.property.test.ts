/**
 * Property: no merge-tag value can inject markup, an attribute or a script URL into any target.
 * For ≥ 1,000 generated hostile values, the output's structure (elements, attribute names, and
 * for react-email the JSX tree) is identical to the structure with a harmless value, and no URL
 * attribute starts with a script scheme.
 */

import { transformSync } from "esbuild";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../src/data/escape.js";
import { type DynamicData, type RenderTarget, render } from "../src/index.js";

const template = {
  template_id: "escaping",
  template_name: "Hi {{ name }}",
  schema_version: "1.0",
  canvas: { preheaderText: "For {{name}}" },
  rows: [
    {
      id: "r",
      columns: [
        {
          id: "c",
          width: 100,
          children: [
            {
              id: "p",
              type: "component",
              componentType: "paragraph",
              props: {
                content: '<p title="{{attr.name}}">Hello {{ name }} <a href="{{url.link}}">go</a> <a href="https://example.com/?q={{ name }}">search</a></p>',
              },
            },
            { id: "b", type: "component", componentType: "button", props: { text: "{{name}}", link: "{{ url.link }}" } },
            {
              id: "i",
              type: "component",
              componentType: "image",
              props: { src: "{{url.link}}", alt: "{{ name }}", link: "https://example.com/p/{{name}}", enabled: true },
            },
            { id: "m", type: "component", componentType: "menu", props: { items: [{ label: "{{name}}", link: "{{url.link}}" }] } },
            { id: "v", type: "component", componentType: "video", props: { coverImage: "{{url.link}}", src: "{{url.link}}", alt: "{{name}}" } },
          ],
        },
      ],
    },
  ],
};

const hostile = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."<>\"'&{}/=;:() \n\tjavascript]]>!-`\\x".split("")), maxLength: 40 }),
  fc.constantFrom(
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)",
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "java\nscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "{alert(1)}",
    "}]]><mj-raw><script>",
    "</mj-text><mj-raw>x</mj-raw>",
    'https://ok.example/" onclick="x',
    "&amp;&lt;",
  ),
  fc.string(),
);

type Shape = string[];

/** Elements and attribute names in document order, and every URL attribute value. */
function markupShape(html: string): { shape: Shape; urls: string[] } {
  const shape: Shape = [];
  const urls: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        shape.push(`<${name} ${Object.keys(attribs).sort().join(" ")}>`);
        for (const key of ["href", "src", "background"]) if (attribs[key] !== undefined) urls.push(attribs[key]);
      },
      onclosetag(name) {
        shape.push(`</${name}>`);
      },
    },
    { decodeEntities: true, xmlMode: false },
  );
  parser.write(html);
  parser.end();
  return { shape, urls };
}

/** The JSX tree (types and prop names) and every URL prop, by evaluating the compiled module. */
function jsxShape(tsx: string): { shape: Shape; urls: string[] } {
  const body = tsx.replace(/^import .*$/m, "").replace("export default function", "return function");
  const { code } = transformSync(body, { loader: "tsx", jsx: "transform", jsxFactory: "h" });
  const shape: Shape = [];
  const urls: string[] = [];
  const names = ["Body", "Button", "Column", "Container", "Head", "Heading", "Hr", "Html", "Img", "Link", "Preview", "Row", "Section", "Text"];
  const h = (type: string, props: Record<string, unknown> | null, ...children: unknown[]) => ({ type, props: props ?? {}, children });
  type El = ReturnType<typeof h>;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const component = new Function("h", ...names, code)(h, ...names) as () => El;
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== "object" || node === null) return;
    const el = node as El;
    shape.push(`<${el.type} ${Object.keys(el.props).sort().join(" ")}>`);
    for (const key of ["href", "src", "background"]) if (typeof el.props[key] === "string") urls.push(el.props[key] as string);
    el.children.forEach(walk);
    shape.push(`</${el.type}>`);
  };
  walk(component());
  return { shape, urls };
}

const SCRIPT_SCHEME = /^\s*(javascript|vbscript|data):/i;

async function shapeOf(target: RenderTarget, data: DynamicData) {
  const { output } = await render(template, { target, dynamicData: data });
  return target === "react-email" ? jsxShape(output) : markupShape(output);
}

describe("merge-tag values cannot inject into any target", () => {
  for (const target of ["html", "mjml", "react-email"] as const) {
    it(`${target}: 1,000 hostile values keep the document's structure`, async () => {
      const harmless = await shapeOf(target, { merge_tags: { text: { name: "x" }, url: { link: "https://example.com/" }, attr: { name: "x" } } });
      await fc.assert(
        fc.asyncProperty(hostile, hostile, async (name, link) => {
          const result = await shapeOf(target, { merge_tags: { text: { name }, url: { link }, attr: { name } } });
          expect(result.shape).toEqual(harmless.shape);
          for (const url of result.urls) expect(url).not.toMatch(SCRIPT_SCHEME);
        }),
        { numRuns: 1000, seed: 20261122 },
      );
    });
  }
});

describe("escapeHtml", () => {
  const reference = (value: string) => value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

  it("escapes each of the five characters, alone or among others, and leaves everything else as it is", () => {
    for (const ch of ["&", "<", ">", '"', "'"]) {
      expect(escapeHtml(ch)).toBe(reference(ch));
      expect(escapeHtml(`a${ch}b`)).toBe(reference(`a${ch}b`));
    }
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", " ", "&", "<", ">", '"', "'", "é", "{") }), (value) => {
        expect(escapeHtml(value)).toBe(reference(value));
      }),
      { numRuns: 1000, seed: 20261127 },
    );
  });
});
