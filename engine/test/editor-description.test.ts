/**
 * The editor description (schema/editor.ts, each block's `editor`, document/editor.ts) is complete
 * and true: a form generated from it covers every prop of every block and of the canvas, rows,
 * columns and row spacers; each field names a prop the schema has, with the schema's default; a
 * field marked for phones is overridden on phones, and of a block's own props the others are not;
 * a field's dark colour is one the node's `dark` object takes.
 */
import { describe, expect, it } from "vitest";
import { BLOCKS } from "../src/blocks/registry.js";
import { CANVAS_EDITOR, COLUMN_EDITOR, editorDescriptions, ROW_EDITOR, ROW_SPACER_EDITOR } from "../src/document/editor.js";
import { canvasObjectSchema, columnStyleSchema, rowSpacerSchema, rowStyleSchema } from "../src/document/schema.js";
import { createEngine } from "../src/engine/engine.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import { VISIBILITY_OPERATORS } from "../src/schema/common.js";
import type { EditorDescription, Field } from "../src/schema/editor.js";
import { fieldsOf } from "../src/schema/editor.js";
import { SHARED_PHONE_KEYS } from "../src/targets/responsive.js";

const engine = createEngine({ host: NODE_HOST });

/** A schema's top-level keys, as parsing an empty object gives them, and a field list's props. */
const keysOf = (schema: { parse(value: unknown): unknown }, extra: object = {}): string[] => Object.keys(schema.parse(extra) as object);
const propsOf = (fields: readonly Field[]): string[] => fields.map((field) => field.prop.split(".")[0]!);

/** Keys that are not fields: phone overrides and dark colours are described on the fields they override. */
const NOT_FIELDS = new Set(["mobile", "dark"]);

function coversEvery(description: EditorDescription, keys: readonly string[]): void {
  const props = propsOf(fieldsOf(description));
  expect(new Set(props).size, `${description.label}: a prop described twice`).toBe(props.length);
  expect([...props].sort(), description.label).toEqual(keys.filter((key) => !NOT_FIELDS.has(key)).sort());
}

describe("the editor description", () => {
  it("describes every prop of every block, once", () => {
    for (const block of Object.values(BLOCKS)) {
      // `visibility`, `dark` and a text block's `direction` are optional: present once given.
      coversEvery(block.editor, keysOf(block.props, { visibility: {}, dark: {}, direction: "rtl" }));
    }
  });

  it("describes every setting of the canvas, rows, columns and row spacers", () => {
    coversEvery(CANVAS_EDITOR, keysOf(canvasObjectSchema(), { dark: {} }));
    coversEvery(ROW_EDITOR, keysOf(rowStyleSchema(), { visibility: {}, name: "", dark: {} }));
    coversEvery(COLUMN_EDITOR, keysOf(columnStyleSchema(), { width: 50, dark: {} }));
    coversEvery(ROW_SPACER_EDITOR, keysOf(rowSpacerSchema(), { visibility: {}, height: 1, dark: {} }));
  });

  it("lists the dark colours each node takes, and each colour field's is one of them", () => {
    for (const block of Object.values(BLOCKS)) {
      const all = { bodyBackgroundColor: "#000", backgroundColor: "#000", color: "#000", linkColor: "#000", borderColor: "#000" };
      const taken = Object.keys((block.props.parse({ dark: all }) as { dark?: object }).dark ?? {});
      expect(block.editor.dark.map((d) => d.key).sort(), block.type).toEqual(taken.sort());
      for (const field of fieldsOf(block.editor)) if (field.dark !== undefined) expect(taken, `${block.type}.${field.prop}`).toContain(field.dark);
    }
  });

  it("marks the props phones override: each such override writes CSS, and a block's other own props do not", async () => {
    const sample: Partial<Record<Field["kind"], unknown>> = {
      number: 10,
      color: "#123456",
      enum: undefined,
      spacing: { top: 3 },
      border: { width: 2 },
      gradient: { useGradient: true, gradient: { colors: [{ color: "#000" }, { color: "#fff" }] } },
      fontFamily: "Georgia",
    };
    for (const block of Object.values(BLOCKS)) {
      for (const field of fieldsOf(block.editor)) {
        const value = field.kind === "enum" ? field.options.at(-1)?.value : sample[field.kind];
        if (value === undefined) continue;
        const doc = {
          template_id: "t",
          template_name: "t",
          schema_version: "1.0",
          canvas: {},
          rows: [{ columns: [{ children: [{ type: "component", componentType: block.type, props: { mobile: { [field.prop]: value } } }] }] }],
        };
        const { output } = await engine.render(doc, { target: "html", minify: false });
        const rules = /@media only screen and \(max-width:600px\)\{\n[^}]*\}\n([\s\S]*?)\n\}/.exec(output)?.[1] ?? "";
        const written = /\.mr-b\d/.test(rules);
        // The keys every block takes write CSS whatever the block (a text alignment on a divider, a
        // per-side padding named like a list's indent): only those marked are offered to an editor.
        if (!field.phone && SHARED_PHONE_KEYS.includes(field.prop)) continue;
        expect(written, `${block.type}: mobile.${field.prop}${field.phone ? " writes nothing" : " writes CSS but is not marked"}`).toBe(field.phone === true);
      }
    }
  });

  it("is JSON, with each field's default from the schema", () => {
    const json = editorDescriptions();
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    const button = json.blocks.find((block) => block.type === "button")!;
    const byProp = new Map(button.groups.flatMap((group) => group.fields).map((field) => [field.prop, field]));
    expect(byProp.get("text")?.default).toBe("Click Me");
    expect(byProp.get("padding")?.default).toEqual({ top: 12, right: 24, bottom: 12, left: 24 });
    expect(byProp.get("backgroundGradient")?.default).toEqual({ useGradient: false });
    const menuItems = json.blocks.find((block) => block.type === "menu")!.groups[0]!.fields[0]!;
    expect(menuItems.fields?.map((f) => [f.prop, f.default])).toEqual([
      ["label", ""],
      ["link", ""],
      ["enabled", true],
    ]);
    expect(json.canvas.groups.flatMap((g) => g.fields).find((f) => f.prop === "width")?.default).toBe(600);
  });

  it("says what a rich text holds, as each block's example holds it, and offers every visibility operator", () => {
    const shapes = { inline: /^[^<]*$/, paragraphs: /^<p>/, list: /^<(ul|ol)>/ };
    for (const block of Object.values(BLOCKS)) {
      for (const field of fieldsOf(block.editor)) {
        if (field.kind === "richText") expect(String(block.example[field.prop]), `${block.type}.${field.prop}`).toMatch(shapes[field.markup]);
        if (field.kind === "visibility") expect(field.operators.map((op) => op.value)).toEqual([...VISIBILITY_OPERATORS]);
      }
    }
  });

  it("gives each block an example that renders without a finding", async () => {
    for (const block of Object.values(BLOCKS)) {
      expect(block.check(block.props.parse(block.example)), block.type).toEqual([]);
      expect(block.props.safeParse(block.example).success, block.type).toBe(true);
    }
  });
});
