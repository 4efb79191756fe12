/**
 * The whole template document as one zod schema, assembled from the same pieces the reader uses
 * (node schemas here, block props in `blocks/`). It types `TemplateJson` and generates the published
 * JSON Schema (`make spec` → spec/template/v1/template.schema.json). The reader (`parse.ts`) walks
 * nodes itself so that every issue carries an exact path and unknown block types are only warnings;
 * the published schema describes the blocks of a registry (this engine version's, by default).
 */
import * as z from "zod/mini";
import { BLOCKS, type BlockRegistry } from "../blocks/registry.js";
import { colorSchema, gradientSchema, mobileOverridesSchema, visibilityRuleSchema, visibilitySchema } from "../schema/common.js";
import { darkColorSchema } from "../schema/dark.js";
import { numberSchema } from "../schema/leaves.js";
import { columnStyleSchema, documentHeaderSchema, idSchema, rowSpacerSchema, rowStyleSchema } from "./schema.js";

const pascal = (type: string) => type[0]!.toUpperCase() + type.slice(1);

/** The document schema of a block registry, and the names of its `$defs` in the published JSON Schema. */
function documentSchemaOf(registry: BlockRegistry) {
  /**
   * A registry of names of our own, not zod's global one: the global registry would leak these names
   * into every other schema document built in the process (the server's OpenAPI, for one).
   */
  const names = z.registry<{ id: string }>();
  function named<S extends z.ZodMiniType>(schema: S, id: string): S {
    names.add(schema, { id });
    return schema;
  }
  named(visibilitySchema(), "Visibility");
  named(visibilityRuleSchema(), "VisibilityRule");
  named(gradientSchema(), "Gradient");
  named(mobileOverridesSchema(), "MobileOverrides");
  named(colorSchema, "Color");
  named(darkColorSchema, "DarkColor");

  const types = Object.keys(registry);
  /** One named props schema per block, shared by the current and the legacy component shapes. */
  const propsSchemas = Object.fromEntries(types.map((type) => [type, named(registry[type]!.props.clone(), `${pascal(type)}Props`)]));

  const componentSchemas = types.map((type) =>
    z.object({
      id: idSchema(),
      type: z.literal("component"),
      componentType: z.literal(type),
      props: z.optional(propsSchemas[type]!),
    }),
  );

  /** Exports from older editors: the block type in `type`, no `componentType`. */
  const legacyComponentSchemas = types.map((type) =>
    z.object({
      id: idSchema(),
      type: z.literal(type),
      props: z.optional(propsSchemas[type]!),
    }),
  );

  const rowSpacerNodeSchema = named(
    z.extend(rowSpacerSchema(), {
      id: idSchema(),
      type: z.literal("row-spacer"),
      height: numberSchema,
    }),
    "RowSpacer",
  );

  const columnNodeSchema = named(
    z.extend(columnStyleSchema(), {
      id: idSchema(),
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

  const rowNodeSchema = named(
    z.extend(rowStyleSchema(), {
      id: idSchema(),
      type: z.optional(z.literal("row")),
      get columns() {
        return z.array(columnNodeSchema);
      },
    }),
    "Row",
  );

  const columnChildSchema: z.ZodMiniType = z.union([...componentSchemas, ...legacyComponentSchemas, rowNodeSchema, rowSpacerNodeSchema]);

  const document = z.extend(documentHeaderSchema(), {
    rows: z.array(z.union([rowNodeSchema, rowSpacerNodeSchema])),
  });
  return { document, names };
}

const built = new WeakMap<BlockRegistry, ReturnType<typeof documentSchemaOf>>();

/** The document schema of a block registry (built once per registry), with its `$defs` names. */
export function documentSchema(registry: BlockRegistry): ReturnType<typeof documentSchemaOf> {
  let schema = built.get(registry);
  if (schema === undefined) {
    schema = documentSchemaOf(registry);
    built.set(registry, schema);
  }
  return schema;
}

/** The whole template document, with the blocks of this engine version. */
export const templateDocumentSchema = documentSchema(BLOCKS).document;

/** The template definition as the clients name it (input shape: every defaulted field optional). */
export type TemplateJson = z.input<typeof templateDocumentSchema>;
