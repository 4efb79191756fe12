/**
 * Reading a template (`parseTemplate`: every node validated, defaults filled, warnings collected),
 * the first step of rendering one the engine has not seen: the realistic newsletter in the editor's
 * hydrated form (every default written, as bench/first-render.ts renders it) and as the fixture
 * writes it (defaults left out). CPU time per read, median of batches; asserts nothing.
 *
 * usage: tsx bench/template-read.ts [--batches 9] [--reads 200]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseTemplate } from "../engine/src/document/parse.js";
import { toHydrated } from "../engine/test/support/editor-form.js";

const { values: args } = parseArgs({ options: { batches: { type: "string", default: "9" }, reads: { type: "string", default: "200" } } });
const [BATCHES, READS] = [Number(args.batches), Number(args.reads)];

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/render/realistic-newsletter/case.json", import.meta.url)), "utf8")) as {
  template: Record<string, unknown>;
};
const forms = { hydrated: toHydrated(fixture.template), written: fixture.template };

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

for (const [name, template] of Object.entries(forms)) {
  if (parseTemplate(template).issues.length > 0) throw new Error(`the ${name} newsletter does not read`);
  for (let i = 0; i < READS; i++) parseTemplate(template); // warm-up: the optimising compiler's work is not the read's
  const times: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const start = cpuMs();
    for (let i = 0; i < READS; i++) parseTemplate(template);
    times.push((cpuMs() - start) / READS);
  }
  times.sort((a, b) => a - b);
  console.log(`newsletter, ${name}: ${times[Math.floor(BATCHES / 2)]!.toFixed(3)} ms per read (CPU, median of ${BATCHES} × ${READS})`);
}
