/**
 * The cold start the release executable's speed work bought, kept: the instructions of a one-shot
 * render of the small email (fixture `realistic-password-reset`) in each target, measured as
 * bench/RESULTS.md measures them (valgrind's callgrind, the whole process: user-space instructions,
 * which the machine's load does not change), against a budget a little above the figures of the
 * engine it was set for. Run by check-release.ts (`make test-release`); needs valgrind
 * (scripts/bootstrap installs it).
 *
 *   tsx engine/scripts/cold-start-budget.ts [engine/dist/release/linux-x64/mailrender-engine]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CASE = join(ROOT, "fixtures", "render", "realistic-password-reset", "case.json");

/**
 * Millions of instructions per target: the engine's figures when the budget was last set (html 29.8,
 * mjml 25.7, react-email 29.1, with QuickJS's Map hashing, string equality, UTF-8 conversions and
 * bytecode numbers made cheaper: bench/RESULTS.md), plus ~3%. A change that needs more must say why in bench/RESULTS.md and raise the budget there and
 * here.
 */
export const COLD_START_BUDGET = { html: 30.7, mjml: 26.5, "react-email": 30 } as const;

export interface Measured {
  readonly target: keyof typeof COLD_START_BUDGET;
  readonly instructions: number;
  readonly budget: number;
}

/** The instructions of one process run of `binary` (with `args`) with `input` on stdin (callgrind's "Collected"). */
export function instructions(binary: string, input: string, args: readonly string[] = []): number {
  const run = spawnSync("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", binary, ...args], {
    input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw new Error(`valgrind could not run (${run.error.message}): install it (scripts/bootstrap)`);
  const collected = /Collected\s*:\s*(\d+)/.exec(run.stderr)?.[1];
  if (run.status !== 0 || collected === undefined) throw new Error(`valgrind ${binary} exited ${run.status}: ${run.stderr.slice(-500)}`);
  return Number(collected);
}

/** A fixture's engine request, the bytes bench/fixture_request.py writes, as the benchmarks use them. */
export function fixtureRequest(caseFile: string, target: string): string {
  return execFileSync("python3", [join(ROOT, "bench", "fixture_request.py"), caseFile, target], { encoding: "utf8" });
}

/** Each target's cold render of the small email by `binary`, with its budget. */
export function measureColdStart(binary: string): Measured[] {
  const dir = mkdtempSync(join(tmpdir(), "cold-start-"));
  try {
    return (Object.keys(COLD_START_BUDGET) as (keyof typeof COLD_START_BUDGET)[]).map((target) => {
      const request = fixtureRequest(CASE, target);
      writeFileSync(join(dir, `${target}.json`), request);
      return { target, instructions: instructions(binary, request), budget: COLD_START_BUDGET[target] * 1e6 };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): number {
  const binary = resolve(process.argv[2] ?? join(ROOT, "engine", "dist", "release", `${process.platform}-${process.arch}`, "mailrender-engine"));
  let over = 0;
  for (const { target, instructions: count, budget } of measureColdStart(binary)) {
    const ok = count <= budget;
    if (!ok) over++;
    process.stdout.write(
      `${ok ? "ok  " : "FAIL"} cold ${target} render of the small email: ${(count / 1e6).toFixed(1)} M instructions (budget ${budget / 1e6} M)\n`,
    );
  }
  return over === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
