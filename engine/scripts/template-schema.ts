/** What `make spec` writes from the block registry: the template's JSON Schema and the per-block tables of spec/template.md. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { blockPropsMarkdown, withBlockDocs } from "../src/document/docs.js";
import { templateJsonSchema } from "../src/document/json-schema.js";

export const TEMPLATE_SCHEMA_PATH = fileURLToPath(new URL("../../spec/template/v1/template.schema.json", import.meta.url));
export const TEMPLATE_DOCS_PATH = fileURLToPath(new URL("../../spec/template.md", import.meta.url));

export function templateJsonSchemaText(): string {
  return `${JSON.stringify(templateJsonSchema(), null, 2)}\n`;
}

/** spec/template.md with its generated block tables as the registry says them now. */
export function templateDocsText(): string {
  return withBlockDocs(readFileSync(TEMPLATE_DOCS_PATH, "utf8"), blockPropsMarkdown());
}
