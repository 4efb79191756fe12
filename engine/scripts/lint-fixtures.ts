/** `make fixtures-lint`: every case folder is complete and its case.json well formed. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expectedFindingsPath, expectedPath, expectedTextPath, FIXTURES_DIR, listCases, RENDER_TARGETS } from "./fixture-cases.js";

const problems: string[] = [];
for (const kind of ["render", "errors", "checks"] as const) {
  for (const name of readdirSync(join(FIXTURES_DIR, kind))) {
    if (!existsSync(join(FIXTURES_DIR, kind, name, "case.json"))) problems.push(`${kind}/${name}: no case.json`);
  }
  for (const fixture of listCases(kind)) {
    const where = `${kind}/${fixture.name}`;
    if (!fixture.description) problems.push(`${where}: description is empty`);
    if (fixture.template === undefined) problems.push(`${where}: template is missing`);
    if (kind === "render") {
      for (const target of RENDER_TARGETS)
        if (!existsSync(expectedPath(fixture, target))) problems.push(`${where}: expected output for ${target} is missing (run make fixtures)`);
      if (!existsSync(expectedTextPath(fixture))) problems.push(`${where}: expected.txt (plain text) is missing (run make fixtures)`);
      if (!existsSync(join(fixture.dir, "expected.warnings.json"))) problems.push(`${where}: expected.warnings.json is missing`);
    } else if (kind === "checks") {
      if (!existsSync(expectedFindingsPath(fixture))) problems.push(`${where}: expected.findings.json is missing (run make fixtures)`);
    } else {
      if (!fixture.target || !RENDER_TARGETS.includes(fixture.target)) problems.push(`${where}: target must be one of ${RENDER_TARGETS.join(", ")}`);
      if (!existsSync(join(fixture.dir, "expected.error.json"))) problems.push(`${where}: expected.error.json is missing`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("fixtures: all cases complete");
