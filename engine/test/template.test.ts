import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TEMPLATE_DOCS_PATH, TEMPLATE_SCHEMA_PATH, templateDocsText, templateJsonSchemaText } from "../scripts/template-schema.js";
import { parseTemplate } from "../src/document/parse.js";
import { ENGINE_VERSION, inspectTemplate, prepareTemplate, render, validateTemplate } from "../src/index.js";
import { CSS_COLOR_NAMES } from "../src/schema/color-names.js";
import { CSS_COLOR_PATTERN } from "../src/schema/common.js";

const doc = (rows: unknown[], extra: Record<string, unknown> = {}) => ({
  template_id: "t",
  template_name: "T",
  schema_version: "1.0",
  canvas: {},
  rows,
  ...extra,
});
const component = (componentType: string, props: Record<string, unknown> = {}) => ({ type: "component", componentType, props });
const row = (...children: unknown[]) => ({ type: "row", columns: [{ width: 100, children }] });

describe("template reading", () => {
  it("reports every missing top-level key at once", () => {
    const result = validateTemplate({ rows: [] });
    expect(result.valid).toBe(false);
    expect(result.issues.map((i) => [i.loc.join("."), i.type])).toEqual([
      ["template_id", "missing"],
      ["template_name", "missing"],
      ["canvas", "missing"],
      ["schema_version", "missing"],
    ]);
  });

  it("accepts any minor version and rejects a newer major", () => {
    expect(validateTemplate(doc([], { schema_version: "1.7" })).valid).toBe(true);
    const result = validateTemplate(doc([], { schema_version: "2.0" }));
    expect(result.issues).toEqual([expect.objectContaining({ loc: ["schema_version"], msg: expect.stringContaining("Unsupported schema_version") })]);
  });

  it("fills implicit defaults, so a document of non-default fields is complete", () => {
    const { template } = parseTemplate(doc([row(component("heading"))]));
    expect(template?.canvas).toMatchObject({
      width: 600,
      backgroundColor: "#ffffff",
      preheaderText: "View this email in your browser",
      mobileBreakpoint: 600,
      language: "en-US",
    });
    const first = template?.rows[0];
    expect(first?.kind === "row" && first.style).toMatchObject({ gap: 12, mobileStack: true, backgroundColor: "#ffffff" });
    const block = first?.kind === "row" ? first.columns[0]?.children[0] : undefined;
    expect(block?.kind === "component" && block.props).toMatchObject({ level: "h2", fontSize: 32, lineHeight: 1.2, fontWeight: "bold", padding: { top: 0 } });
  });

  it("reads legacy component and column shapes", () => {
    const legacy = doc([{ columns: [{ width: 100, components: [{ id: "x", type: "heading", props: { level: 3, content: "Hi" } }] }] }]);
    const { template, issues } = parseTemplate(legacy);
    expect(issues).toEqual([]);
    const first = template?.rows[0];
    const block = first?.kind === "row" ? first.columns[0]?.children[0] : undefined;
    expect(block).toMatchObject({ kind: "component", block: "heading", props: { level: "h3" } });
  });

  it("points an invalid prop at its exact path", () => {
    const bad = doc([
      { type: "row", columns: [{ children: [] }, { children: [component("paragraph"), component("spacer"), component("heading", { level: "h7" })] }] },
    ]);
    const result = validateTemplate(bad);
    expect(result.issues).toEqual([{ loc: ["rows", "0", "columns", "1", "children", "2", "props", "level"], msg: expect.any(String), type: "literal_error" }]);
  });

  it("accepts CSS values in their grammar, and refuses anything that could leave the declaration", () => {
    const valid = doc(
      [
        {
          type: "row",
          backgroundImage: "https://e.com/a.png",
          backgroundSize: "50% auto",
          backgroundPosition: "left 10px top",
          backgroundRepeat: "repeat-x",
          columns: [
            {
              width: 100,
              children: [
                component("paragraph", { fontFamily: "'Open Sans', \"Helvetica Neue\", sans-serif", fontWeight: 600 }),
                component("button", { fontFamily: "Georgia, serif", fontWeight: "bolder" }),
              ],
            },
          ],
        },
      ],
      {
        canvas: {
          bodyBackgroundImage: "https://e.com/b.png",
          bodyBackgroundSize: "contain",
          bodyBackgroundPosition: "center",
          bodyBackgroundRepeat: "no-repeat",
        },
      },
    );
    expect(validateTemplate(valid).issues).toEqual([]);
    const breakout = "x;}</style><script>alert(1)</script>";
    const hostile = doc(
      [
        {
          type: "row",
          backgroundSize: "cover;color:red",
          backgroundPosition: breakout,
          backgroundRepeat: "no-repeat}",
          columns: [
            {
              width: 100,
              children: [
                component("heading", { fontFamily: `Arial${escape}`, fontWeight: "bold;color:red" }),
                component("button", { fontFamily: "url(x)", fontWeight: 1001 }),
              ],
            },
          ],
        },
      ],
      { canvas: { bodyBackgroundSize: "<b>", bodyBackgroundPosition: "center\\", bodyBackgroundRepeat: "repeat;" } },
    );
    const block = (i: number, key: string) => `rows.0.columns.0.children.${i}.props.${key}`;
    expect(
      validateTemplate(hostile)
        .issues.map((issue) => issue.loc.join("."))
        .sort(),
    ).toEqual(
      [
        "canvas.bodyBackgroundSize",
        "canvas.bodyBackgroundPosition",
        "canvas.bodyBackgroundRepeat",
        "rows.0.backgroundSize",
        "rows.0.backgroundPosition",
        "rows.0.backgroundRepeat",
        block(0, "fontFamily"),
        block(0, "fontWeight"),
        block(1, "fontFamily"),
        block(1, "fontWeight"),
      ].sort(),
    );
  });

  it("encodes a template-authored background image URL so it cannot leave url('…') or close <style>", async () => {
    const evil = "https://e.com/a.png');}</style><script>alert(1)</script>{x";
    const template = doc([{ type: "row", backgroundImage: evil, columns: [{ width: 100, children: [] }] }], { canvas: { bodyBackgroundImage: evil } });
    for (const target of ["html", "mjml", "react-email"] as const) {
      const { output } = await render(template, { target, minify: false });
      expect(output, target).not.toContain("<script");
      expect(output, target).toContain("https://e.com/a.png%27%29;%7D%3C/style%3E%3Cscript%3Ealert%281%29%3C/script%3E%7Bx");
    }
  });

  it("limits nesting to 5 levels and names the path", () => {
    let inner: unknown = row(component("spacer"));
    for (let i = 0; i < 5; i++) inner = row(inner);
    const result = validateTemplate(doc([inner]));
    expect(result.valid).toBe(false);
    expect(result.issues[0]).toMatchObject({ type: "nesting_too_deep" });
    expect(result.issues[0]?.loc.filter((part) => part === "columns")).toHaveLength(5);
  });

  it("warns about, and skips, unknown block types and empty spacers", async () => {
    const t = doc([row(component("carousel")), { type: "row-spacer", height: 0 }]);
    const result = await render(t, { target: "mjml" });
    expect(result.warnings.map((w) => [w.code, w.path.join(".")])).toEqual([
      ["UNKNOWN_BLOCK_TYPE", "rows.0.columns.0.children.0"],
      ["EMPTY_ROW_SPACER", "rows.1"],
    ]);
  });

  it("rejects an unknown visibility operator with the rule's path", () => {
    const t = doc([{ type: "row", visibility: { enabled: true, rules: [{ tag: "a", operator: "like", value: "x" }] }, columns: [] }]);
    expect(validateTemplate(t).issues).toEqual([
      expect.objectContaining({ loc: ["rows", "0", "visibility", "rules", "0", "operator"], type: "literal_error" }),
    ]);
  });
});

