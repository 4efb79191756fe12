/**
 * Writes spec/template/v1/template.schema.json from the engine's zod schema, and the per-block props
 * tables of spec/template.md from the block registry (`make spec`). Neither is edited by hand;
 * test/template.test.ts fails when either is stale.
 */
import { writeFileSync } from "node:fs";
import { TEMPLATE_DOCS_PATH, TEMPLATE_SCHEMA_PATH, templateDocsText, templateJsonSchemaText } from "./template-schema.js";

writeFileSync(TEMPLATE_SCHEMA_PATH, templateJsonSchemaText());
console.log(`wrote ${TEMPLATE_SCHEMA_PATH}`);
writeFileSync(TEMPLATE_DOCS_PATH, templateDocsText());
console.log(`wrote the block tables of ${TEMPLATE_DOCS_PATH}`);
