/**
 * Where the release engine's time goes, by JavaScript function: a sampling profile of one-shot
 * renders of a request. Builds the profiling variant of the host's engine (`build-quickjs.ts
 * --profile`: QuickJS with a timer-driven sampler reading its frames, runtimes/quickjs/profile/
 * sampler.c), runs it `--runs` times on the request, and prints each function's share of the
 * samples: its own (the innermost JavaScript frame, with the C function it was in when that was the
 * innermost) and with what it calls. A function is named by its place in the bundle
 * (engine/dist/.build-quickjs/mailrender-engine.mjs) and the text there; "(start-up)" is what runs
 * before any JavaScript. Wall-clock samples: profile on an idle machine. Asserts nothing.
 *
 * usage: tsx bench/release-profile.ts --request R.json [--runs 100] [--top 40] [--under <function text>] [--callers <function text>] [--sites]
 *   (R.json: `python3 bench/fixture_request.py fixtures/render/realistic-newsletter/case.json html > R.json`;
 *   --under: only the samples inside the first function whose text starts so, e.g. "function compileMjmlToHtml";
 *   --callers: also where the samples inside such a function came from, by the JavaScript functions calling it;
 *   --sites: also where in its source the --under function was, with what it called there: the line
 *   of the engine's source, through the bundle's source map, e.g. the module's top level "var __create")
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    request: { type: "string" },
    runs: { type: "string", default: "100" },
    top: { type: "string", default: "40" },
    under: { type: "string" },
    callers: { type: "string" },
    sites: { type: "boolean", default: false },
  },
});
if (args.request === undefined) throw new Error("--request R.json is required (see the usage above)");
if (args.sites && args.under === undefined) throw new Error("--sites needs --under <function text> (see the usage above)");

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORK = join(ROOT, "engine", "dist", ".build-quickjs");
execFileSync("npx", ["tsx", join(ROOT, "engine", "scripts", "build-quickjs.ts"), "--profile"], { cwd: ROOT, stdio: "inherit" });
const binary = join(WORK, "profile", `${process.platform}-${process.arch}`, "mailrender-engine");
const bundleLines = readFileSync(join(WORK, "mailrender-engine.mjs"), "utf8").split("\n");
const request = readFileSync(args.request);

const samplesDir = mkdtempSync(join(tmpdir(), "release-profile-"));
for (let run = 0; run < Number(args.runs); run++) {
  const result = spawnSync(binary, [], { input: request, env: { ...process.env, QJS_PROFILE_DIR: samplesDir }, maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`the engine failed: ${result.stderr.toString()}`);
}
const stacks = readdirSync(samplesDir).flatMap((file) => readFileSync(join(samplesDir, file), "utf8").split("\n").slice(0, -1));
rmSync(samplesDir, { recursive: true, force: true });

/** C functions by address, from the profiling binary's symbols. */
const symbols = new Map(
  execFileSync("nm", [binary], { encoding: "utf8", maxBuffer: 1 << 26 })
    .split("\n")
    .map((line) => line.split(" "))
    .filter((parts) => parts.length === 3)
    .map(([address, , name]) => [BigInt(`0x${address}`), name as string]),
);

/** A JavaScript frame: `f@line:column>line:column`, where its function starts and where it was. */
const JS_FRAME = /@(\d+):(\d+)>(\d+):(\d+)$/;

/** A JavaScript frame as the bundle's text where its function starts; a C frame as its symbol. */
function label(frame: string): string {
  if (frame.startsWith("C:")) return `C ${symbols.get(BigInt(frame.slice(2))) ?? frame}`;
  const at = JS_FRAME.exec(frame);
  if (at === null) return frame;
  const line = bundleLines[Number(at[1]) - 1] ?? "";
  return `${line.slice(Math.max(0, Number(at[2]) - 1), Number(at[2]) + 70)}  (${at[1]}:${at[2]})`;
}

const sourceMap = args.sites ? new SourceMap(JSON.parse(readFileSync(join(WORK, "mailrender-engine.mjs.map"), "utf8"))) : undefined;

/** Where a JavaScript frame was, as the engine's source file and line (through the bundle's source map). */
function site(frame: string): string {
  const at = JS_FRAME.exec(frame);
  if (at === null || sourceMap === undefined) return "?";
  const entry = sourceMap.findEntry(Number(at[3]) - 1, Number(at[4]) - 1) as { originalSource?: string; originalLine?: number };
  if (entry.originalSource === undefined) return `bundle ${at[3]}:${at[4]}`;
  const source = entry.originalSource.startsWith("file:") ? fileURLToPath(entry.originalSource) : resolve(WORK, entry.originalSource);
  return `${relative(ROOT, source)}:${(entry.originalLine ?? 0) + 1}`;
}

const isJs = (frame: string): boolean => frame.includes("@");
const own = new Map<string, number>();
const within = new Map<string, number>();
const callers = new Map<string, number>();
const sites = new Map<string, number>();
const count = (counts: Map<string, number>, key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
let counted = 0;
for (const stack of stacks) {
  let frames = stack === "" ? [] : stack.split(";");
  if (args.callers !== undefined) {
    const at = frames.findIndex((frame) => isJs(frame) && label(frame).startsWith(args.callers!));
    const caller = frames.slice(0, Math.max(at, 0)).findLast(isJs);
    if (at !== -1) count(callers, caller === undefined ? "(none)" : label(caller));
  }
  if (args.under !== undefined) {
    const at = frames.findIndex((frame) => isJs(frame) && label(frame).startsWith(args.under!));
    if (at === -1) continue;
    frames = frames.slice(at);
    if (args.sites) count(sites, site(frames[0]!));
  }
  counted++;
  const innermost = frames.at(-1);
  const js = frames.findLast(isJs);
  const self = innermost === undefined ? "(start-up)" : innermost === js || js === undefined ? label(innermost) : `${label(js)}  in ${label(innermost)}`;
  count(own, self);
  for (const frame of new Set(frames.filter(isJs))) count(within, label(frame));
}

const top = Number(args.top);
const print = (title: string, counts: Map<string, number>): void => {
  console.log(`\n${title}`);
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * count) / counted).toFixed(1).padStart(5)}%  ${name}`);
};
console.log(`${counted} samples${args.under === undefined ? "" : ` under ${args.under}`} of ${stacks.length}, ${args.runs} runs`);
print("own (the innermost JavaScript function; the C function it was in)", own);
print("with what it calls", within);
if (args.callers !== undefined) print(`what calls ${args.callers} (its samples with what it calls)`, callers);
if (args.sites) print(`where ${args.under} was, in the engine's source (with what it called there)`, sites);
