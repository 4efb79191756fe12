/**
 * The engine library's in-process throughput for the realistic newsletter (html), the yardstick for
 * bench/python_client_bench.py. Prints one JSON line: {"renders_per_second", "runs", "median_ms"}.
 * usage: tsx bench/engine_inprocess_bench.ts [runs]
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { render } from "../engine/src/index.js";

const RUNS = Number(process.argv[2] ?? 1000);
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/render/realistic-newsletter/case.json", import.meta.url)), "utf8")) as {
  template: unknown;
  dynamic_data: Parameters<typeof render>[1]["dynamicData"];
};

// One recipient per run (first name varies), as a mailing does; the same template object throughout,
// as the client's cached template (the engine keeps it by template_ref) is the same template.
const base = fixture.dynamic_data ?? {};
const recipients = Array.from({ length: 100 }, (_, i) => ({
  ...base,
  merge_tags: { ...base.merge_tags, text: { ...base.merge_tags?.text, first_name: `Reader ${i}` } },
}));

for (let i = 0; i < 50; i++) await render(fixture.template, { target: "html", dynamicData: recipients[i % 100] }); // warm-up (JIT)
const samples: number[] = [];
const start = performance.now();
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  await render(fixture.template, { target: "html", dynamicData: recipients[i % 100] });
  samples.push(performance.now() - t);
}
const elapsed = (performance.now() - start) / 1000;
samples.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ renders_per_second: RUNS / elapsed, runs: RUNS, median_ms: samples[Math.floor(RUNS / 2)] })}\n`);
