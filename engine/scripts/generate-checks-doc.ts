/** `make spec`: writes spec/checks.md (engine/scripts/checks-doc.ts says from what). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { checksDoc } from "./checks-doc.js";
import { FIXTURES_DIR } from "./fixture-cases.js";

const file = join(FIXTURES_DIR, "../spec/checks.md");
writeFileSync(file, checksDoc());
console.log(`wrote ${file}`);
