/**
 * The memory a newsletter render touches, kept: the engine's peak resident memory once it has
 * rendered the realistic newsletter, which counts the pages the kernel had to clear for it.
 * mimalloc asks for transparent huge pages, so where the kernel gives them (this machine's
 * `madvise` mode) the figure moves in 2 MiB steps, each a huge page cleared on its first touch
 * (~0.2 ms of a one-shot's ~16 ms here: more than most changes to the engine's code save). The
 * budget is in those steps: the binary (~1.8 MiB), its stack and a heap over three huge pages, not
 * five (build-quickjs.ts, `mimallocFlags`). Where huge pages are off the figure is lower and the
 * budget holds anyway. `make test-release` (check-release.ts) fails above it.
 *
 *   tsx engine/scripts/heap-pages-budget.ts [engine/dist/release/linux-x64/mailrender-engine]
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixtureRequest } from "./cold-start-budget.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "../../..");
const CASE = join(ROOT, "fixtures", "render", "realistic-newsletter", "case.json");

/**
 * KiB of peak resident memory of a `--serve` process that has rendered the newsletter (html) once:
 * 7.7–7.8 MiB when the budget was set (11.7 with mimalloc's own page sizes, 9.7 with its 64 KiB
 * small pages kept), half a huge page under the next step. A one-shot's peak is the same
 * (`/usr/bin/time -f %M`: 7.7, 11.7 and 9.7 MiB), but a parent as large as Node is counted in a
 * child's peak (its memory until the exec), so a `--serve` process is measured.
 */
export const RENDER_PEAK_BUDGET_KIB = 8_960;

/** The peak, KiB, and its budget. */
export async function measureRenderPeak(binary: string): Promise<{ peakKiB: number; budgetKiB: number }> {
  const request = JSON.stringify(JSON.parse(fixtureRequest(CASE, "html")));
  const engine = spawn(binary, ["--serve"], { stdio: ["pipe", "pipe", "inherit"] });
  let answer = "";
  engine.stdout.setEncoding("utf8");
  const answered = new Promise<void>((resolve, reject) => {
    engine.stdout.on("data", (chunk: string) => {
      answer += chunk;
      if (answer.includes("\n")) resolve();
    });
    engine.once("error", reject);
    engine.once("exit", (code) => reject(new Error(`${binary} --serve exited ${code} before answering`)));
  });
  engine.stdin.write(`${request}\n`);
  await answered;
  const peakKiB = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${engine.pid}/status`, "utf8"))?.[1]);
  engine.removeAllListeners("exit");
  engine.stdin.end();
  await once(engine, "close");
  if (!(JSON.parse(answer) as { ok: boolean }).ok) throw new Error(`the newsletter did not render: ${answer.slice(0, 500)}`);
  return { peakKiB, budgetKiB: RENDER_PEAK_BUDGET_KIB };
}

async function main(): Promise<number> {
  const binary = resolve(process.argv[2] ?? join(ROOT, "engine", "dist", "release", `${process.platform}-${process.arch}`, "mailrender-engine"));
  const { peakKiB, budgetKiB } = await measureRenderPeak(binary);
  const ok = peakKiB <= budgetKiB;
  process.stdout.write(
    `${ok ? "ok  " : "FAIL"} a newsletter render's peak resident memory: ${(peakKiB / 1024).toFixed(1)} MiB (budget ${(budgetKiB / 1024).toFixed(2)} MiB)\n`,
  );
  return ok ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();
