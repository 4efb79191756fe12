/**
 * A template the engine has not seen before, against the native engines, in one process run:
 *   (a) the engine library's html render of a new template vs the real Maildeno engine (engine.wasm
 *       of the PyPI package `maildeno` 2.0.7), on the realistic newsletter and on generated templates
 *       covering every block (engine/test/support/generated-templates.ts, seeded);
 *   (b) the engine's MJML → HTML compile (engine/src/mjml-to-html) vs mrml (PyPI `mrml` 0.2.4, the
 *       Rust port of MJML) on the same MJML;
 *   (c) the newsletter's html bytes vs the real engine's (as its package returns them, minified).
 * Both references run in a Python process (bench/reference_engines.py), in a virtualenv this bench
 * installs from PyPI into bench/.reference/ (git-ignored; a dev-only reference, never a dependency).
 * Each engine times its own calls in its own process, in CPU time (on a shared machine, a call's wall
 * time also counts its waits for a core, more of them the longer the call); the compared runs
 * alternate batch by batch, idle and then with two busy loops running. Prints medians, (a)'s means
 * and ratios; asserts nothing.
 *
 * usage: tsx bench/first-render.ts [--rounds 12] [--warmup 20] [--phase idle|loaded|both] [--per-round]
 *   (--per-round: also each round's medians, warm-up rounds included: how long V8 takes to settle)
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { busyLoops } from "./busy-loops.js";
import { type Case, newGenerated, newNewsletters, newsletter } from "./new-templates.js";
import { shippedEngine } from "./shipped-engine.js";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "12" },
    warmup: { type: "string", default: "20" },
    phase: { type: "string", default: "both" },
    "per-round": { type: "boolean", default: false },
  },
});
const ROUNDS = Number(args.rounds);
const WARMUP_ROUNDS = Number(args.warmup);
/** Renders per engine and case in one batch; generated templates: one batch is one set of this many. */
const BATCH = 20;

const { render, compileMjmlToHtml } = await shippedEngine();

const REFERENCE_DIR = fileURLToPath(new URL(".reference/", import.meta.url));
const REFERENCE_PACKAGES = ["maildeno==2.0.7", "mrml==0.2.4", "wasmtime==50.0.1"];

/** The references' virtualenv, made (or remade when the pins change) with pip from PyPI. */
function referencePython(): string {
  const python = `${REFERENCE_DIR}venv/bin/python`;
  const stamp = `${REFERENCE_DIR}venv/installed.txt`;
  const wanted = REFERENCE_PACKAGES.join("\n");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) return python;
  console.log(`installing the reference engines (${REFERENCE_PACKAGES.join(", ")}) into bench/.reference/ …`);
  execFileSync(process.env["PYTHON"] ?? "python3", ["-m", "venv", "--clear", `${REFERENCE_DIR}venv`], { stdio: "inherit" });
  execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...REFERENCE_PACKAGES], { stdio: "inherit" });
  writeFileSync(stamp, wanted);
  return python;
}

/** bench/reference_engines.py, one JSON line per command and per answer. */
class ReferenceEngines {
  private readonly child: ChildProcess;
  private readonly answers: string[] = [];
  private waiting: ((line: string) => void) | undefined;

  constructor(python: string) {
    this.child = spawn(python, [fileURLToPath(new URL("reference_engines.py", import.meta.url))], { stdio: ["pipe", "pipe", "inherit"] });
    createInterface({ input: this.child.stdout! }).on("line", (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else this.answers.push(line);
    });
  }

  async ask<T>(command: object): Promise<T> {
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
    const line = this.answers.shift() ?? (await new Promise<string>((resolve) => (this.waiting = resolve)));
    return JSON.parse(line) as T;
  }

  close(): void {
    this.child.stdin!.end();
  }
}

/** This process's CPU time in milliseconds (every thread: V8's collector and compilers are part of the cost). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options: { type: "minor" }) => void;

/**
 * Before each batch of our renders, untimed, so that the batch's mean counts the collections of its
 * own garbage, not of what the steps before it left. The young generation only: the old one's
 * marking goes on as in a stream of renders (and `gc()` without options, which frees all it can,
 * doubled the medians: bench/RESULTS.md).
 */
