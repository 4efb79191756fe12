/**
 * A change to the engine library, measured as an application holds the library: one copy in a
 * process. Processes alternate between this checkout's `engine/lib` and a baseline checkout's (the
 * tree before the change, its node_modules installed); each renders templates it has not seen (the
 * realistic newsletter in its hydrated form under a new id with new texts, or generated templates
 * covering every block), warms up, then times each html render in CPU; the parent prints each
 * side's processes' medians and means, the median of each and the ratios. Two copies of the
 * library in one process are not how an application holds it: they share the process's V8 state
 * (loading a second one moved the first-render bench's own comparisons by half, bench/RESULTS.md).
 * The medians of eight processes move by ±4% between runs: a change of a few percent needs a dozen
 * or more a side.
 * `--cold`: what a new process pays instead, the library's import and then its first render (the
 * realistic newsletter's html), in plain Node (tsx's loader would hook every file the import reads).
 * Asserts nothing.
 *
 * usage: tsx bench/library-ab.ts --baseline <checkout> [--processes 10] [--warmup 300] [--renders 600]
 *        [--case newsletter|generated] [--phase idle|loaded|both] [--cold]
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { busyLoops } from "./busy-loops.js";
import { type Case, NEWSLETTER_CASE, newGenerated, newNewsletters } from "./new-templates.js";
import { builtEngineLib } from "./shipped-engine.js";

const { values: args } = parseArgs({
  options: {
    baseline: { type: "string" },
    processes: { type: "string", default: "10" },
    warmup: { type: "string", default: "300" },
    renders: { type: "string", default: "600" },
    case: { type: "string", default: "newsletter" },
    phase: { type: "string", default: "both" },
    cold: { type: "boolean", default: false },
    child: { type: "string" },
  },
});

/** A `--cold` child: the CPU (ms) of the library's import and of its first render, on stdout. */
const COLD_CHILD = `
const cpu = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };
const [lib, fixture] = process.argv.slice(-2);
const start = cpu();
const { render } = await import(lib);
const imported = cpu();
const c = JSON.parse((await import("node:fs")).readFileSync(fixture, "utf8"));
const before = cpu();
await render(c.template, { target: "html", dynamicData: c.dynamic_data });
console.log(imported - start, cpu() - before);`;

/** An endless supply of templates no render has seen. */
function newCases(kind: string): () => Case {
  let pending: Case[] = [];
  return () => {
    if (pending.length === 0) pending = kind === "generated" ? newGenerated(20) : newNewsletters(20);
    return pending.pop()!;
  };
}

/**
 * A child process: one library, its renders' CPU median and mean on stdout (milliseconds). The median
 * leaves out the renders a garbage collection lands in; the mean counts them, and with them what a
 * render leaves the collector (a large object, for one, is freed only by a full collection).
 */
async function child(lib: string): Promise<void> {
  const { render } = (await import(pathToFileURL(join(lib, "index.js")).href)) as typeof import("../engine/src/index.js");
  const next = newCases(args.case);
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const times: number[] = [];
  const [warmup, renders] = [Number(args.warmup), Number(args.renders)];
  for (let i = 0; i < warmup + renders; i++) {
    const c = next();
    const start = cpuMs();
    await render(c.template, { target: "html", dynamicData: c.dynamicData });
    if (i >= warmup) times.push(cpuMs() - start);
  }
  process.stdout.write(`${median(times)} ${times.reduce((sum, time) => sum + time, 0) / times.length}\n`);
}

const median = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;

/** A child's figures (ms of CPU): its renders' median and mean, or with `--cold` its import and its first render. */
function runChild(lib: string): number[] {
  const command = args.cold
    ? ["--input-type=module", "--eval", COLD_CHILD, "--", pathToFileURL(join(lib, "index.js")).href, NEWSLETTER_CASE]
    : ["--import", "tsx", fileURLToPath(import.meta.url), "--child", lib, "--case", args.case, "--warmup", args.warmup, "--renders", args.renders];
  const output = execFileSync(process.execPath, command, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return output.trim().split(/\s+/).map(Number);
}

function phase(title: string, libs: { ours: string; baseline: string }): void {
  const figures = { ours: [] as number[][], baseline: [] as number[][] };
  for (let i = 0; i < Number(args.processes); i++) {
    // Who goes first alternates, process pair by process pair.
    const order = i % 2 === 0 ? (["ours", "baseline"] as const) : (["baseline", "ours"] as const);
    for (const side of order) figures[side].push(runChild(libs[side]));
  }
  const what = args.cold
    ? "the realistic newsletter, CPU of a new process (ms)"
    : `${args.case}, CPU of an html render (ms), each process's median and mean of ${args.renders} after ${args.warmup}`;
  console.log(`\n${title}: ${what}`);
  const measures = args.cold
    ? [
        { name: "the library's import", of: (f: readonly number[]) => f[0]! },
        { name: "its first render", of: (f: readonly number[]) => f[1]! },
        { name: "both", of: (f: readonly number[]) => f[0]! + f[1]! },
      ]
    : [
        { name: "median of the processes' medians", of: (f: readonly number[]) => f[0]! },
        { name: "median of the processes' means", of: (f: readonly number[]) => f[1]! },
      ];
  for (const measure of measures) compare(measure.name, figures.ours.map(measure.of), figures.baseline.map(measure.of));
}

function compare(name: string, ours: readonly number[], baseline: readonly number[]): void {
  const list = (values: readonly number[]) =>
    [...values]
      .sort((a, b) => a - b)
      .map((value) => value.toFixed(3))
      .join(" ");
  console.log(`  ${name}: ${median(ours).toFixed(3)} against ${median(baseline).toFixed(3)}: ${(median(ours) / median(baseline)).toFixed(3)}`);
  console.log(`    this tree  ${list(ours)}`);
  console.log(`    baseline   ${list(baseline)}`);
  // The share of (this tree, baseline) process pairs in which this tree's is lower (Mann–Whitney's U
  // over its maximum): ~0.5 when the two do not differ. Processes settle into faster and slower
  // states; the lists above show when a run's are split between two.
  let lower = 0;
  for (const a of ours) for (const b of baseline) lower += a < b ? 1 : a === b ? 0.5 : 0;
  console.log(`    pairs of processes in which this tree's is lower: ${(lower / (ours.length * baseline.length)).toFixed(2)}`);
}

if (args.child !== undefined) await child(args.child);
else {
  if (args.baseline === undefined) throw new Error("--baseline <checkout> is required (see the usage above)");
  const libs = { ours: builtEngineLib(), baseline: builtEngineLib(args.baseline) };
  if (args.phase !== "loaded") phase("idle", libs);
  if (args.phase !== "idle") {
    const stop = busyLoops(2);
    try {
      phase("with two busy loops", libs);
    } finally {
      stop();
    }
  }
}
