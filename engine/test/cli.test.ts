/**
 * The human CLI (render, validate, inspect, --version, --help) in-process through runMain, with
 * real files and the real engine. The protocol modes are covered by protocol*.test.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runMain } from "../src/executable/main.js";
import { warmupTemplate } from "../src/executable/warmup.js";
import { createEngine, nodeFiles, textSink } from "./support/engine-port.js";

const WARMUP = warmupTemplate();
/**
 * The SARIF 2.1.0 schema (OASIS, draft-04) with the JSON Schema validator it is published for:
 * both as @microsoft/jest-sarif ships them (ajv 6, which reads draft-04).
 */
const validSarif = (() => {
  const sarifPackage = createRequire(import.meta.url).resolve("@microsoft/jest-sarif/package.json");
  const local = createRequire(sarifPackage);
  const Ajv6 = local("ajv") as new (
    options: object,
  ) => { addMetaSchema(s: object): void; compile(s: object): ((v: unknown) => boolean) & { errors?: unknown } };
  const ajv = new Ajv6({ schemaId: "auto", allErrors: true });
  ajv.addMetaSchema(local("ajv/lib/refs/json-schema-draft-04.json"));
  return ajv.compile(local("./lib/schemas/sarif-2.1.0-rtm.5.json"));
})();

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
  const button = (props: Record<string, unknown>) => ({
    template_id: "t",
    template_name: "t",
    schema_version: "1.0",
    canvas: { language: "en-GB" },
    rows: [
      {
        columns: [
          { children: [{ type: "component", componentType: "button", props: { text: "Go", color: "#ffffff", backgroundColor: "#1d4ed8", ...props } }] },
        ],
      },
    ],
  });
  writeFileSync(file("unclosed-link.json"), JSON.stringify(button({ link: "{{url.dashboard}" }), null, 2));
  writeFileSync(file("typo.json"), JSON.stringify(button({ link: "https://example.com", bgColor: "#111827" }), null, 2));
  // Radial: Outlook for Windows draws it in no VML (a linear one is no finding there).
  const gradient = { useGradient: true, gradient: { type: "radial", direction: "circle", colors: [{ color: "#1e3a8a" }, { color: "#1d4ed8" }] } };
  writeFileSync(file("gradient.json"), JSON.stringify(button({ link: "https://example.com", backgroundGradient: gradient })));
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

  it("--component-props prints the library's component; with --data it is a usage error naming both", async () => {
    const run = await cli("render", "--template", file("t.json"), "--target", "react-email", "--component-props");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await render(WARMUP, { target: "react-email", componentProps: true })).output);
    const refused = await cli("render", "--template", file("t.json"), "--data", file("d.json"), "--target", "react-email", "--component-props");
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^error: --component-props writes a component for every recipient: .* not in --data/);
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
  it("validate --format json prints the library's result; exit 0 when it passes, 1 when the template cannot be rendered", async () => {
    const ok = await cli("validate", "--template", file("t.json"), "--format", "json");
    expect(JSON.parse(ok.stdout)).toEqual(JSON.parse(JSON.stringify(validateTemplate(WARMUP))));
    expect(ok.code).toBe(0);
    const bad = await cli("validate", "--template", file("invalid.json"), "--format", "json");
    expect(JSON.parse(bad.stdout)).toEqual(JSON.parse(JSON.stringify(validateTemplate({ rows: 3 }))));
    expect(bad.code).toBe(1);
  });

  it("validate prints each finding at its line in the file, with its fix; an error fails, a warning only with --strict", async () => {
    const link = await cli("validate", "--template", file("unclosed-link.json"));
    expect(link.code).toBe(1);
    const line =
      readFileSync(file("unclosed-link.json"), "utf8")
        .split("\n")
        .findIndex((l) => l.includes("{{url.dashboard}")) + 1;
    expect(link.stdout).toContain(`${file("unclosed-link.json")}:${line}:`);
    expect(link.stdout).toContain("error    MERGE_TAG_UNCLOSED  rows/0/columns/0/children/0/props/link");
    expect(link.stdout).toContain("fix: Close it with two: {{url.dashboard}}");
    expect(link.stdout).toMatch(/valid; 1 error, 0 warnings, 0 notes; fails\n$/);
    const typo = await cli("validate", "--template", file("typo.json"));
    expect(typo.code).toBe(0);
    expect(typo.stdout).toContain('fix: Did you mean "backgroundColor"?');
    expect((await cli("validate", "--template", file("typo.json"), "--strict")).code).toBe(1);
  });

  it("validate --format sarif writes SARIF 2.1.0 (the OASIS schema) locating each result by line and JSON Pointer", async () => {
    const run = await cli("validate", "--template", file("unclosed-link.json"), "--format", "sarif");
    const sarif = JSON.parse(run.stdout);
    expect(validSarif(sarif), JSON.stringify(validSarif.errors)).toBe(true);
    const [result] = sarif.runs[0].results;
    expect(result).toMatchObject({
      ruleId: "MERGE_TAG_UNCLOSED",
      level: "error",
      properties: { jsonPointer: "/rows/0/columns/0/children/0/props/link", value: "{{url.dashboard}" },
    });
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toMatch(/^file:\/\/.*unclosed-link\.json$/);
    expect(result.locations[0].physicalLocation.region.startLine).toBeGreaterThan(1);
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(["MERGE_TAG_UNCLOSED"]);
  });

  it("validate --clients checks mail-client support; an unknown family is a usage error naming the families", async () => {
    const gradient = await cli("validate", "--template", file("gradient.json"), "--clients", "outlook,gmail", "--format", "json");
    expect(gradient.code).toBe(0);
    expect(JSON.parse(gradient.stdout).findings.map((f: { code: string; path: string[] }) => [f.code, f.path.join("/")])).toContainEqual([
      "CLIENT_UNSUPPORTED",
      "rows/0/columns/0/children/0",
    ]);
    const typo = await cli("validate", "--template", file("gradient.json"), "--clients", "outlok");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--clients: Unknown mail-client families "outlok": the families are apple-mail, gmail, outlook');
  });

  it("validate --data checks against sample data, and says where a misplaced value goes", async () => {
    writeFileSync(file("flat-data.json"), JSON.stringify({ merge_tags: { first_name: "Ada" } }));
    const flat = await cli("validate", "--template", file("t.json"), "--data", file("flat-data.json"));
    expect(flat.code).toBe(2);
    expect(flat.stderr).toContain("put first_name under merge_tags.text, .url or .attr");
    const withData = await cli("validate", "--template", file("t.json"), "--data", file("d.json"), "--format", "json");
    expect(JSON.parse(withData.stdout).findings.map((f: { code: string }) => f.code)).toContain("MERGE_TAG_NO_VALUE");
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
    expect(help.stdout).toMatch(/Exit codes: 0 rendered \(or the checks passed\), 1 render error or the checks failed, 2/);
    const wrong = await cli("frobnicate");
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe("");
    expect(wrong.stderr).toMatch(/unknown argument "frobnicate"/);
    expect((await cli("--serve", "extra")).code).toBe(2);
  });
});
