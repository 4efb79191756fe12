/**
 * The whole template document as one zod schema, assembled from the same pieces the reader uses
 * (node schemas here, block props in `blocks/`). It types `TemplateJson` and generates the published
 * JSON Schema (`make spec` → spec/template/v1/template.schema.json). The reader (`parse.ts`) walks
 * nodes itself so that every issue carries an exact path and unknown block types are only warnings;
 * the published schema describes the blocks this engine version knows.
 */
import * as z from "zod";
import { BLOCK_TYPES, BLOCKS } from "../blocks/registry.js";
import { colorSchema, gradientSchema, mobileOverridesSchema, visibilityRuleSchema, visibilitySchema } from "./common.js";
import { darkColorSchema } from "./dark.js";
import { columnStyleSchema, documentHeaderSchema, idSchema, rowSpacerSchema, rowStyleSchema } from "./schema.js";

const pascal = (type: string) => type[0]!.toUpperCase() + type.slice(1);

/**
 * Names for the published JSON Schema's `$defs`. A registry of our own, not zod's global one: the
 * global registry would leak these names into every other schema document built in the process
 * (the server's OpenAPI, for one).
 */
export const templateSchemaNames = z.registry<{ id: string }>();
function named<S extends z.ZodType>(schema: S, id: string): S {
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
    props: propsSchemas[type]!.optional(),
  }),
);

/** Exports from older editors: the block type in `type`, no `componentType`. */
const legacyComponentSchemas = BLOCK_TYPES.map((type) =>
  z.object({
    id: idSchema,
    type: z.literal(type),
    props: propsSchemas[type]!.optional(),
  }),
);

export const rowSpacerNodeSchema = named(
  rowSpacerSchema.extend({
    id: idSchema,
    type: z.literal("row-spacer"),
    height: z.number(),
  }),
  "RowSpacer",
);

export const columnNodeSchema = named(
  columnStyleSchema.extend({
    id: idSchema,
    get children() {
      return z.array(columnChildSchema).optional();
    },
    /** Legacy name of `children`. */
    get components() {
      return z.array(columnChildSchema).optional();
    },
  }),
  "Column",
);

export const rowNodeSchema = named(
  rowStyleSchema.extend({
    id: idSchema,
    type: z.literal("row").optional(),
    get columns() {
      return z.array(columnNodeSchema);
    },
  }),
  "Row",
);

export const columnChildSchema: z.ZodType = z.union([...componentSchemas, ...legacyComponentSchemas, rowNodeSchema, rowSpacerNodeSchema]);

export const templateDocumentSchema = documentHeaderSchema.extend({
  rows: z.array(z.union([rowNodeSchema, rowSpacerNodeSchema])),
});

/** The template definition as the clients name it (input shape: every defaulted field optional). */
export type TemplateJson = z.input<typeof templateDocumentSchema>;