function collectYoungGeneration(): void {
  gc({ type: "minor" });
}

async function ours(cases: readonly Case[]): Promise<number[]> {
  collectYoungGeneration();
  const times: number[] = [];
  for (const c of cases) {
    const start = cpuMs();
    await render(c.template, { target: "html", dynamicData: c.dynamicData });
    times.push(cpuMs() - start);
  }
  return times;
}

function ourCompile(documents: readonly string[]): number[] {
  return documents.map((mjml) => {
    const start = cpuMs();
    // Read a character: V8 may return a string as a tree of pieces, joined on first read, a
    // cost of the compile that its caller would otherwise pay (mrml returns one Python string).
    compileMjmlToHtml(mjml).charCodeAt(0);
    return cpuMs() - start;
  });
}

/** The MJML the html target compiles: the mjml target's, unminified (merge tags substituted). */
async function mjmlOf(c: Case): Promise<string> {
  return (await render(c.template, { target: "mjml", dynamicData: c.dynamicData, minify: false })).output;
}

const median = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
/** What a stream of such renders costs a render: the collector's work, which the median leaves out, included. */
const mean = (samples: readonly number[]) => samples.reduce((sum, sample) => sum + sample, 0) / samples.length;

interface Pair {
  readonly ours: number[];
  readonly theirs: number[];
  /** Each counted round's medians, ours and theirs. */
  readonly rounds: (readonly [number, number])[];
}
const pair = (): Pair => ({ ours: [], theirs: [], rounds: [] });

async function measure(reference: ReferenceEngines, rounds: number): Promise<Record<string, Pair>> {
  const results = { newsletter: pair(), generated: pair(), compileNewsletter: pair(), compileGenerated: pair() };
  const compiledNewsletter = await mjmlOf(newsletter);
  const compiledGenerated = await Promise.all(newGenerated(BATCH).map(mjmlOf));
  // The first rounds warm both processes up and are not counted: V8 optimises the engine's code over
  // its first few hundred renders and compiles (how long: bench/README.md, `--per-round`), while the
  // reference engines' code is compiled when loaded.
  for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
    const medians = new Map<number[], number>();
    const keep = (into: number[], times: readonly number[]) => {
      medians.set(into, median(times));
      if (round >= WARMUP_ROUNDS) into.push(...times);
    };
    const newsletters = newNewsletters(BATCH);
    const generated = newGenerated(BATCH);
    const steps: (() => Promise<void>)[] = [
      async () => keep(results.newsletter.ours, await ours(newsletters)),
      async () => keep(results.newsletter.theirs, await theirs(reference, newsletters)),
      async () => keep(results.generated.ours, await ours(generated)),
      async () => keep(results.generated.theirs, await theirs(reference, generated)),
      async () => keep(results.compileNewsletter.ours, ourCompile(Array(BATCH).fill(compiledNewsletter))),
      async () =>
        keep(results.compileNewsletter.theirs, (await reference.ask<{ ms: number[] }>({ op: "mrml", mjml: Array(BATCH).fill(compiledNewsletter) })).ms),
      async () => keep(results.compileGenerated.ours, ourCompile(compiledGenerated)),
      async () => keep(results.compileGenerated.theirs, (await reference.ask<{ ms: number[] }>({ op: "mrml", mjml: compiledGenerated })).ms),
    ];
    // Within each pair, who goes first alternates from round to round.
    for (let i = 0; i < steps.length; i += 2) {
      const [a, b] = round % 2 === 0 ? [steps[i]!, steps[i + 1]!] : [steps[i + 1]!, steps[i]!];
      await a();
      await b();
    }
    if (round >= WARMUP_ROUNDS) for (const p of Object.values(results)) p.rounds.push([medians.get(p.ours)!, medians.get(p.theirs)!]);
    if (args["per-round"]) {
      const each = Object.entries(results).map(([name, p]) => `${name} ${medians.get(p.ours)!.toFixed(3)}/${medians.get(p.theirs)!.toFixed(3)}`);
      console.log(`  round ${round}${round < WARMUP_ROUNDS ? " (warm-up)" : ""}, ours/theirs (ms): ${each.join(", ")}`);
    }
  }
  return results;
}

