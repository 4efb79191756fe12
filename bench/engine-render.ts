/**
 * Warm render cost of the realistic newsletter, the engine as its npm package ships it, side by side in one run:
 *   - engine `render(..., {target: "html"})`, repeated with varying merge tags and context
 *   - `mjml2html` of our own MJML output for the same template (what hand-written MJML pays), and
 *     the engine's own compile of that MJML (src/mjml-to-html, the html target's, same HTML)
 *   - `@react-email/render` of our own react-email output (what a React Email user pays)
 * Prints figures; asserts nothing (targets are read off the table).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { render as renderReactEmail } from "@react-email/render";
import { transform } from "esbuild";
import mjml2html from "mjml";
import { createElement, type FunctionComponent } from "react";
import { shippedEngine } from "./shipped-engine.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 1000);
const { render, compileMjmlToHtml } = await shippedEngine();
const CASE = process.env["BENCH_CASE"] ?? fileURLToPath(new URL("../fixtures/render/realistic-newsletter/case.json", import.meta.url));
const fixture = JSON.parse(readFileSync(CASE, "utf8")) as {
  template: unknown;
  dynamic_data: { merge_tags?: { text?: Record<string, string> }; context?: Record<string, string> };
};

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p99: at(0.99) };
}

async function time(runs: number, fn: (i: number) => Promise<unknown> | unknown): Promise<{ median: number; p99: number }> {
  for (let i = 0; i < Math.min(50, runs); i++) await fn(i); // warm-up: JIT and caches
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

const recipients = Array.from({ length: 100 }, (_, i) => ({
  merge_tags: { ...fixture.dynamic_data.merge_tags, text: { ...fixture.dynamic_data.merge_tags?.text, first_name: `Reader ${i}` } },
  context: { ...fixture.dynamic_data.context, plan: i % 2 === 0 ? "pro" : "free" },
}));

const coldStart = performance.now();
const first = await render(fixture.template, { target: "html", dynamicData: recipients[0] });
const cold = performance.now() - coldStart;
const ourMjml = (await render(fixture.template, { target: "mjml", dynamicData: recipients[0] })).output;
const ourTsx = (await render(fixture.template, { target: "react-email", dynamicData: recipients[0] })).output;

const tmp = fileURLToPath(new URL("../engine/.bench-tmp/", import.meta.url));
mkdirSync(tmp, { recursive: true });
const { code } = await transform(ourTsx, { loader: "tsx", jsx: "automatic", format: "esm" });
writeFileSync(`${tmp}newsletter.mjs`, code);
const Component = ((await import(pathToFileURL(`${tmp}newsletter.mjs`).href)) as { default: FunctionComponent }).default;
rmSync(tmp, { recursive: true, force: true });

const engineHtml = await time(RUNS, (i) => render(fixture.template, { target: "html", dynamicData: recipients[i % recipients.length] }));
const engineMjml = await time(RUNS, (i) => render(fixture.template, { target: "mjml", dynamicData: recipients[i % recipients.length] }));
const mjml = await time(Math.max(500, Math.floor(RUNS / 2)), () =>
  mjml2html(ourMjml, { validationLevel: "skip", minify: false } as Parameters<typeof mjml2html>[1]),
);
const ourCompile = await time(Math.max(500, Math.floor(RUNS / 2)), () => compileMjmlToHtml(ourMjml));
const reactEmail = await time(RUNS, () => renderReactEmail(createElement(Component)));

const ms = (v: number) => `${v.toFixed(3)} ms`.padStart(12);
console.log(`\nengine render benchmark — realistic newsletter (${first.output.length} bytes of html), ${RUNS} runs each, node ${process.version}`);
console.log(`${"".padEnd(52)}${"median".padStart(12)}${"p99".padStart(12)}`);
const row = (label: string, s: { median: number; p99: number }) => console.log(`${label.padEnd(52)}${ms(s.median)}${ms(s.p99)}`);
row("engine render → html (repeat, data varying)", engineHtml);
row("engine render → mjml (repeat, data varying)", engineMjml);
row("mjml2html of our MJML (hand-written MJML path)", mjml);
row("the engine's own MJML → HTML of the same MJML", ourCompile);
row("@react-email/render of our TSX (React Email path)", reactEmail);
console.log(`engine first (cold) render → html: ${cold.toFixed(1)} ms`);
console.log(`repeat html render / mjml2html = 1/${(mjml.median / engineHtml.median).toFixed(1)} (target ≤ 1/20)`);
console.log(`repeat html render vs @react-email/render = ${(engineHtml.median / reactEmail.median).toFixed(3)}× (target < 1)`);
