import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateOpenApiYaml } from "../src/openapi.js";

/** `make spec`: writes spec/openapi.yaml from the routes (a test fails when the file is stale). */
const target = fileURLToPath(new URL("../../spec/openapi.yaml", import.meta.url));
writeFileSync(target, await generateOpenApiYaml());
process.stdout.write(`wrote ${target}\n`);