async function theirs(reference: ReferenceEngines, cases: readonly Case[]): Promise<number[]> {
  const requests = cases.map((c) => JSON.stringify({ template: c.template, target: "html", dynamic_data: c.dynamicData }));
  return (await reference.ask<{ ms: number[] }>({ op: "maildeno", requests })).ms;
}

const ms = (value: number) => `${value.toFixed(3)} ms`.padStart(11);
/** The ratio of the medians, then the median and range of the rounds' own ratios (bench/README.md). */
function ratios(p: Pair, ratio: (ours: number, theirs: number) => number): string {
  const byRound = p.rounds.map(([ourMedian, theirMedian]) => ratio(ourMedian, theirMedian)).sort((a, b) => a - b);
  const range = `${byRound[0]!.toFixed(2)}–${byRound.at(-1)!.toFixed(2)}`;
  return `${ratio(median(p.ours), median(p.theirs)).toFixed(2)}   rounds: ${median(byRound).toFixed(2)} (${range})`;
}
function report(title: string, results: Record<string, Pair>): void {
  const row = (label: string, p: Pair, ratio: string) => console.log(`  ${label.padEnd(34)}${ms(median(p.ours))}${ms(median(p.theirs))}   ${ratio}`);
  // Means for (a) only: the compiles' would carry collections that the renders before them started (bench/README.md).
  const speed = (p: Pair) =>
    `${ratios(p, (ours, theirs) => theirs / ours)}   means: ${(mean(p.theirs) / mean(p.ours)).toFixed(2)} (${mean(p.ours).toFixed(3)} / ${mean(p.theirs).toFixed(3)} ms)`;
  const cost = (p: Pair) => ratios(p, (ours, theirs) => ours / theirs);
  console.log(`\n${title} — CPU time, medians (and for (a), last, means) of ${results["newsletter"]!.ours.length} renders per engine and case`);
  console.log(
    `  ${"(a) html, a template not seen before".padEnd(34)}${"ours".padStart(11)}${"Maildeno".padStart(11)}   real engine's time / ours (target ≥ 1.0)`,
  );
  row("realistic newsletter", results["newsletter"]!, speed(results["newsletter"]!));
  row("generated templates (every block)", results["generated"]!, speed(results["generated"]!));
  console.log(`  ${"(b) MJML → HTML, the same MJML".padEnd(34)}${"ours".padStart(11)}${"mrml".padStart(11)}   ours / mrml (target ≤ 1.5)`);
  row("realistic newsletter", results["compileNewsletter"]!, cost(results["compileNewsletter"]!));
  row("generated templates", results["compileGenerated"]!, cost(results["compileGenerated"]!));
}

const reference = new ReferenceEngines(referencePython());
try {
  const ourHtml = (await render(newsletter.template, { target: "html", dynamicData: newsletter.dynamicData })).output;
  const { html: theirHtml } = await reference.ask<{ html: string }>({
    op: "maildeno_html",
    request: JSON.stringify({ template: newsletter.template, target: "html", dynamic_data: newsletter.dynamicData }),
  });
  const bytes = (html: string) => Buffer.byteLength(html);
  console.log(`first render of a new template, ours (node ${process.version}) vs the native engines in one run, interleaved`);
  console.log(
    `(c) newsletter html: ours ${bytes(ourHtml)} B, the real engine ${bytes(theirHtml)} B: ${(bytes(ourHtml) / bytes(theirHtml)).toFixed(2)}× (target ≤ 1.5); gzip ${gzipSync(ourHtml).length} / ${gzipSync(theirHtml).length} B: ${(gzipSync(ourHtml).length / gzipSync(theirHtml).length).toFixed(2)}×`,
  );
  if (args.phase !== "loaded") report("idle", await measure(reference, ROUNDS));
  if (args.phase !== "idle") {
    const stop = busyLoops(2);
    try {
      report("with two busy loops", await measure(reference, ROUNDS));
    } finally {
      stop();
    }
  }
} finally {
  reference.close();
}
