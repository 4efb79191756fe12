/** The published JSON Schema of template documents, derived from the zod schema. */
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { templateDocumentSchema, templateSchemaNames } from "../src/template/document-schema.js";

export const TEMPLATE_SCHEMA_PATH = fileURLToPath(new URL("../../spec/template/v1/template.schema.json", import.meta.url));

export function templateJsonSchemaText(): string {
  const schema = z.toJSONSchema(templateDocumentSchema, { io: "input", unrepresentable: "any", target: "draft-2020-12", metadata: templateSchemaNames });
  const document = {
    ...schema,
    $id: "https://mailrender.dev/spec/template/v1/template.schema.json",
    title: "mailrender template document, version 1",
    description:
      "Generated from the engine's zod schema (engine/src/template). Every field except the five top-level keys has a default and may be omitted. Block types this engine version does not know are accepted by the engine with a warning and not rendered; this schema lists the known ones.",
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