describe("inspectTemplate", () => {
  it("lists merge tags with positions and defaults, and context keys", () => {
    const t = doc([
      {
        ...row(component("paragraph", { content: '<p>{{ first_name|"there" }} <a href="{{url.cta}}">x</a></p>' })),
        visibility: { enabled: true, rules: [{ tag: "plan", operator: "==", value: "pro" }] },
      },
      row({
        ...component("image", {
          alt: "{{ attr.alt }}",
          src: "https://e.com/{{id}}.png",
          visibility: { enabled: true, groups: [{ rules: [{ tag: "Country", operator: "in", value: "fr" }] }] },
        }),
      }),
    ]);
    const result = inspectTemplate(t);
    expect(result.contextKeys).toEqual(["plan", "Country"]);
    expect(result.mergeTags).toEqual([
      { name: "first_name", group: null, reads: "text", positions: ["text"], default: "there" },
      { name: "cta", group: "url", reads: "url", positions: ["url"], default: null },
      { name: "id", group: null, reads: "url", positions: ["url-part"], default: null },
      { name: "alt", group: "attr", reads: "attr", positions: ["attr"], default: null },
    ]);
  });
});

describe("cache", () => {
  it("gives each recipient their own values and visible set from one cached compile", async () => {
    const t = doc([
      row(component("paragraph", { content: "<p>Hi {{name}}</p>" })),
      { ...row(component("paragraph", { content: "<p>Pro only</p>" })), visibility: { enabled: true, rules: [{ tag: "plan", operator: "==", value: "pro" }] } },
    ]);
    const a = await render(t, { target: "html", dynamicData: { merge_tags: { text: { name: "Ann" } }, context: { plan: "pro" } } });
    const b = await render(t, { target: "html", dynamicData: { merge_tags: { text: { name: "Bob" } }, context: { plan: "free" } } });
    const a2 = await render(structuredClone(t), { target: "html", dynamicData: { merge_tags: { text: { name: "Ann" } }, context: { plan: "pro" } } });
    expect(a.output).toContain("Hi Ann");
    expect(a.output).toContain("Pro only");
    expect(b.output).toContain("Hi Bob");
    expect(b.output).not.toContain("Pro only");
    expect(a2.output).toBe(a.output);
  });
});

