/**
 * `make check-report`: what the template checks (spec/checks.md) find in the good templates — every
 * render fixture as written and in the Maildeno editor's two forms, and the server's starters — and
 * in the corpus of mistakes (fixtures/checks/): findings per template, then a count per code.
 * A report for reviewing the checks for noise, not a gate (test/checks.test.ts is the gate).
 *
 *   tsx engine/scripts/check-report.ts [--details]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Finding, validateTemplate } from "../src/index.js";
import { toExport, toHydrated } from "../test/support/editor-form.js";
import { FIXTURES_DIR, listCases } from "./fixture-cases.js";

const details = process.argv.includes("--details");
const counts = new Map<string, number>();
const short = (f: Finding) => `${f.severity[0]}:${f.code}`;

function report(name: string, findings: readonly Finding[]): void {
  for (const f of findings) counts.set(`${f.severity.padEnd(7)} ${f.code}`, (counts.get(`${f.severity.padEnd(7)} ${f.code}`) ?? 0) + 1);
  console.log(`${name.padEnd(44)} ${findings.length === 0 ? "-" : findings.map(short).join(" ")}`);
  if (details)
    for (const f of findings) console.log(`    ${f.severity} ${f.code} ${f.path.join("/")}${f.target ? ` [${f.target}]` : ""}: ${f.message} (${f.hint})`);
}

const key = (f: Finding) => `${f.code} ${f.path.join("/")} ${f.value}`;
console.log("render fixtures (and what the editor's hydrated and export forms add):");
for (const fixture of listCases("render")) {
  const own = validateTemplate(fixture.template).findings;
  report(`render/${fixture.name}`, own);
  for (const [form, transform] of [
    ["hydrated", toHydrated],
    ["export", toExport],
  ] as const) {
    const seen = new Set(own.map(key));
    const added = validateTemplate(transform(fixture.template as Record<string, unknown>)).findings.filter((f) => !seen.has(key(f)));
    if (added.length > 0) report(`  ${form} form adds`, added);
  }
}
const starters = join(FIXTURES_DIR, "../server/demo");
console.log("\nthe server's starter templates:");
for (const file of readdirSync(starters)) report(`server/demo/${file}`, validateTemplate(JSON.parse(readFileSync(join(starters, file), "utf8"))).findings);
console.log("\nfindings per code over these:");
for (const [code, count] of [...counts].sort()) console.log(`  ${code} ${count}`);

counts.clear();
console.log("\nthe corpus of mistakes (fixtures/checks/):");
let caught = 0;
const cases = listCases("checks");
for (const fixture of cases) {
  const { findings } = validateTemplate(fixture.template, { dynamicData: fixture.sampleData });
  if (findings.length > 0) caught++;
  report(`checks/${fixture.name}`, findings);
}
console.log(`\n${caught} of ${cases.length} cases give findings (the one that does not proves that what the editor writes stays silent)`);
