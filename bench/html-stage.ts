/**
 * The html target's stage after the MJML is written: the MJML compile, the waste steps and the
 * minifier, on the same MJML, as the engine runs it (the document in pieces and chunks, never whole
 * before it is minified) against the same code run over the whole document at each step (one chunk:
 * what every step did before, docs/design/html-pipeline.md). Both in one process, alternating round by
 * round; CPU time, medians. The realistic newsletter (79 Ki characters of html) and generated
 * templates covering every block (short documents, one chunk either way). Asserts nothing.
 *
 * usage: tsx bench/html-stage.ts [--rounds 60]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { render } from "../engine/src/index.js";
import { compileMjmlToHtml, compileMjmlToHtmlPieces } from "../engine/src/mjml-to-html/index.js";
import { removeHtmlWasteInChunks } from "../engine/src/targets/html-waste.js";
import { minifyMarkup } from "../engine/src/targets/minify.js";
import { toHydrated } from "../engine/test/support/editor-form.js";
import { CONTEXT, generateTemplates, MERGE_TAGS } from "../engine/test/support/generated-templates.js";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "60" } } });
const ROUNDS = Number(args.rounds);

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/render/realistic-newsletter/case.json", import.meta.url)), "utf8")) as {
  template: Record<string, unknown>;
  dynamic_data: Record<string, unknown>;
};
const mjmlOf = async (template: Record<string, unknown>, dynamicData: Record<string, unknown>) =>
  (await render(toHydrated(template), { target: "mjml", dynamicData, minify: false })).output;
const newsletter = await mjmlOf(fixture.template, fixture.dynamic_data);
const generated = await Promise.all(
  generateTemplates(20, 7).map((c) => mjmlOf(c.template as Record<string, unknown>, { merge_tags: MERGE_TAGS, context: CONTEXT })),
);

const stages = {
  "in chunks": (mjml: string) => minifyMarkup(removeHtmlWasteInChunks(compileMjmlToHtmlPieces(mjml))),
  whole: (mjml: string) => minifyMarkup(removeHtmlWasteInChunks(compileMjmlToHtml(mjml), Number.MAX_SAFE_INTEGER)[0] as string),
};

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const samples: Record<string, number[]> = {};
for (let round = 0; round <= ROUNDS; round++) {
  const names = Object.keys(stages) as (keyof typeof stages)[];
  if (round % 2 === 1) names.reverse();
  for (const name of names) {
    for (const [label, documents, repeat] of [["realistic newsletter", [newsletter], 10] as const, ["generated templates", generated, 1] as const]) {
      const start = cpuMs();
      // Read a character: the result is then one string, as the engine's next step reads it.
      for (let i = 0; i < repeat; i++) for (const mjml of documents) stages[name](mjml).charCodeAt(0);
      // Round 0 warms up (JIT) and is not counted.
      if (round === 0) continue;
      const key = `${label}, ${name}`;
      samples[key] = [...(samples[key] ?? []), (cpuMs() - start) / repeat / documents.length];
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;
console.log(`the html stage (compile, waste steps, minifier), CPU time, medians of ${ROUNDS} rounds`);
for (const [name, values] of Object.entries(samples).sort()) console.log(`  ${name.padEnd(40)}${median(values).toFixed(3).padStart(8)} ms`);
