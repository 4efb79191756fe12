/**
 * The docs' examples run as written: every TypeScript example of engine/README.md and the
 * repository README's engine example (`@mailrender/engine` being this source), every shell example
 * of engine/README.md (`mailrender-engine` being the executable's source, run by tsx), in a folder
 * holding `template.json` — the example spec/template.md opens with, itself valid and without a
 * content-check error — and `data.json`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBlocks, render, validateTemplate } from "../src/index.js";

const ENGINE = fileURLToPath(new URL("..", import.meta.url));
const ROOT = join(ENGINE, "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

/** The fenced code blocks of a markdown text in `language`, in order. */
function codeBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter((match) => match[1] === language).map((match) => match[2]!);
}

const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");
const engineReadme = read("engine/README.md");
const rootEngineSection = read("README.md").split("## The engine library")[1]?.split("\n## ")[0] ?? "";
const template = JSON.parse(codeBlocks(read("spec/template.md"), "json")[0]!) as { rows: unknown[] };

let dir = "";
beforeAll(() => {
  // Inside engine/, so that the examples' own imports (zod/mini, node:fs) resolve as in a project.
  dir = mkdtempSync(join(ENGINE, ".docs-examples-"));
  writeFileSync(join(dir, "template.json"), JSON.stringify(template, null, 2));
  writeFileSync(
    join(dir, "data.json"),
    JSON.stringify({
      merge_tags: { text: { first_name: "Ada", order_id: "1042" }, url: { tracking: "https://example.com/t/1042" } },
      context: { plan: "pro" },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd: dir, encoding: "utf8", input, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("spec/template.md's example template", () => {
  it("is valid, renders in every target, and its blocks have no content-check error", async () => {
    expect(validateTemplate(template)).toMatchObject({ valid: true, issues: [], warnings: [] });
    for (const target of ["html", "mjml", "react-email"] as const) {
      const { output } = await render(template, { target, dynamicData: { merge_tags: { text: { first_name: "Ada", order_id: "1042" } } } });
      expect(output).toContain("Ada");
    }
    expect(checkBlocks(template).findings.filter((finding) => finding.severity === "error")).toEqual([]);
  });
});

describe("TypeScript examples", () => {
  const examples: (readonly [string, string])[] = codeBlocks(engineReadme, "ts").map((code, i) => [`engine/README.md #${i + 1}`, code] as const);
  examples.push(...codeBlocks(rootEngineSection, "ts").map((code, i) => [`README.md, the engine library #${i + 1}`, code] as const));

  it("are there", () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
  });

  it.each(examples)("%s runs", (_name, code) => {
    const file = join(dir, `example-${Math.random().toString(36).slice(2)}.ts`);
    const index = relative(dir, join(ENGINE, "src", "index.ts"))
      .split("\\")
      .join("/");
    writeFileSync(file, code.replaceAll('from "@mailrender/engine"', `from "${index}"`));
    const result = run(TSX, [file]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).not.toBe("");
  });
});

describe("shell examples of engine/README.md", () => {
  const examples = codeBlocks(engineReadme, "sh").filter((code) => /^[^#]*\bmailrender-engine\b/m.test(code) && !code.includes("npm install"));

  it("are there", () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples.map((code, i) => [`#${i + 1}`, code] as const))("%s runs", (_name, code) => {
    const engine = `mailrender-engine() { "${TSX}" "${join(ENGINE, "src", "cli.ts")}" "$@"; }`;
    const result = run("bash", ["-c", `set -euo pipefail\n${engine}\n${code}`]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    if (!code.includes("--out")) expect(result.stdout).not.toBe("");
    for (const line of result.stdout.split("\n").filter((l) => l.startsWith('{"'))) expect(JSON.parse(line)).toMatchObject({ ok: true });
  });
});
