/**
 * The whole template document as one zod schema, assembled from the same pieces the reader uses
 * (node schemas here, block props in `blocks/`). It types `TemplateJson` and generates the published
 * JSON Schema (`make spec` → spec/template/v1/template.schema.json). The reader (`parse.ts`) walks
 * nodes itself so that every issue carries an exact path and unknown block types are only warnings;
 * the published schema describes the blocks this engine version knows.
 */
import * as z from "zod/mini";
import { BLOCK_TYPES, BLOCKS } from "../blocks/registry.js";
import { colorSchema, gradientSchema, mobileOverridesSchema, visibilityRuleSchema, visibilitySchema } from "../schema/common.js";
import { darkColorSchema } from "../schema/dark.js";
import { columnStyleSchema, documentHeaderSchema, idSchema, rowSpacerSchema, rowStyleSchema } from "./schema.js";

const pascal = (type: string) => type[0]!.toUpperCase() + type.slice(1);

/**
 * Names for the published JSON Schema's `$defs`. A registry of our own, not zod's global one: the
 * global registry would leak these names into every other schema document built in the process
 * (the server's OpenAPI, for one).
 */
export const templateSchemaNames = z.registry<{ id: string }>();
function named<S extends z.ZodMiniType>(schema: S, id: string): S {
  templateSchemaNames.add(schema, { id });
  return schema;
}
named(visibilitySchema, "Visibility");
named(visibilityRuleSchema, "VisibilityRule");
named(gradientSchema, "Gradient");
named(mobileOverridesSchema, "MobileOverrides");
named(colorSchema, "Color");
named(darkColorSchema, "DarkColor");

/** One named props schema per block, shared by the current and the legacy component shapes. */
const propsSchemas = Object.fromEntries(BLOCK_TYPES.map((type) => [type, named(BLOCKS[type].props.clone(), `${pascal(type)}Props`)]));

const componentSchemas = BLOCK_TYPES.map((type) =>
  z.object({
    id: idSchema,
    type: z.literal("component"),
    componentType: z.literal(type),
    props: z.optional(propsSchemas[type]!),
  }),
);

/** Exports from older editors: the block type in `type`, no `componentType`. */
const legacyComponentSchemas = BLOCK_TYPES.map((type) =>
  z.object({
    id: idSchema,
    type: z.literal(type),
    props: z.optional(propsSchemas[type]!),
  }),
);

export const rowSpacerNodeSchema = named(
  z.extend(rowSpacerSchema, {
    id: idSchema,
    type: z.literal("row-spacer"),
    height: z.number(),
  }),
  "RowSpacer",
);

export const columnNodeSchema = named(
  z.extend(columnStyleSchema, {
    id: idSchema,
    get children() {
      return z.optional(z.array(columnChildSchema));
    },
    /** Legacy name of `children`. */
    get components() {
      return z.optional(z.array(columnChildSchema));
    },
  }),
  "Column",
);

export const rowNodeSchema = named(
  z.extend(rowStyleSchema, {
    id: idSchema,
    type: z.optional(z.literal("row")),
    get columns() {
      return z.array(columnNodeSchema);
    },
  }),
  "Row",
);

export const columnChildSchema: z.ZodMiniType = z.union([...componentSchemas, ...legacyComponentSchemas, rowNodeSchema, rowSpacerNodeSchema]);

export const templateDocumentSchema = z.extend(documentHeaderSchema, {
  rows: z.array(z.union([rowNodeSchema, rowSpacerNodeSchema])),
});

/** The template definition as the clients name it (input shape: every defaulted field optional). */
export type TemplateJson = z.input<typeof templateDocumentSchema>;
