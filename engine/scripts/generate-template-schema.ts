/**
 * Writes spec/template/v1/template.schema.json from the engine's zod schema (`make spec`).
 * The JSON Schema is never edited by hand; test/spec.test.ts fails when it is stale.
 */
import { writeFileSync } from "node:fs";
import { TEMPLATE_SCHEMA_PATH, templateJsonSchemaText } from "./template-schema.js";

writeFileSync(TEMPLATE_SCHEMA_PATH, templateJsonSchemaText());
console.log(`wrote ${TEMPLATE_SCHEMA_PATH}`);
