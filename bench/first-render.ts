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
 * usage: tsx bench/first-render.ts [--processes 3] [--rounds 12] [--warmup 20] [--phase idle|loaded|both] [--per-round]
 *   (--processes: each phase measured in that many new processes of this bench, one after another,
 *    each with its own reference process: a Node process keeps the state it falls into, so one
 *    process's ratio is one draw; the report gives each process's and their median.
 *    --per-round: also each round's medians, warm-up rounds included: how long V8 takes to settle)
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
    processes: { type: "string", default: "3" },
    "per-round": { type: "boolean", default: false },
    // A process of a multi-process run: measures its phase and prints its figures as one JSON line.
    child: { type: "boolean", default: false },
  },
});
const ROUNDS = Number(args.rounds);
const WARMUP_ROUNDS = Number(args.warmup);
const PROCESSES = Number(args.processes);
/** Renders per engine and case in one batch; generated templates: one batch is one set of this many. */
const BATCH = 20;

const { render, compileMjmlToHtml } = await shippedEngine({ built: args.child });

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
      // A process of a multi-process run keeps its stdout for its figures.
      (args.child ? console.error : console.log)(`  round ${round}${round < WARMUP_ROUNDS ? " (warm-up)" : ""}, ours/theirs (ms): ${each.join(", ")}`);
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
  table((label, name, kind) => {
    const p = results[name]!;
    row(label, p, kind === "speed" ? speed(p) : cost(p));
  });
}

/** The report's two parts, (a) then (b), each a header and a row per case: `row` prints a row. */
function table(row: (label: string, name: string, kind: "speed" | "cost") => void): void {
  console.log(
    `  ${"(a) html, a template not seen before".padEnd(34)}${"ours".padStart(11)}${"Maildeno".padStart(11)}   real engine's time / ours (target ≥ 1.0)`,
  );
  row("realistic newsletter", "newsletter", "speed");
  row("generated templates (every block)", "generated", "speed");
  console.log(`  ${"(b) MJML → HTML, the same MJML".padEnd(34)}${"ours".padStart(11)}${"mrml".padStart(11)}   ours / mrml (target ≤ 1.5)`);
  row("realistic newsletter", "compileNewsletter", "cost");
  row("generated templates", "compileGenerated", "cost");
}

type Phase = "idle" | "loaded";
const PHASES: readonly Phase[] = args.phase === "both" ? ["idle", "loaded"] : [args.phase as Phase];
const TITLES: Record<Phase, string> = { idle: "idle", loaded: "with two busy loops" };

/** `phase`'s figures, measured in this process (the loaded phase with two busy loops running throughout). */
async function measurePhase(reference: ReferenceEngines, phase: Phase): Promise<Record<string, Pair>> {
  const stop = phase === "loaded" ? busyLoops(2) : () => {};
  try {
    return await measure(reference, ROUNDS);
  } finally {
    stop();
  }
}

/** What a process of a multi-process run reports of each case. */
interface Figures {
  readonly ours: number;
  readonly theirs: number;
  readonly oursMean: number;
  readonly theirsMean: number;
}
const figuresOf = (results: Record<string, Pair>): Record<string, Figures> =>
  Object.fromEntries(
    Object.entries(results).map(([name, p]) => [name, { ours: median(p.ours), theirs: median(p.theirs), oursMean: mean(p.ours), theirsMean: mean(p.theirs) }]),
  );

/** `phase` measured in a new process of this bench (the engine already built): its figures. */
function measuredInProcess(phase: Phase): Record<string, Figures> {
  const script = fileURLToPath(import.meta.url);
  const perRound = args["per-round"] ? ["--per-round"] : [];
  const output = execFileSync(
    process.execPath,
    [...process.execArgv, script, "--child", "--phase", phase, "--rounds", args.rounds, "--warmup", args.warmup, ...perRound],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return JSON.parse(output.trimEnd().split("\n").at(-1)!) as Record<string, Figures>;
}

/** Each process's ratio of the medians, and their median; for (a) the same of the means. */
function reportProcesses(title: string, processes: readonly Record<string, Figures>[]): void {
  const each = (name: string, ratio: (f: Figures) => number) => processes.map((p) => ratio(p[name]!)).sort((a, b) => a - b);
  const listed = (ratios: readonly number[]) => `${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(", ")})`;
  const ratioOf = {
    speed: (f: Figures) => f.theirs / f.ours,
    cost: (f: Figures) => f.ours / f.theirs,
  };
  const speedOfMeans = (f: Figures) => f.theirsMean / f.oursMean;
  console.log(
    `\n${title} — ${processes.length} processes, each ${ROUNDS} rounds after ${WARMUP_ROUNDS} of warm-up; the medians of the processes' medians, then the median (and each) of their ratios`,
  );
  table((label, name, kind) => {
    const ourMs = median(processes.map((p) => p[name]!.ours));
    const theirMs = median(processes.map((p) => p[name]!.theirs));
    // Means for (a) only, as in one process (report).
    const means = kind === "speed" ? `   means: ${listed(each(name, speedOfMeans))}` : "";
    console.log(`  ${label.padEnd(34)}${ms(ourMs)}${ms(theirMs)}   ${listed(each(name, ratioOf[kind]))}${means}`);
  });
}

const reference = new ReferenceEngines(referencePython());
try {
  if (args.child) {
    console.log(JSON.stringify(figuresOf(await measurePhase(reference, PHASES[0]!))));
  } else {
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
    for (const phase of PHASES) {
      if (PROCESSES <= 1) report(TITLES[phase], await measurePhase(reference, phase));
      else
        reportProcesses(
          TITLES[phase],
          Array.from({ length: PROCESSES }, () => measuredInProcess(phase)),
        );
    }
  }
} finally {
  reference.close();
}
