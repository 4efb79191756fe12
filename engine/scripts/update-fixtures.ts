/**
 * `make fixtures`: re-renders every golden case with the engine library and rewrites its expected
 * files. Review `git diff fixtures/` before committing — a golden change is a behaviour change.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RenderError, render, validateTemplate } from "../src/index.js";
import { expectedFindingsPath, expectedPath, expectedTextPath, listCases, RENDER_TARGETS, recordedFinding } from "./fixture-cases.js";

let written = 0;
for (const fixture of listCases("render")) {
  const warnings: Record<string, unknown> = {};
  for (const target of RENDER_TARGETS) {
    const result = await render(fixture.template, {
      target,
      dynamicData: fixture.dynamicData,
      minify: fixture.minify,
      strict: fixture.strict,
      plainText: true,
    });
    writeFileSync(expectedPath(fixture, target), result.output);
    // The plain text does not depend on the target (the fixture tests check that it is the same for all).
    if (target === "html") {
      writeFileSync(expectedTextPath(fixture), result.text ?? "");
      written++;
    }
    warnings[target] = result.warnings.map(({ code, path }) => ({ code, path }));
    written++;
  }
  writeFileSync(join(fixture.dir, "expected.warnings.json"), `${JSON.stringify(warnings, null, 2)}\n`);
}

for (const fixture of listCases("errors")) {
  try {
    await render(fixture.template, { target: fixture.target ?? "html", dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict });
    throw new Error(`errors/${fixture.name} rendered without an error; move it to render/ or fix the case`);
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    const expected = { code: error.code, message: error.message, issues: error.issues };
    writeFileSync(join(fixture.dir, "expected.error.json"), `${JSON.stringify(expected, null, 2)}\n`);
    written++;
  }
}
// What the template checks find in each mistake: every finding, in order (fixtures/README.md).
for (const fixture of listCases("checks")) {
  const { findings } = validateTemplate(fixture.template, { dynamicData: fixture.sampleData, clients: fixture.clients });
  writeFileSync(expectedFindingsPath(fixture), `${JSON.stringify(findings.map(recordedFinding), null, 2)}\n`);
  written++;
}

console.log(`wrote ${written} golden files; review them with: git diff --stat fixtures/`);
