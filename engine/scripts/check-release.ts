/**
 * Checks engine/dist/release as a user's download would be checked: every binary is listed in
 * SHA256SUMS with its hash, and each one's header says the platform its folder names (ELF / Mach-O
 * / PE and the CPU), and the host's binary keeps its budgets (instructions, a render's memory) and
 * binds a saved layout to the template's bytes. Binaries that can run here are run by
 * scripts/test-engine-release.sh.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { exeName, RELEASE_PLATFORMS } from "./build-quickjs.js";
import { readSha256sums, sha256 } from "./built-binary.js";
import { measureColdStart } from "./cold-start-budget.js";
import { readExecutableFormat } from "./executable-format.js";
import { measureRenderPeak } from "./heap-pages-budget.js";
import { measureSavedLayout, savedLayoutBinding } from "./saved-layout-budget.js";
import { measureServeNewTemplate } from "./serve-new-template-budget.js";

const RELEASE = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "engine", "dist", "release");
let passed = 0;
let failed = 0;
const check = (name: string, ok: boolean, detail: string): void => {
  if (ok) passed++;
  else failed++;
  process.stdout.write(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${detail}`}\n`);
};

const sums = readSha256sums(join(RELEASE, "SHA256SUMS"));
for (const { id } of RELEASE_PLATFORMS) {
  const file = `${id}/${exeName(id)}`;
  const path = join(RELEASE, file);
  if (!existsSync(path)) {
    check(file, false, "missing");
    continue;
  }
  const actual = sha256(path);
  check(`${file} is in SHA256SUMS with its hash`, sums.get(file) === actual, `listed ${sums.get(file) ?? "nothing"}, file has ${actual}`);
  const format = readExecutableFormat(path);
  const expected = id.startsWith("linux") ? "ELF" : id.startsWith("darwin") ? "Mach-O" : "PE";
  check(`${file} is ${expected} for ${id}`, format.format === expected && format.platform === id, `header says ${format.format} ${format.platform}`);
}
const notices = (dir: string): string => (existsSync(join(dir, "THIRD_PARTY_NOTICES")) ? readFileSync(join(dir, "THIRD_PARTY_NOTICES"), "utf8") : "");
check(
  "THIRD_PARTY_NOTICES in the repository is the one this build wrote",
  notices(RELEASE) !== "" && notices(RELEASE) === notices(join(RELEASE, "../../..")),
  "copy engine/dist/release/THIRD_PARTY_NOTICES to the repository root, then run node scripts/sync-versions.mjs",
);
check("SHA256SUMS lists only these binaries", sums.size === RELEASE_PLATFORMS.length, `${sums.size} entries`);
// The host's binary within its cold-start budget (instructions under valgrind; cold-start-budget.ts).
const host = join(RELEASE, `${process.platform}-${process.arch}`, exeName(`${process.platform}-${process.arch}`));
if (existsSync(host)) {
  for (const { target, instructions, budget } of measureColdStart(host)) {
    check(`a cold ${target} render of the small email within ${budget / 1e6} M instructions`, instructions <= budget, `${(instructions / 1e6).toFixed(1)} M`);
  }
  // A fresh process rendering the newsletter from its saved layout (saved-layout-budget.ts).
  const { compiled, compiledBudget, fromLayout, budget } = measureSavedLayout(host);
  check(`the newsletter rendered from its saved layout within ${budget / 1e6} M instructions`, fromLayout <= budget, `${(fromLayout / 1e6).toFixed(1)} M`);
  check(
    `the newsletter compiled from its template, one-shot, within ${compiledBudget / 1e6} M instructions`,
    compiled <= compiledBudget,
    `${(compiled / 1e6).toFixed(1)} M`,
  );
  // A saved layout is bound to the template as the request writes it (spec/README.md, "Saved
  // layouts"): used when the same bytes come back, ignored when the same template is written otherwise.
  const layouts = savedLayoutBinding(host);
  check(
    "a saved layout is used with the template's bytes it was made from, ignored with the template written otherwise, the output the same",
    layouts.same === "used" && layouts.reformatted === "ignored" && layouts.outputsAgree,
    `${layouts.same}, ${layouts.reformatted}`,
  );
  // The memory a render touches, in the kernel's huge pages (heap-pages-budget.ts).
  const { peakKiB, budgetKiB } = await measureRenderPeak(host);
  check(`a newsletter render's peak resident memory within ${(budgetKiB / 1024).toFixed(2)} MiB`, peakKiB <= budgetKiB, `${(peakKiB / 1024).toFixed(1)} MiB`);
  // A long-lived process rendering a template it has not seen (serve-new-template-budget.ts).
  const served = measureServeNewTemplate(host);
  check(
    `--serve: a newsletter template not seen before within ${served.budget / 1e6} M instructions`,
    served.perTemplate <= served.budget,
    `${(served.perTemplate / 1e6).toFixed(1)} M`,
  );
}
process.stdout.write(`release check: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
