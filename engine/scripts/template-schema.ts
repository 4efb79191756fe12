/** The published JSON Schema of template documents, as the file `make spec` writes. */
import { fileURLToPath } from "node:url";
import { templateJsonSchema } from "../src/document/json-schema.js";

export const TEMPLATE_SCHEMA_PATH = fileURLToPath(new URL("../../spec/template/v1/template.schema.json", import.meta.url));

export function templateJsonSchemaText(): string {
  return `${JSON.stringify(templateJsonSchema(), null, 2)}\n`;
}
