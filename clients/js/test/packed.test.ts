/**
 * The published artefact, not the source tree: `npm pack` the engine and the client, install both
 * tarballs into a throwaway project (offline, from the npm cache), then use the package the way a
 * consumer would — import from ESM, require from CommonJS, render against the real server — and
 * type-check a consumer file in each module format with tsc (skipLibCheck off, so our .d.ts files
 * and the engine's are checked too).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailrenderClient } from "../src/index.js";
import { createKey, createTemplate, sampleTemplate } from "./helpers/admin.js";
import { CLIENT_DIR, REPO_ROOT } from "./helpers/paths.js";
import { type RealServer, startServer } from "./helpers/server.js";

const run = promisify(execFile);
const TSC = path.join(REPO_ROOT, "node_modules/.bin/tsc");

/** npm without the npm_* variables an outer `npm run`/workspace invocation may have set. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return env;
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", args, { cwd, env: npmEnv(), maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

let work: string;
let project: string;
let server: RealServer;
let apiKey: string;
let templateId: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), "mailrender-packed-"));
  project = path.join(work, "consumer");
  // --ignore-scripts: the suite's global setup built dist/ already; a prepack rebuild would replace it
  // under the other test files (the prepack itself is tested below, on a copy).
  await npm(["pack", "--silent", "--ignore-scripts", "--pack-destination", work, path.join(REPO_ROOT, "engine"), CLIENT_DIR], REPO_ROOT);
  const tarballs = readdirSync(work)
    .filter((f) => f.endsWith(".tgz"))
    .map((f) => path.join(work, f));
  const version = (dir: string): string => (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  expect(tarballs.map((t) => path.basename(t)).sort()).toEqual([
    `mailrender-client-${version(CLIENT_DIR)}.tgz`,
    `mailrender-engine-${version(path.join(REPO_ROOT, "engine"))}.tgz`,
  ]);

  mkdirSync(project);
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, version: "0.0.0" }));
  const install = ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs];
  try {
    await npm(["--offline", ...install], project);
  } catch {
    // A cache missing one of the engine's dependencies: allow the registry for those only.
    await npm(["--prefer-offline", ...install], project);
  }

  server = await startServer();
  apiKey = (await createKey(server, ["html", "mjml"])).key;
  templateId = await createTemplate(server, sampleTemplate("Packed"));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships only dist/, README, CHANGELOG and LICENSE besides package.json", async () => {
    const listing = JSON.parse(await npm(["pack", "--dry-run", "--ignore-scripts", "--json", CLIENT_DIR], work)) as { files: { path: string }[] }[];
    const files = listing[0]!.files.map((f) => f.path);
    expect(files).toContain("dist/esm/index.js");
    expect(files).toContain("dist/cjs/index.js");
    expect(files).toContain("dist/cjs/index.d.ts");
    expect(files).toContain("CHANGELOG.md");
    expect(files).toContain("LICENSE");
    expect(files.filter((f) => !/^(dist\/|README\.md$|CHANGELOG\.md$|LICENSE$|package\.json$)/.test(f))).toEqual([]);
  });

  it("renders from ESM and from CommonJS, equal to the source tree's output", async () => {
    const expected = await new MailrenderClient({ apiKey, baseUrl: server.url }).renderHtml(templateId, { merge_tags: { text: { first_name: "Pack" } } });
    const body = (load: string) => `${load}
const client = new MailrenderClient({ apiKey: process.env.KEY, baseUrl: process.env.URL });
client.render({ templateId: process.env.ID, dynamicData: { merge_tags: { text: { first_name: "Pack" } } } }).then(async (r) => {
  let forbidden = "";
  try { await client.renderReact(process.env.ID); } catch (e) { forbidden = (e instanceof MailrenderError) + " " + e.code; }
  let removed = "";
  try { new MailrenderClient({ apiKey: "k", cacheTtl: 5 }); } catch (e) { removed = e.message; }
  process.stdout.write(JSON.stringify({ output: r.output, stale: r.fromStaleCache, forbidden, removed }));
});`;
    writeFileSync(path.join(project, "esm.mjs"), body(`import { MailrenderClient, MailrenderError } from "@mailrender/client";`));
    writeFileSync(path.join(project, "cjs.cjs"), body(`const { MailrenderClient, MailrenderError } = require("@mailrender/client");`));
    for (const file of ["esm.mjs", "cjs.cjs"]) {
      const { stdout } = await run(process.execPath, [file], { cwd: project, env: { ...process.env, KEY: apiKey, URL: server.url, ID: templateId } });
      const got = JSON.parse(stdout) as { output: string; stale: boolean; forbidden: string; removed: string };
      expect(got.output, file).toBe(expected);
      expect(got.stale).toBe(false);
      expect(got.forbidden).toBe("true FORBIDDEN");
      expect(got.removed).toContain("cache: { ttl, maxEntries }");
    }
  });

  it("resolves the CommonJS build for require() and the ESM build for import", async () => {
    const cjs = await run(process.execPath, ["-e", `process.stdout.write(require.resolve("@mailrender/client"))`], { cwd: project });
    expect(cjs.stdout).toBe(path.join(project, "node_modules/@mailrender/client/dist/cjs/index.js"));
    const esm = await run(process.execPath, ["--input-type=module", "-e", `process.stdout.write(import.meta.resolve("@mailrender/client"))`], { cwd: project });
    expect(esm.stdout).toBe(`file://${path.join(project, "node_modules/@mailrender/client/dist/esm/index.js")}`);
  });

  it("type-checks a consumer in ESM and in CommonJS, and rejects the removed cacheTtl / cacheMaxEntries", async () => {
    const consumer = (importLine: string) => `${importLine}

const config: MailrenderConfig = { apiKey: "sk_test", timeout: 5_000, cache: { type: "disk", path: ".cache", ttl: 60_000, maxEntries: 10 } };
const client = new MailrenderClient(config);
const options: RenderOptions = { templateId: "id", target: "mjml", dynamicData: { merge_tags: { text: { a: "b" } }, context: { n: 1, b: true } } };
const result: Promise<RenderResult> = client.render(options);
const html: Promise<string> = client.renderHtml("id");
const target: RenderTarget = "react-email";
const cacheConfig: CacheConfig = { type: "memory" };
const template: TemplateJson = { template_id: "t", template_name: "n", schema_version: "1.0", canvas: {}, rows: [] };
const issue: ValidationIssue = { loc: ["a"], msg: "m", type: "t" };
const code: ErrorCode = "NETWORK_ERROR";
const ids: string[] = client.listCached();
const deleted: boolean = client.deleteCached("id");
const cleared: Promise<void> = client.clearCache();
const data: DynamicData = {};
function handle(e: unknown): number { return e instanceof MailrenderError ? e.status : -1; }
// @ts-expect-error cacheTtl was removed in 2.1.0 (use cache: { ttl })
new MailrenderClient({ apiKey: "k", cacheTtl: 1000 });
// @ts-expect-error cacheMaxEntries was removed in 2.1.0 (use cache: { maxEntries })
new MailrenderClient({ apiKey: "k", cacheMaxEntries: 10 });
// @ts-expect-error "pdf" is not a render target
client.render({ templateId: "id", target: "pdf" });
void [result, html, target, cacheConfig, template, issue, code, ids, deleted, cleared, data, handle];
`;
    const names =
      "MailrenderClient, MailrenderError, type CacheConfig, type DynamicData, type ErrorCode, type MailrenderConfig, type RenderOptions, type RenderResult, type RenderTarget, type TemplateJson, type ValidationIssue";
    writeFileSync(path.join(project, "consumer.mts"), consumer(`import { ${names} } from "@mailrender/client";`));
    writeFileSync(path.join(project, "consumer.cts"), consumer(`import { ${names} } from "@mailrender/client";`));
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2023", "dom"],
          strict: true,
          exactOptionalPropertyTypes: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["consumer.mts", "consumer.cts"],
      }),
    );
    const result = await run(TSC, ["-p", project], { cwd: project }).catch((e: { stdout?: string }) => ({ stdout: `FAILED\n${e.stdout ?? ""}` }));
    expect(result.stdout).toBe("");
  }, 120_000);

  it("follows the README's quick start literally (only the template id is the user's own)", async () => {
    const readme = readFileSync(path.join(CLIENT_DIR, "README.md"), "utf8");
    const code = /## Quick start\n+```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    const script = code!.replace(/const templateId = "[^"]+";/, `const templateId = ${JSON.stringify(templateId)};`);
    expect(script).not.toBe(code);
    writeFileSync(path.join(project, "quickstart.mjs"), `${script}\nprocess.stdout.write(html);\n`);
    const env = { ...process.env, MAILRENDER_API_KEY: apiKey, MAILRENDER_BASE_URL: server.url };
    const { stdout } = await run(process.execPath, ["quickstart.mjs"], { cwd: project, env });
    expect(stdout).toContain("Packed Ada");
  });

  it("npm pack builds the package first (prepack), so a pack from a clean checkout ships code", async () => {
    // A copy of the package without dist/, at the same depth so that its build finds the repo's tools.
    const copy = mkdtempSync(path.join(REPO_ROOT, "clients", ".pack-check-"));
    try {
      for (const item of ["package.json", "src", "scripts", "tsconfig.build.json", "README.md", "CHANGELOG.md"]) {
        cpSync(path.join(CLIENT_DIR, item), path.join(copy, item), { recursive: true });
      }
      const out = await npm(["pack", "--dry-run", "--json"], copy);
      const listing = JSON.parse(out.slice(out.indexOf("\n[") + 1)) as { files: { path: string }[] }[];
      const files = listing[0]!.files.map((f) => f.path);
      expect(files).toContain("dist/esm/index.js");
      expect(files).toContain("dist/cjs/index.js");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 180_000);

  it("runs on the lowest Node.js its engines field declares", async () => {
    const declared = (JSON.parse(readFileSync(path.join(CLIENT_DIR, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
    const floor = /^>=(\d+\.\d+)$/.exec(declared)?.[1];
    expect(floor, declared).toBeDefined();
    // That Node release from the npm registry (the same source as the engine executable's runtime).
    const dir = mkdtempSync(path.join(work, "node-floor-"));
    const runtime = `node-${process.platform}-${process.arch}@${floor!}.0`;
    await npm(["pack", "--silent", "--pack-destination", dir, runtime], dir);
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    await run("tar", ["-xzf", path.join(dir, tarball), "-C", dir]);
    writeFileSync(
      path.join(project, "floor.mjs"),
      `import { MailrenderClient } from "@mailrender/client";
const client = new MailrenderClient({ apiKey: process.env.KEY, baseUrl: process.env.URL });
const html = await client.renderHtml(process.env.ID, { merge_tags: { text: { first_name: "Floor" } } });
process.stdout.write(process.version + " " + html);`,
    );
    const env = { ...process.env, KEY: apiKey, URL: server.url, ID: templateId };
    const { stdout } = await run(path.join(dir, "package", "bin", "node"), ["floor.mjs"], { cwd: project, env });
    expect(stdout.startsWith(`v${floor!}.0 `)).toBe(true);
    expect(stdout).toContain("Packed Floor");
  }, 240_000);
});
