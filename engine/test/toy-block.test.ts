/**
 * Adding a block is its folder and one registry line: a toy block defined here, in a registry of
 * this test's own, is read, validated and URL-checked by the reader, rendered by the three targets,
 * read in the plain-text version, painted by dark mode and phone overrides, described by the JSON
 * Schema, the docs and the editor description, and checked by the content checks — with no edit
 * anywhere else. The default engine, without it, leaves it out with a warning.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { defineBlock, finding } from "../src/blocks/block.js";
import { BLOCK_LIST, blockRegistry } from "../src/blocks/registry.js";
import { attrs, htmlClass, jsxClass } from "../src/blocks/shared.js";
import { blockPropsMarkdown } from "../src/document/docs.js";
import { editorDescriptions } from "../src/document/editor.js";
import { templateJsonSchema } from "../src/document/json-schema.js";
import { createEngine } from "../src/engine/engine.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import { linked, textParagraphs } from "../src/markup/html-to-text.js";
import { cssText, jsxStyle } from "../src/markup/style.js";
import { commonBlockFields, defaultedColor, emptyByDefault, mobileOverridesSchema, nonNegative } from "../src/schema/common.js";
import { textDarkSchema } from "../src/schema/dark.js";
import { field, spacingGroup, visibilityGroup } from "../src/schema/editor.js";

/** A label on a coloured pill, linking somewhere. */
const badge = defineBlock({
  type: "badge",
  props: () =>
    z.object({
      label: z._default(z.string(), "New"),
      link: emptyByDefault,
      color: defaultedColor("#ffffff"),
      backgroundColor: defaultedColor("#7c3aed"),
      fontSize: nonNegative(12),
      ...commonBlockFields(),
      mobile: mobileOverridesSchema(),
      dark: textDarkSchema(),
    }),
  editor: () => ({
    label: "Badge",
    description: "A short label on a coloured pill.",
    groups: [
      { id: "content", label: "Content", fields: [field.text("label", "Label"), field.url("link", "Link")] },
      {
        id: "appearance",
        label: "Appearance",
        fields: [
          field.color("color", "Text colour", { phone: true, dark: "color" }),
          field.color("backgroundColor", "Pill colour", { phone: true, dark: "backgroundColor" }),
          field.px("fontSize", "Font size", 8, 24, { phone: true }),
        ],
      },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: [
      { key: "color", label: "Text" },
      { key: "backgroundColor", label: "Pill" },
    ],
  }),
  example: { label: "Sale", link: "https://example.com/sale" },
  mjml: (p, ctx) =>
    `<mj-text${attrs({ "css-class": ctx.className, padding: "0px" })}><a href="${ctx.out.url(p.link)}" style="${cssText(pill(p))}">${ctx.out.text(p.label)}</a></mj-text>`,
  html: (p, ctx) => `<div${htmlClass(ctx.className)}><a href="${ctx.out.url(p.link)}" style="${cssText(pill(p))}">${ctx.out.text(p.label)}</a></div>`,
  jsx: (p, ctx) => `<Section${jsxClass(ctx.className)}><a href="${ctx.out.url(p.link)}" style={${jsxStyle(pill(p))}}>${ctx.out.text(p.label)}</a></Section>`,
  text: (p, values) => textParagraphs(`[${linked(values.text(p.label), values.url(p.link))}]`),
  dark: { background: "& a" },
  phone: { surface: "& a" },
  check: (p) => (p.label.trim() === "" ? [finding("error", "BADGE_LABEL_MISSING", ["label"], p.label, "The badge has no label", "Write its label")] : []),
});

function pill(p: { color: string; backgroundColor: string; fontSize: number }): Array<readonly [string, string]> {
  return [
    ["color", p.color],
    ["background-color", p.backgroundColor],
    ["font-size", `${p.fontSize}px`],
    ["border-radius", "999px"],
    ["padding", "2px 8px"],
  ];
}

const registry = blockRegistry([...BLOCK_LIST, badge]);
const engine = createEngine({ host: NODE_HOST, registry });

const template = (props: Record<string, unknown>) => ({
  template_id: "toy",
  template_name: "Toy",
  schema_version: "1.0",
  canvas: { dark: { backgroundColor: "#111111" } },
  rows: [
    {
      id: "r",
      columns: [{ id: "c", children: [{ id: "b", type: "component", componentType: "badge", props }] }],
    },
  ],
});

const SALE = template({
  label: "Sale {{ percent|'20' }}%",
  link: "https://example.com/sale",
  mobile: { fontSize: 16, backgroundColor: "#000000" },
  dark: { backgroundColor: "#4c1d95" },
});

describe("a block defined in its own folder", () => {
  it("renders in every target, with its dark colours and phone overrides", async () => {
    for (const target of ["html", "mjml", "react-email"] as const) {
      const { output, warnings } = await engine.render(SALE, { target, dynamicData: { merge_tags: { text: { percent: "30" } } } });
      expect(warnings, target).toEqual([]);
      expect(output, target).toContain("Sale 30%");
      expect(output, target).toContain("https://example.com/sale");
      expect(output, target).toMatch(/\.mr-d\d+ a\{background-color:#4c1d95 !important\}/);
      expect(output, target).toMatch(/\.mr-b\d+,\.mr-b\d+ \*\{font-size:16px !important\}/);
      expect(output, target).toMatch(/\.mr-b\d+ a\{background-color:#000000 !important\}/);
    }
  });

  it("reads as its own plain text", async () => {
    const { text } = await engine.render(SALE, { target: "html", plainText: true });
    expect(text).toBe("[Sale 20% (https://example.com/sale)]");
  });

  it("is validated by its schema and its URLs checked by the reader", () => {
    expect(engine.validate(template({ fontSize: -1 })).issues).toEqual([
      {
        loc: ["rows", "0", "columns", "0", "children", "0", "props", "fontSize"],
        msg: "Input should be greater than or equal to 0",
        type: "greater_than_equal",
      },
    ]);
    expect(engine.validate(template({ link: "javascript:alert(1)" })).warnings).toMatchObject([
      { code: "UNSAFE_URL", path: ["rows", "0", "columns", "0", "children", "0", "props", "link"] },
    ]);
  });

  it("has its content checks", () => {
    expect(engine.checkBlocks(template({ label: " " })).findings).toMatchObject([
      { severity: "error", code: "BADGE_LABEL_MISSING", path: ["rows", "0", "columns", "0", "children", "0", "props", "label"] },
    ]);
    expect(engine.checkBlocks(SALE).findings).toEqual([]);
  });

  it("is in the JSON Schema, the docs and the editor description of its registry", () => {
    const schema = templateJsonSchema(registry);
    expect(Object.keys(schema["$defs"] as object)).toContain("BadgeProps");
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(SALE)).toBe(true);
    expect(validate(template({ fontSize: "big" }))).toBe(false);

    expect(blockPropsMarkdown(registry)).toContain("### badge: Badge");
    const described = editorDescriptions(registry).blocks.find((block) => block.type === "badge");
    expect(described?.groups[0]?.fields).toEqual([
      { prop: "label", label: "Label", kind: "text", mergeTags: true, default: "New" },
      { prop: "link", label: "Link", kind: "url", default: "" },
    ]);
  });

  it("is unknown to an engine without it: left out, with a warning", async () => {
    const { output, warnings } = await createEngine({ host: NODE_HOST }).render(SALE, { target: "html" });
    expect(output).not.toContain("Sale");
    expect(warnings).toMatchObject([{ code: "UNKNOWN_BLOCK_TYPE", path: ["rows", "0", "columns", "0", "children", "0"] }]);
  });
});
