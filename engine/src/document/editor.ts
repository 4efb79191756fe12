/**
 * The editor description of a whole document (schema/editor.ts): every block of a registry, and the
 * canvas, rows, columns and row spacers, as one JSON document with each field's default. The
 * studio's visual editor is generated from it; `make spec` writes the per-block tables of
 * spec/template.md from it (docs.ts).
 */
import type * as z from "zod/mini";
import { BLOCKS, type BlockRegistry } from "../blocks/registry.js";
import { darkColors, type EditorDescription, type Field, field } from "../schema/editor.js";
import { canvasObjectSchema, columnStyleSchema, rowSpacerSchema, rowStyleSchema } from "./schema.js";

const BACKGROUND_SIZES = ["cover", "contain", "auto", "100% auto"];
const BACKGROUND_POSITIONS = ["center center", "top center", "bottom center", "left center", "right center"];
const BACKGROUND_REPEATS = ["no-repeat", "repeat", "repeat-x", "repeat-y"];

/** A background image with its size, position and repeat (`backgroundImageFields` in schema/common.ts); `body…` on the canvas. */
function backgroundImage(prefix = ""): Field[] {
  const name = (prop: string) => (prefix === "" ? prop : `${prefix}${prop[0]!.toUpperCase()}${prop.slice(1)}`);
  return [
    field.imageUrl(name("backgroundImage"), "Background image"),
    field.css(name("backgroundSize"), "Image size", BACKGROUND_SIZES),
    field.css(name("backgroundPosition"), "Image position", BACKGROUND_POSITIONS),
    field.css(name("backgroundRepeat"), "Image repeat", BACKGROUND_REPEATS),
  ];
}

export const CANVAS_EDITOR: EditorDescription = {
  label: "Email",
  description: "The whole email: its width, the page around it, the preheader, the language and its direction.",
  groups: [
    {
      id: "content",
      label: "Content",
      fields: [
        field.text("preheaderText", "Preheader", { hint: "The preview line inboxes show after the subject" }),
        field.text("language", "Language", { mergeTags: false, hint: "A language tag such as en-US (the document's lang)" }),
        field.direction("Right to left mirrors the rows: their first column goes on the right"),
      ],
    },
    {
      id: "layout",
      label: "Layout",
      fields: [
        field.px("width", "Content width", 320, 900),
        field.px("mobileBreakpoint", "Mobile breakpoint", 320, 900, { hint: "Phone overrides and column stacking apply below this width" }),
        field.spacing("padding", "Padding", { hint: "Around the content" }),
      ],
    },
    {
      id: "appearance",
      label: "Appearance",
      fields: [
        field.color("backgroundColor", "Content background", { dark: "backgroundColor" }),
        field.color("bodyBackgroundColor", "Page background", { dark: "bodyBackgroundColor" }),
        ...backgroundImage("body"),
      ],
    },
  ],
  dark: [
    ...darkColors("bodyBackgroundColor", "backgroundColor"),
    { key: "color", label: "Text (default of every text block)" },
    { key: "linkColor", label: "Links" },
  ],
};

export const ROW_EDITOR: EditorDescription = {
  label: "Row",
  description: "A band of columns, side by side on desktop, stacked on phones.",
  groups: [
    {
      id: "layout",
      label: "Layout",
      fields: [
        field.text("name", "Name", { mergeTags: false, hint: "For the editor only" }),
        field.px("gap", "Space between columns", 0, 60),
        field.boolean("mobileStack", "Stack columns on phones"),
        field.px("minHeight", "Minimum height", 0, 800),
      ],
    },
    {
      id: "appearance",
      label: "Appearance",
      fields: [
        field.color("backgroundColor", "Background colour", { dark: "backgroundColor" }),
        field.gradient("backgroundGradient", "Background gradient", { dark: "backgroundGradient" }),
        ...backgroundImage(),
        field.border("border", "Border", { dark: "borderColor" }),
      ],
    },
    { id: "spacing", label: "Spacing", fields: [field.spacing("padding", "Padding")] },
    { id: "visibility", label: "Visibility", fields: [field.visibility()] },
  ],
  dark: darkColors("backgroundColor", "backgroundGradient", "borderColor"),
};

