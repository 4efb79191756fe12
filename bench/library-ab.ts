/**
 * A change to the engine library, measured as an application holds the library: one copy in a
 * process. Processes alternate between this checkout's `engine/lib` and a baseline checkout's (the
 * tree before the change, its node_modules installed); each renders templates it has not seen (the
 * realistic newsletter in its hydrated form under a new id with new texts, or generated templates
 * covering every block), warms up, then times each html render in CPU; the parent prints each
 * side's processes' medians, the median of them and the ratio. Two copies of the library in one
 * process are not how an application holds it: they share the process's V8 state (loading a second
 * one moved the first-render bench's own comparisons by half, bench/RESULTS.md). The medians of
 * eight processes move by ±4% between runs: a change of a few percent needs a dozen or more a side.
 * Asserts nothing.
 *
 * usage: tsx bench/library-ab.ts --baseline <checkout> [--processes 10] [--warmup 300] [--renders 600]
 *        [--case newsletter|generated] [--phase idle|loaded|both]
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { busyLoops } from "./busy-loops.js";
import { type Case, newGenerated, newNewsletters } from "./new-templates.js";
import { builtEngineLib } from "./shipped-engine.js";

const { values: args } = parseArgs({
  options: {
    baseline: { type: "string" },
    processes: { type: "string", default: "10" },
    warmup: { type: "string", default: "300" },
    renders: { type: "string", default: "600" },
    case: { type: "string", default: "newsletter" },
    phase: { type: "string", default: "both" },
    child: { type: "string" },
  },
});

/** An endless supply of templates no render has seen. */
function newCases(kind: string): () => Case {
  let pending: Case[] = [];
  return () => {
    if (pending.length === 0) pending = kind === "generated" ? newGenerated(20) : newNewsletters(20);
    return pending.pop()!;
  };
}

/** A child process: one library, its renders' CPU median on stdout (milliseconds). */
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
  process.stdout.write(`${median(times)}\n`);
}

const median = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;

function runChild(lib: string): number {
  const output = execFileSync(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--child", lib, "--case", args.case, "--warmup", args.warmup, "--renders", args.renders],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  return Number(output.trim());
}

function phase(title: string, libs: { ours: string; baseline: string }): void {
  const times = { ours: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < Number(args.processes); i++) {
    // Who goes first alternates, process pair by process pair.
    const order = i % 2 === 0 ? (["ours", "baseline"] as const) : (["baseline", "ours"] as const);
    for (const side of order) times[side].push(runChild(libs[side]));
  }
  const list = (values: readonly number[]) =>
    [...values]
      .sort((a, b) => a - b)
      .map((value) => value.toFixed(3))
      .join(" ");
  console.log(`\n${title}: ${args.case}, CPU of an html render (ms), each process's median of ${args.renders} after ${args.warmup}`);
  console.log(`  this tree  ${list(times.ours)}`);
  console.log(`  baseline   ${list(times.baseline)}`);
  console.log(
    `  median of the processes' medians: ${median(times.ours).toFixed(3)} against ${median(times.baseline).toFixed(3)}: ${(median(times.ours) / median(times.baseline)).toFixed(3)}`,
  );
  // The share of (this tree, baseline) process pairs in which this tree's is lower (Mann–Whitney's U
  // over its maximum): ~0.5 when the two do not differ. Processes settle into faster and slower
  // states; the lists above show when a run's are split between two.
  let lower = 0;
  for (const ours of times.ours) for (const theirs of times.baseline) lower += ours < theirs ? 1 : ours === theirs ? 0.5 : 0;
  console.log(`  pairs of processes in which this tree's is lower: ${(lower / (times.ours.length * times.baseline.length)).toFixed(2)}`);
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
