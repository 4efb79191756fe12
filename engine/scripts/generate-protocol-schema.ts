/** Writes spec/protocol/v1/{request,response}.schema.json from the protocol's zod schemas. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROTOCOL_SCHEMA_DIR, protocolSchemaFiles } from "../src/protocol/json-schema.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const dir = join(root, PROTOCOL_SCHEMA_DIR);
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(protocolSchemaFiles())) {
  writeFileSync(join(dir, name), text);
  process.stderr.write(`wrote ${PROTOCOL_SCHEMA_DIR}/${name}\n`);
}