describe("prepareTemplate", () => {
  it("renders like the JSON it was made from, and later changes to that JSON do not reach it", async () => {
    const json = doc([row(component("paragraph", { content: "<p>Hi {{name}}</p>" }))]);
    const prepared = prepareTemplate(json);
    const data = { merge_tags: { text: { name: "Ann" } } };
    const before = await render(json, { target: "html", dynamicData: data });
    json.rows.length = 0;
    expect((await render(prepared, { target: "html", dynamicData: data })).output).toBe(before.output);
    expect(validateTemplate(prepared).valid).toBe(true);
    expect(inspectTemplate(prepared).mergeTags.map((t) => t.name)).toEqual(["name"]);
  });
  it("turns a value JSON cannot carry (a cycle) into RENDER_ERROR, not a crash", async () => {
    const cyclic: Record<string, unknown> = doc([]);
    cyclic["self"] = cyclic;
    await expect(render(cyclic, { target: "html" })).rejects.toMatchObject({
      code: "RENDER_ERROR",
      issues: [expect.objectContaining({ type: "json_invalid" })],
    });
    expect(validateTemplate(cyclic)).toMatchObject({ valid: false, issues: [expect.objectContaining({ type: "json_invalid" })] });
    expect(inspectTemplate(cyclic).valid).toBe(false);
    // A cycle through a row: JSON.stringify's own reason for the whole template, not a piece's.
    const inRow: Record<string, unknown> = doc([row(component("paragraph", { content: "<p>a</p>" }))]);
    (inRow["rows"] as Record<string, unknown>[])[0]!["back"] = inRow;
    const reason = (() => {
      try {
        return JSON.stringify(inRow);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    await expect(render(inRow, { target: "html" })).rejects.toMatchObject({ message: `Invalid template: not representable as JSON (${reason})` });
  });
  it("carries validation failures to render", async () => {
    await expect(render(prepareTemplate({ rows: [] }), { target: "html" })).rejects.toMatchObject({ code: "RENDER_ERROR" });
  });
});

describe("published contracts", () => {
  it("spec/template/v1/template.schema.json is generated from the zod schema (run make spec)", () => {
    expect(readFileSync(TEMPLATE_SCHEMA_PATH, "utf8")).toBe(templateJsonSchemaText());
  });
  it("spec/template.md's per-block props tables are generated from the block registry (run make spec)", () => {
    expect(readFileSync(TEMPLATE_DOCS_PATH, "utf8")).toBe(templateDocsText());
  });
  it("ENGINE_VERSION matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(ENGINE_VERSION).toBe(pkg.version);
  });
});

describe("the colour pattern", () => {
  it("tests exactly what its expression (the spec's pattern) matches", () => {
    const pattern = CSS_COLOR_PATTERN;
    const expression = new RegExp(pattern.source, pattern.flags);
    const names = CSS_COLOR_NAMES.flatMap((name) => [name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1), ` ${name}`, `${name}x`]);
    const special = [
      "",
      "#fff",
      "#FFFF",
      "#abcde",
      "#12345678",
      "#1234567",
      "rgb(1,2,3)",
      "RGBA( 1 , 2 , 3 , .5 )",
      "rgb(1,2,3,1)",
      "rgba(1,2)",
      "rgb(1,2,3)\n",
      "red\n",
    ];
    // Letters that change case outside ASCII: Kelvin sign, long s, dotted capital I, sharp s.
    const unicode = ["blac\u212a", "\u017fienna", "\u0130ndigo", "whi\u00dfe", "gr\u00e9y"];
    const random = fc.sample(fc.string({ unit: fc.constantFrom(..."#0123456789abcdefABCDEFrgbaRGBA(),. \n\u212a\u017fxyz".split("")), maxLength: 24 }), {
      numRuns: 5000,
      seed: 7,
    });
    for (const value of [...names, ...special, ...unicode, ...random]) expect(pattern.test(value), JSON.stringify(value)).toBe(expression.test(value));
  });
});