export const COLUMN_EDITOR: EditorDescription = {
  label: "Column",
  description: "A column of a row, holding blocks and nested rows.",
  groups: [
    {
      id: "layout",
      label: "Layout",
      fields: [
        field.number("width", "Width", "%", { min: 5, max: 100, step: 1 }, { hint: "Of the row; columns without one share what the others leave" }),
        field.enum("verticalAlign", "Vertical alignment", [
          { value: "top", label: "Top" },
          { value: "middle", label: "Middle" },
          { value: "bottom", label: "Bottom" },
        ]),
      ],
    },
    {
      id: "appearance",
      label: "Appearance",
      fields: [
        field.color("backgroundColor", "Background colour", { dark: "backgroundColor" }),
        ...backgroundImage(),
        field.border("border", "Border", { dark: "borderColor" }),
      ],
    },
    { id: "spacing", label: "Spacing", fields: [field.spacing("padding", "Padding")] },
    { id: "visibility", label: "Visibility", fields: [{ ...field.visibility(), prop: "props.visibility" }] },
  ],
  dark: darkColors("backgroundColor", "borderColor"),
};

export const ROW_SPACER_EDITOR: EditorDescription = {
  label: "Row spacer",
  description: "Empty space between rows (one without a positive height is left out).",
  groups: [
    { id: "layout", label: "Layout", fields: [field.px("height", "Height", 1, 200)] },
    {
      id: "appearance",
      label: "Appearance",
      fields: [
        field.color("backgroundColor", "Background colour", { dark: "backgroundColor" }),
        field.gradient("backgroundGradient", "Background gradient", { dark: "backgroundGradient" }),
      ],
    },
    { id: "visibility", label: "Visibility", fields: [field.visibility()] },
  ],
  dark: darkColors("backgroundColor", "backgroundGradient"),
};

/** A field as the JSON description has it: with its default, the same for a list's item fields. */
export type FieldJson = Field & { readonly default?: unknown; readonly fields?: readonly FieldJson[] };

export interface EditorDescriptionJson extends Omit<EditorDescription, "groups"> {
  readonly groups: readonly { readonly id: string; readonly label: string; readonly fields: readonly FieldJson[] }[];
}

export interface EditorDescriptionsJson {
  /** Bumped when a form generated from an older description could misread this one. */
  readonly version: 1;
  readonly canvas: EditorDescriptionJson;
  readonly row: EditorDescriptionJson;
  readonly column: EditorDescriptionJson;
  readonly rowSpacer: EditorDescriptionJson;
  /** In the registry's order. */
  readonly blocks: readonly (EditorDescriptionJson & { readonly type: string; readonly example: Readonly<Record<string, unknown>> })[];
}

const at = (value: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((node, key) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined), value);

/**
 * A field's default as an editor writes it: the schema's, except a gradient's (the schema reads
 * it into the CSS it draws; off is what an editor starts from).
 */
function editorDefault(field: Field, defaults: unknown): unknown {
  if (field.kind === "gradient") return { useGradient: false };
  return at(defaults, field.prop);
}

function withDefaults(fields: readonly Field[], schema: z.ZodMiniType, defaults: unknown): FieldJson[] {
  return fields.map((f) => {
    const value = editorDefault(f, defaults);
    if (f.kind !== "entries") return value === undefined ? f : { ...f, default: value };
    // An item's defaults: the schema's for an empty entry.
    const item = at(schema.parse({ [f.prop]: [{}] }), f.prop) as unknown[];
    return { ...f, default: value, fields: withDefaults(f.fields, schema, item[0]) };
  });
}

function describe(description: EditorDescription, schema: z.ZodMiniType): EditorDescriptionJson {
  const defaults = schema.parse({});
  return { ...description, groups: description.groups.map((group) => ({ ...group, fields: withDefaults(group.fields, schema, defaults) })) };
}

/** Every editor description, with defaults: the canvas, rows, columns, row spacers and each block of `registry`. */
export function editorDescriptions(registry: BlockRegistry = BLOCKS): EditorDescriptionsJson {
  return {
    version: 1,
    canvas: describe(CANVAS_EDITOR, canvasObjectSchema()),
    row: describe(ROW_EDITOR, rowStyleSchema()),
    column: describe(COLUMN_EDITOR, columnStyleSchema()),
    rowSpacer: describe(ROW_SPACER_EDITOR, rowSpacerSchema()),
    blocks: Object.values(registry).map((block) => ({ type: block.type, ...describe(block.editor, block.props), example: block.example })),
  };
}
