/**
 * What a template not seen before costs a long-lived release engine (`--serve`), kept: the
 * instructions of a --serve process rendering the realistic newsletter under three names (no
 * parse or compile cached) less those of one rendering it once, per extra template, measured as
 * bench/README.md measures the cold start (valgrind's callgrind, the whole process: the machine's
 * load does not change it). `make test-release` (check-release.ts) fails above the budget.
 *
 *   tsx engine/scripts/serve-new-template-budget.ts [engine/dist/release/linux-x64/mailrender-engine]
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixtureRequest, instructions } from "./cold-start-budget.js";
import { newTemplateRequest } from "./new-template.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "../../..");
const CASE = join(ROOT, "fixtures", "render", "realistic-newsletter", "case.json");
const EXTRA = 2;

/**
 * Millions of instructions per new newsletter template in --serve, its texts new too (new-template.ts):
 * the engine's figure when the budget was last set (51.6 M, the template cache keeping a rendered
 * template's outline rather than its parse: bench/RESULTS.md), plus ~3%. A change that needs more
 * must say why there and raise it here.
 */
export const SERVE_NEW_TEMPLATE_BUDGET = 53;

/** Per new template, and its budget. */
export function measureServeNewTemplate(binary: string): { perTemplate: number; budget: number } {
  const request = JSON.parse(fixtureRequest(CASE, "html")) as {
    template: Record<string, unknown>;
  };
  const lines = (count: number): string => Array.from({ length: count }, (_, n) => `${JSON.stringify(newTemplateRequest(request, n))}\n`).join("");
  const one = instructions(binary, lines(1), ["--serve"]);
  const more = instructions(binary, lines(1 + EXTRA), ["--serve"]);
  return { perTemplate: (more - one) / EXTRA, budget: SERVE_NEW_TEMPLATE_BUDGET * 1e6 };
}

function main(): number {
  const binary = resolve(process.argv[2] ?? join(ROOT, "engine", "dist", "release", `${process.platform}-${process.arch}`, "mailrender-engine"));
  const { perTemplate, budget } = measureServeNewTemplate(binary);
  const ok = perTemplate <= budget;
  process.stdout.write(
    `${ok ? "ok  " : "FAIL"} --serve, a newsletter template not seen before: ${(perTemplate / 1e6).toFixed(1)} M instructions (budget ${budget / 1e6} M)\n`,
  );
  return ok ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
