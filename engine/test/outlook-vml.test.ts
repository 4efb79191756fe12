/**
 * Outlook on Windows (Word) reads the html target through its conditional comments: what is in
 * `<!--[if mso]>` is markup to it, what is in `<!--[if !mso]><!-->…<!--<![endif]-->` is not. For
 * every fixture with a row gradient or a rounded or gradient button, the document as Outlook reads
 * it must nest (every element closed, in order, as XML requires), and its VML must draw what the
 * other readers see: a row's gradient from its first to its last stop at its angle, over an
 * unpainted section; a button's link, label, colours and corners.
 */
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render, validateTemplate } from "../src/index.js";
import { parseColor } from "../src/schema/color-values.js";

const VOID = new Set(["area", "base", "br", "col", "hr", "img", "input", "link", "meta", "wbr"]);

interface Element {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: Array<Element | string>;
}

/** The markup Outlook reads: its conditional comments opened, the parts hidden from it left out. */
function outlookView(html: string): string {
  return html
    .replace(/<!--\[if !mso(?: \| IE)?\]><!-->[\s\S]*?<!--<!\[endif\]-->/g, "")
    .replace(/<!--\[if (?:mso(?: \| IE)?|(?:gte|lte) mso \d+)\]>([\s\S]*?)<!\[endif\]-->/g, "$1")
    .replace(/<!--[\s\S]*?-->/g, "");
}

/** The markup every other reader reads: every comment is one. */
function browserView(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, "");
}

