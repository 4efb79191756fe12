/**
 * The human CLI (render, validate, inspect, --version, --help) in-process through runMain, with
 * real files and the real engine. The protocol modes are covered by protocol*.test.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runMain } from "../src/executable/main.js";
import { warmupTemplate } from "../src/executable/warmup.js";
import { createEngine, nodeFiles, textSink } from "./support/engine-port.js";

const WARMUP = warmupTemplate();

import { ENGINE_VERSION, inspectTemplate, render, validateTemplate } from "../src/index.js";

let dir = "";
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mailrender-cli-"));
  writeFileSync(file("t.json"), JSON.stringify(WARMUP));
  writeFileSync(file("invalid.json"), JSON.stringify({ rows: 3 }));
  writeFileSync(file("broken.json"), "{ not json");
  writeFileSync(file("d.json"), JSON.stringify({ merge_tags: { text: { first_name: "Grace" } }, context: { plan: "pro" } }));
  writeFileSync(file("bad-data.json"), JSON.stringify({ merge_tags: { text: { first_name: 3 } } }));
});

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runMain(argv, {
    createEngine,
    stdin: (async function* () {})(),
    stdout: textSink((s) => (stdout += s)),
    stderr: textSink((s) => (stderr += s)),
    files: nodeFiles,
  });
  return { code, stdout, stderr };
}

describe("render", () => {
  it("prints the library's output for the template and data, nothing added", async () => {
    const run = await cli("render", "--template", file("t.json"), "--data", file("d.json"), "--target", "mjml");
    const direct = await render(WARMUP, { target: "mjml", dynamicData: { merge_tags: { text: { first_name: "Grace" } }, context: { plan: "pro" } } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(direct.output);
  });

  it("--out writes the file; --no-minify and --strict reach the engine", async () => {
    const run = await cli("render", "--template", file("t.json"), "--target", "html", "--out", file("out.html"), "--no-minify");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(readFileSync(file("out.html"), "utf8")).toBe((await render(WARMUP, { target: "html", minify: false })).output);
    const strictLibrary = await render(WARMUP, { target: "html", strict: true }).then(
      () => 0,
      () => 1,
    );
    expect((await cli("render", "--template", file("t.json"), "--target", "html", "--strict")).code).toBe(strictLibrary);
  });

  it("--plain-text prints the plain-text version instead of the output", async () => {
    const run = await cli("render", "--template", file("t.json"), "--data", file("d.json"), "--target", "html", "--plain-text");
    const direct = await render(WARMUP, {
      target: "html",
      dynamicData: { merge_tags: { text: { first_name: "Grace" } }, context: { plan: "pro" } },
      plainText: true,
    });
    expect(run.code).toBe(0);
    expect(direct.text).toMatch(/\S/);
    expect(run.stdout).toBe(direct.text);
  });

  it("an invalid template: exit 1 and the issues on stderr", async () => {
    const run = await cli("render", "--template", file("invalid.json"), "--target", "html");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: /);
  });

  it.each([
    ["no target", ["render", "--template", "t.json"]],
    ["an unknown target", ["render", "--template", "t.json", "--target", "pdf"]],
    ["no template", ["render", "--target", "html"]],
    ["an unknown option", ["render", "--template", "t.json", "--target", "html", "--pretty"]],
    ["a missing file", ["render", "--template", "missing.json", "--target", "html"]],
    ["a file that is not JSON", ["render", "--template", "broken.json", "--target", "html"]],
    ["data of the wrong shape", ["render", "--template", "t.json", "--target", "html", "--data", "bad-data.json"]],
  ])("%s: exit 2, a message on stderr, nothing on stdout", async (_name, argv) => {
    const run = await cli(...argv.map((a) => (a.endsWith(".json") ? file(a) : a)));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/error: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("validate and inspect", () => {
  it("validate prints the library's report; exit 0 when valid, 1 when not", async () => {
    const ok = await cli("validate", "--template", file("t.json"));
    expect(JSON.parse(ok.stdout)).toEqual(JSON.parse(JSON.stringify(validateTemplate(WARMUP))));
    expect(ok.code).toBe(0);
    const bad = await cli("validate", "--template", file("invalid.json"));
    expect(JSON.parse(bad.stdout)).toEqual(JSON.parse(JSON.stringify(validateTemplate({ rows: 3 }))));
    expect(bad.code).toBe(1);
  });

  it("inspect prints the library's report as JSON", async () => {
    const run = await cli("inspect", "--template", file("t.json"));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(inspectTemplate(WARMUP))));
  });
});

describe("flags", () => {
  it("--version names the engine and protocol versions", async () => {
    expect(await cli("--version")).toEqual({ code: 0, stdout: `mailrender-engine ${ENGINE_VERSION} (protocol 1)\n`, stderr: "" });
  });

  it("--help prints usage on stdout; an unknown command is exit 2 with usage on stderr", async () => {
    const help = await cli("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes: 0 rendered, 1 render or validation error, 2/);
    const wrong = await cli("frobnicate");
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe("");
    expect(wrong.stderr).toMatch(/unknown argument "frobnicate"/);
    expect((await cli("--serve", "extra")).code).toBe(2);
  });
});