function attributes(source: string): Record<string, string> {
  return Object.fromEntries([...source.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
}

/** The body as a tree, refusing any element closed out of order or left open (XML's nesting; HTML's void elements aside). */
function parseStrict(markup: string): Element {
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(markup)?.[1] ?? "";
  const root: Element = { name: "body", attrs: {}, children: [] };
  const stack: Element[] = [root];
  let last = 0;
  for (const tag of body.matchAll(/<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*(\/?)>/g)) {
    const top = stack[stack.length - 1]!;
    const text = body.slice(last, tag.index);
    if (text.trim()) top.children.push(text);
    last = tag.index + tag[0].length;
    const [, closing, rawName, attrSource, selfClosing] = tag;
    const name = rawName!.toLowerCase();
    if (closing) {
      if (top.name !== name)
        throw new Error(`</${name}> closes <${top.name}> near ${JSON.stringify(body.slice(Math.max(0, tag.index - 120), tag.index + 20))}`);
      stack.pop();
      continue;
    }
    const element: Element = { name, attrs: attributes(attrSource ?? ""), children: [] };
    top.children.push(element);
    if (!selfClosing && !VOID.has(name)) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  return root;
}

function* walk(element: Element): Generator<Element> {
  yield element;
  for (const child of element.children) if (typeof child !== "string") yield* walk(child);
}

function find(root: Element, name: string): Element[] {
  return [...walk(root)].filter((e) => e.name === name);
}

function text(element: Element): string {
  return element.children
    .map((c) => (typeof c === "string" ? c : text(c)))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function style(element: Element): Record<string, string> {
  return Object.fromEntries(
    (element.attrs["style"] ?? "")
      .split(";")
      .map((d) => d.split(":").map((s) => s.trim()))
      .filter((d) => d.length >= 2)
      .map(([k, ...v]) => [k!.toLowerCase(), v.join(":")]),
  );
}

/** Opaque colours equal (VML has no alpha). */
function sameRgb(a: string | undefined, b: string | undefined): boolean {
  const [x, y] = [parseColor(a ?? ""), parseColor(b ?? "")];
  return x !== undefined && y !== undefined && x.r === y.r && x.g === y.g && x.b === y.b;
}

/** A CSS linear gradient's first and last stop colours and its angle in VML's terms (counter-clockwise, 0 = first colour at the bottom). */
function cssLinearGradient(css: string): { first: string; last: string; vmlAngle: number } | undefined {
  const inner = /linear-gradient\((.*)\)/.exec(css)?.[1];
  if (inner === undefined) return undefined;
  const args = inner.split(/,(?![^(]*\))/).map((a) => a.trim());
  const sides: Record<string, number> = {
    "to top": 0,
    "to top right": 45,
    "to right": 90,
    "to bottom right": 135,
    "to bottom": 180,
    "to bottom left": 225,
    "to left": 270,
    "to top left": 315,
  };
  const direction = args[0]!;
  const degrees = /^(-?[\d.]+)deg$/.exec(direction)?.[1];
  const cssAngle = sides[direction] ?? (degrees === undefined ? undefined : Number(degrees));
  const stops = (cssAngle === undefined ? args : args.slice(1)).map((s) => s.split(/\s+(?![^(]*\))/)[0]!);
  return { first: stops[0]!, last: stops[stops.length - 1]!, vmlAngle: (360 - ((cssAngle ?? 180) % 360)) % 360 };
}

/** The declarations of the class rules of a stylesheet, by selector. */
function cssRules(html: string): Map<string, Record<string, string>> {
  const rules = new Map<string, Record<string, string>>();
  for (const sheet of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g))
    for (const rule of sheet[1]!.matchAll(/([^{}]+)\{([^{}]*)\}/g))
      for (const selector of rule[1]!.split(","))
        rules.set(selector.trim(), {
          ...rules.get(selector.trim()),
          ...Object.fromEntries(
            rule[2]!
              .split(";")
              .map((d) => d.split(":"))
              .filter((d) => d.length >= 2)
              .map(([k, ...v]) => [k!.trim(), v.join(":").replace("!important", "").trim()]),
          ),
        });
  return rules;
}

function expectVmlGradient(fill: Element | undefined, css: string | undefined): void {
  const gradient = cssLinearGradient(css ?? "");
  expect(gradient, `a linear gradient in ${css}`).toBeDefined();
  expect(fill?.attrs["type"]).toBe("gradient");
  expect(sameRgb(fill?.attrs["color"], gradient!.first), `${fill?.attrs["color"]} = ${gradient!.first}`).toBe(true);
  expect(sameRgb(fill?.attrs["color2"], gradient!.last), `${fill?.attrs["color2"]} = ${gradient!.last}`).toBe(true);
  expect(Number(fill?.attrs["angle"] ?? 0)).toBe(gradient!.vmlAngle);
}

/** The HTML button each `v:roundrect` stands for: the `[if !mso]` part right after it. */
function hiddenButtons(html: string): Element[] {
  return [...html.matchAll(/<v:roundrect[\s\S]*?<\/v:roundrect>(?:<\/td><\/tr>)?<!\[endif\]-->\s*<!--\[if !mso\]><!-->([\s\S]*?)<!--<!\[endif\]-->/g)].map(
    (m) => parseStrict(`<body>${browserView(m[1]!)}</body>`),
  );
}

const cases = await Promise.all(
  listCases("render").map(async (c) => {
    const { output } = await render(c.template, { target: "html", dynamicData: c.dynamicData, minify: false, strict: c.strict });
    return { name: c.name, html: output };
  }),
);
const withVml = cases.filter((c) => /linear-gradient|border-radius:[1-9]/.test(c.html));

/** What Word's table model lets a table and a row hold (the html has no <tbody>). */
const TABLE_CHILDREN: Record<string, readonly string[]> = { table: ["tr"], tr: ["td", "th"] };

describe("the html target as Outlook on Windows reads it", () => {
  it("covers the fixtures with gradients and rounded buttons", () => {
    expect(withVml.map((c) => c.name)).toEqual(expect.arrayContaining(["block-button", "editor-gradients", "layout-row-gradient", "dark-mode-colors"]));
  });

  it.each(withVml.map((c) => [c.name, c.html] as const))("%s", (_name, html) => {
    const outlook = parseStrict(outlookView(html));
    const rules = cssRules(html);

    // Tables as Word reads them: rows in tables, cells in rows (a table straight in a table is dropped or misplaced).
    for (const element of walk(outlook)) {
      const children = element.children.filter((c): c is Element => typeof c !== "string").map((c) => c.name);
      const allowed = TABLE_CHILDREN[element.name];
      if (allowed !== undefined)
        expect(
          children.filter((n) => !allowed.includes(n)),
          `a ${element.name}'s children`,
        ).toEqual([]);
    }

    // Rows: each over a gradient its stylesheet draws for the others, nothing painted over it.
    const rects = find(outlook, "v:rect").filter((r) => find(r, "v:fill")[0]?.attrs["type"] === "gradient");
    const gradientRows = [...rules].filter(([selector, d]) => /^\.mr-r\d+(?: td)?$/.test(selector) && d["background-image"]?.startsWith("linear-gradient"));
    expect(rects.length).toBe(gradientRows.length);
    for (const rect of rects) {
      const section = find(rect, "div").find((d) => /\bmr-r\d+\b/.test(d.attrs["class"] ?? ""))!;
      const uid = /\bmr-r\d+\b/.exec(section.attrs["class"]!)![0];
      expectVmlGradient(find(rect, "v:fill")[0], (rules.get(`.${uid} td`) ?? rules.get(`.${uid}`))?.["background-image"]);
      expect(style(section)["background"]).toBeUndefined();
      expect(find(rect, "table").filter((t) => t.attrs["bgcolor"] !== undefined && (t.attrs["class"] ?? "").includes(`${uid}-outlook`))).toEqual([]);
      expect(find(rect, "v:textbox")).toHaveLength(1);
    }

    // Buttons: each rounded or gradient one drawn again, the same, and only for Outlook.
    const roundRects = find(outlook, "v:roundrect");
    const buttons = hiddenButtons(html);
    expect(buttons).toHaveLength(roundRects.length);
    // What Outlook reads of the HTML buttons: square ones only (or ones it never shows, hidden on desktops).
    for (const [a, ancestors] of withAncestors(outlook))
      if (a.name === "a" && style(a)["display"] === "inline-block" && parseFloat(style(a)["border-radius"] ?? "0") > 0)
        expect(
          ancestors.some((e) => /\bmr-hide-desktop\b/.test(e.attrs["class"] ?? "")),
          `a rounded HTML button in Outlook: ${a.attrs["href"]}`,
        ).toBe(true);
    roundRects.forEach((vml, i) => {
      const button = buttons[i]!;
      // Without a link, mjml writes the label in a <p> (and the VML has no href either).
      const link = find(button, "a")[0] ?? find(button, "p")[0]!;
      const cell = find(button, "td").find((td) => td.attrs["bgcolor"] !== undefined || style(td)["background-color"] !== undefined)!;
      const center = find(vml, "center")[0]!;
      expect(vml.attrs["href"]).toBe(link.attrs["href"]);
      expect(text(center)).toBe(text(link));
      expect(sameRgb(style(center)["color"], style(link)["color"])).toBe(true);
      expect(style(center)["font-size"]).toBe(style(link)["font-size"]);
      const radius = parseFloat(style(link)["border-radius"]!);
      const [width, height] = [parseFloat(style(vml)["width"]!), parseFloat(style(vml)["height"]!)];
      expect(vml.attrs["arcsize"]).toBe(`${Math.min(50, Math.round((radius / Math.min(width, height)) * 100))}%`);
      const border = /^(\d+)px \w+ (.+)$/.exec(style(cell)["border"] ?? "");
      if (border) {
        expect(sameRgb(vml.attrs["strokecolor"], border[2])).toBe(true);
        expect(vml.attrs["strokeweight"]).toBe(`${border[1]}px`);
      } else expect(vml.attrs["stroked"]).toBe("f");
      // A gradient is inline (nested rows) or drawn by the button's class (`.mr-bN td{background-image:…}`).
      const gradient =
        style(cell)["background-image"] ??
        [...walk(button)]
          .flatMap((e) => (e.attrs["class"] ?? "").split(" "))
          .map((c) => rules.get(`.${c} td`)?.["background-image"])
          .find((g) => g !== undefined);
      const fill = find(vml, "v:fill")[0];
      if (gradient?.startsWith("linear-gradient")) expectVmlGradient(fill, gradient);
      else {
        expect(fill).toBeUndefined();
        expect(sameRgb(vml.attrs["fillcolor"], cell.attrs["bgcolor"] ?? style(cell)["background-color"])).toBe(true);
      }
    });
  });
});

function* withAncestors(element: Element, ancestors: Element[] = []): Generator<[Element, Element[]]> {
  yield [element, ancestors];
  for (const child of element.children) if (typeof child !== "string") yield* withAncestors(child, [...ancestors, element]);
}

describe("mail-client checks and Outlook's VML", () => {
  const doc = (children: object[], rowProps: object = {}) => ({
    template_id: "t",
    template_name: "T",
    schema_version: "1.0",
    canvas: {},
    rows: [{ type: "row", ...rowProps, columns: [{ width: 100, children }] }],
  });
  const linear = (direction: string) => ({
    useGradient: true,
    gradient: { type: direction === "circle" ? "radial" : "linear", direction, colors: [{ color: "#1e3a8a" }, { color: "#1d4ed8" }] },
  });
  const button = (props: object) => ({ type: "component", componentType: "button", props: { text: "Go", link: "https://e.com", ...props } });
  /** Each finding's path and the clients it names for each feature, for Outlook only. */
  const outlookFindings = (template: object) =>
    validateTemplate(template, { clients: ["outlook"] })
      .findings.filter((f) => f.code === "CLIENT_UNSUPPORTED")
      .map((f) => [f.path.join("/"), f.message] as const);

  it("a linear gradient or rounded corners drawn in VML are no finding for Outlook for Windows; what it lacks still is", () => {
    const findings = outlookFindings(
      doc(
        [
          button({ borderRadius: 8 }),
          button({ backgroundGradient: linear("to right") }),
          { type: "component", componentType: "image", props: { src: "https://e.com/a.png", alt: "A", borderRadius: 12 } },
        ],
        { backgroundGradient: linear("to bottom") },
      ),
    );
    expect(findings.map(([path]) => path)).toEqual(["rows/0/columns/0/children/2"]);
    expect(findings[0]![1]).toContain("border-radius not in outlook (windows, windows-mail)");
  });

  it("a radial gradient, which the VML does not draw, is still reported for Outlook for Windows", () => {
    const findings = outlookFindings(doc([], { backgroundGradient: linear("circle") }));
    expect(findings.map(([path]) => path)).toEqual(["rows/0"]);
    expect(findings[0]![1]).toMatch(/background-image[^;]*not in outlook \([^)]*windows/);
  });
});
