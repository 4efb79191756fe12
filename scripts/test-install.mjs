#!/usr/bin/env node
/**
 * `make test-install`: what a new user does with `dist/` (make packages), done outside the
 * repository, in a temp directory:
 *
 *   the service  @mailrender/server installed from its tarball as docs/operations.md says, its
 *                systemd unit checked by `systemd-analyze verify` and its commands run as systemd
 *                would run them (ExecStartPre, ExecStart, the settings file, SIGTERM), on the
 *                oldest Node.js its `engines` field accepts; an admin key from the CLI, a render
 *                key and a template through the API, a backup taken while it serves;
 *   each client  its README's "From a checkout" commands, as written, in a clean npm project (run
 *                on the oldest Node.js its `engines` field accepts), a clean virtualenv (httpx from
 *                the package index, the engine from the wheel) and a clean composer project (the
 *                PHP quick start first without an engine: a clear error, not a crash); then the
 *                README's example as written, and a render of the template that must equal the
 *                engine library's output byte for byte;
 *   the engine   @mailrender/engine installed from its tarball in a clean npm project (on the oldest
 *                Node.js its `engines` field accepts): its README's block of your own, whose schema
 *                comes from the project's zod beside the copy bundled in the library.
 *
 * The Node.js releases come from the npm registry (`node-<os>-<arch>` packages), like the engine's
 * runtime. Prints one line per check and `install recipes: N passed, N failed`.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const WORK = mkdtempSync(path.join(os.tmpdir(), "mailrender-install-"));
const README = (dir) => readFileSync(path.join(ROOT, dir, "README.md"), "utf8");
const started = Date.now();
let passed = 0;
let failed = 0;
const children = [];

/** The data every client renders the template with; the name checks escaping in each language. */
const DATA = { merge_tags: { text: { first_name: "Ada <Lovelace> & co" } }, context: {} };

function say(line) {
  process.stdout.write(`[install ${((Date.now() - started) / 1000).toFixed(0)}s] ${line}\n`);
}

async function check(name, fn) {
  const at = Date.now();
  try {
    await fn();
    passed++;
    say(`ok   ${name} (${((Date.now() - at) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    say(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** npm, pip, composer and friends without the variables an outer `npm run` or make may have set. */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|MAILRENDER_|DATABASE_URL$|MAKE|MFLAGS)/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

function sh(command, cwd, env = cleanEnv()) {
  try {
    return execFileSync("bash", ["-euo", "pipefail", "-c", command], {
      cwd,
      env,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    throw new Error(`\`${command}\` failed (exit ${error.status}):\n${String(error.stderr ?? "").slice(-3000)}${String(error.stdout ?? "").slice(-1500)}`);
  }
}

/** The shell commands of the fenced block that follows `heading` (and, optionally, a later marker) in a README. */
function block(markdown, heading, lang) {
  const at = markdown.indexOf(heading);
  assert(at >= 0, `no "${heading}" section`);
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(markdown.slice(at));
  assert(match !== null, `no \`\`\`${lang} block after "${heading}"`);
  return match[1];
}

/** The README's checkout recipe, with the repository where the reader's checkout is. */
function recipe(markdown) {
  const section = markdown.slice(markdown.indexOf("### From a checkout"));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert(blocks[0]?.trim() === "make packages", "the recipe starts with `make packages` in the checkout");
  assert(blocks.length >= 2, "the recipe has the project's commands after `make packages`");
  return blocks[1].replaceAll("/path/to/mailrender", ROOT);
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The Node.js release `version` for this machine, from the npm registry (cached in WORK). */
function nodeRelease(version) {
  const dir = path.join(WORK, `node-${version}`);
  if (!existsSync(path.join(dir, "package", "bin", "node"))) {
    mkdirSync(dir, { recursive: true });
    sh(`npm pack --silent node-${process.platform}-${process.arch}@${version}`, dir);
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"));
    sh(`tar -xzf ${tarball}`, dir);
  }
  return path.join(dir, "package", "bin");
}

/** The oldest Node.js a package's `engines` field accepts (">=X.Y" → X.Y.0). */
function floorOf(packageJson) {
  const declared = JSON.parse(readFileSync(packageJson, "utf8")).engines?.node ?? "";
  const floor = /^>=(\d+)\.(\d+)$/.exec(declared);
  assert(floor !== null, `${packageJson}: engines.node is "${declared}", not ">=X.Y"`);
  return `${floor[1]}.${floor[2]}.0`;
}

/** KEY=value lines as systemd's EnvironmentFile reads them. */
function environmentFile(file) {
  const env = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m !== null) env[m[1]] = m[2];
  }
  return env;
}

function start(command, args, options) {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  child.output = "";
  child.stdout.on("data", (c) => (child.output += c));
  child.stderr.on("data", (c) => (child.output += c));
  child.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return child;
}

async function waitFor(child, pattern, ms = 120_000) {
  const until = Date.now() + ms;
  while (!pattern.test(child.output)) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before ${pattern}: ${child.output.slice(-2000)}`);
    if (Date.now() > until) throw new Error(`no ${pattern} within ${ms} ms: ${child.output.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function api(base, method, route, key, body) {
  const res = await fetch(base + route, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  assert(res.ok, `${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

// --- the service ------------------------------------------------------------------------------------
const service = { base: "", adminKey: "", renderKey: "", templateId: "", expected: "" };
const serverPkg = JSON.parse(readFileSync(path.join(ROOT, "server", "package.json"), "utf8"));
const enginePkg = JSON.parse(readFileSync(path.join(ROOT, "engine", "package.json"), "utf8"));
const prefix = path.join(WORK, "opt", "mailrender");
const installed = path.join(prefix, "node_modules", "@mailrender", "server");
const settings = path.join(WORK, "etc", "server.env");
const state = path.join(WORK, "var", "lib", "mailrender");

await check("the service installs from its tarball (npm install --prefix, as docs/operations.md says)", async () => {
  const tarballs = [`mailrender-engine-${enginePkg.version}.tgz`, `mailrender-server-${serverPkg.version}.tgz`].map((f) => path.join(DIST, "npm", f));
  sh(`npm install --no-audit --no-fund --loglevel=error --prefix ${prefix} ${tarballs.join(" ")}`, WORK);
  assert(existsSync(path.join(prefix, "node_modules", ".bin", "mailrender-server")), "no mailrender-server command");
  const help = sh(`${path.join(prefix, "node_modules", ".bin", "mailrender-server")} --help`, WORK);
  for (const command of ["serve", "migrate", "create-admin-key", "backup", "restore"]) assert(help.includes(command), `--help lacks ${command}`);
});

const unit = readFileSync(path.join(installed, "deploy", "mailrender-server.service"), "utf8");
const localUnit = unit.replaceAll("/opt/mailrender", prefix).replaceAll("/etc/mailrender/server.env", settings).replaceAll("/var/lib/mailrender", state);

await check("docs/operations.md shows the unit file and the settings file the package ships", () => {
  const guide = readFileSync(path.join(ROOT, "docs", "operations.md"), "utf8");
  assert(guide.includes(unit.trim()), "docs/operations.md does not contain deploy/mailrender-server.service as shipped");
  assert(
    guide.includes(readFileSync(path.join(installed, "deploy", "server.env"), "utf8").trim()),
    "docs/operations.md does not contain deploy/server.env as shipped",
  );
});

await check("systemd-analyze verify accepts the unit (installed paths)", () => {
  const file = path.join(WORK, "mailrender-server.service");
  writeFileSync(file, localUnit);
  sh(`systemd-analyze verify ${file}`, WORK);
});

const serverFloor = floorOf(path.join(ROOT, "server", "package.json"));
let serverProcess;
await check(`the unit's ExecStartPre and ExecStart run the service on Node.js ${serverFloor} with the settings file`, async () => {
  mkdirSync(path.dirname(settings), { recursive: true });
  mkdirSync(state, { recursive: true });
  const port = await freePort();
  const shipped = readFileSync(path.join(installed, "deploy", "server.env"), "utf8");
  writeFileSync(settings, shipped.replace(/^PORT=.*$/m, `PORT=${port}`).replaceAll("/var/lib/mailrender", state));
  const line = (key) => {
    const m = new RegExp(`^${key}=(.*)$`, "m").exec(localUnit);
    assert(m !== null, `the unit has no ${key}`);
    return m[1].trim().split(/\s+/);
  };
  // systemd: the EnvironmentFile's variables, WorkingDirectory, then ExecStartPre and ExecStart.
  const env = cleanEnv({ ...environmentFile(settings), PATH: `${nodeRelease(serverFloor)}:${process.env.PATH}` });
  const [preCommand, ...preArgs] = line("ExecStartPre");
  execFileSync(preCommand, preArgs, { cwd: state, env, stdio: "pipe" });
  const [command, ...args] = line("ExecStart");
  serverProcess = start(command, args, { cwd: state, env });
  await waitFor(serverProcess, /Server listening/);
  const first = JSON.parse(serverProcess.output.split("\n")[0]);
  assert(typeof first.msg === "string", "the log is not JSON lines when stdout is not a terminal");
  service.base = `http://127.0.0.1:${port}`;
  const version = sh(`${preCommand} --version`, WORK, env);
  assert(version.trim() === `mailrender-server ${serverPkg.version}`, `--version said ${version}`);
  const nodeVersion = sh("node --version", WORK, env).trim();
  assert(nodeVersion === `v${serverFloor}`, `ran on ${nodeVersion}`);
});

await check("an admin key from the CLI, a render key and a template through the API", async () => {
  const cli = path.join(prefix, "node_modules", ".bin", "mailrender-server");
  service.adminKey = sh(`${cli} --config ${settings} create-admin-key --name ops`, state).trim();
  assert(/^sk_live_[0-9a-f]{64}$/.test(service.adminKey), `create-admin-key printed ${service.adminKey}`);
  service.renderKey = (await api(service.base, "POST", "/api/v1/keys", service.adminKey, { name: "install-test", targets: ["all"] })).key;
  const newsletter = readFileSync(path.join(installed, "demo", "newsletter.json"), "utf8");
  service.templateId = (await api(service.base, "POST", "/api/v1/templates", service.adminKey, newsletter)).id;
  // The reference: the engine library renders the template as the service serves it.
  const served = await api(service.base, "GET", `/v1/sdk/template/${service.templateId}?target=html`, service.renderKey);
  const { render } = await import(path.join(ROOT, "engine", "lib", "index.js"));
  service.expected = (await render(served, { target: "html", dynamicData: DATA })).output;
  assert(service.expected.includes("Ada &lt;Lovelace&gt; &amp; co"), "the reference output lacks the escaped name");
});

await check("a backup with the installed command while the service runs", () => {
  const out = sh(`${path.join(prefix, "node_modules", ".bin", "mailrender-server")} --config ${settings} backup ${path.join(WORK, "backup.db")}`, state);
  assert(/^backed up .+ \(\d+ KiB; 1 templates, 0 template_samples, 2 api_keys, 2 api_key_secrets\)/.test(out), out);
});

// --- JavaScript -------------------------------------------------------------------------------------
const jsFloor = floorOf(path.join(ROOT, "clients", "js", "package.json"));
await check(`JavaScript: the README's recipe in a clean npm project, run on Node.js ${jsFloor}`, () => {
  const project = path.join(WORK, "js");
  mkdirSync(project);
  sh("npm init -y >/dev/null", project);
  sh(recipe(README("clients/js")), project);
  const env = cleanEnv({ PATH: `${nodeRelease(jsFloor)}:${process.env.PATH}`, MAILRENDER_API_KEY: service.renderKey, MAILRENDER_BASE_URL: service.base });
  const quickStart = block(README("clients/js"), "## Quick start", "ts").replace(
    /const templateId = "[^"]+";/,
    `const templateId = ${JSON.stringify(service.templateId)};`,
  );
  writeFileSync(path.join(project, "quickstart.mjs"), `${quickStart}\nprocess.stdout.write(process.version + "\\n" + html);\n`);
  const quick = sh("node quickstart.mjs", project, env);
  assert(new RegExp(`^v${jsFloor}\n<!doctype html`, "i").test(quick), `the quick start printed ${quick.slice(0, 200)}`);
  writeFileSync(
    path.join(project, "render.mjs"),
    `import { MailrenderClient } from "@mailrender/client";
const client = new MailrenderClient();
process.stdout.write(await client.renderHtml(${JSON.stringify(service.templateId)}, ${JSON.stringify(DATA)}));\n`,
  );
  assert(sh("node render.mjs", project, env) === service.expected, "the output differs from the engine library's");
});

// --- the engine library -----------------------------------------------------------------------------
const engineFloor = floorOf(path.join(ROOT, "engine", "package.json"));
/** A Node.js with the compile cache the engine's README suggests (22.1 or later). */
const COMPILE_CACHE_NODE = "22.12.0";
await check(`the engine library's README in a clean npm project, on Node.js ${engineFloor} and ${COMPILE_CACHE_NODE}`, () => {
  const project = path.join(WORK, "engine-library");
  mkdirSync(project);
  sh("npm init -y >/dev/null && npm pkg set type=module", project);
  sh(`npm install --no-audit --no-fund --loglevel=error ${path.join(DIST, "npm", `mailrender-engine-${enginePkg.version}.tgz`)}`, project);
  // The library is one module with its packages inside (zod's among them): a new process reads one file.
  const library = readFileSync(path.join(project, "node_modules", "@mailrender", "engine", "lib", "index.js"), "utf8");
  const imports = [...library.matchAll(/^import\b[^;]*?"([^"]+)";$/gm)].map((m) => m[1]).filter((name) => !name.startsWith("node:"));
  assert(imports.length === 0, `the library imports ${imports.join(", ")}`);
  // The example's schema is the project's zod/mini (npm installed it for the library's types), not the library's copy.
  writeFileSync(path.join(project, "badge.mjs"), block(README("engine"), "**Blocks of your own**", "ts"));
  const env = cleanEnv({ PATH: `${nodeRelease(engineFloor)}:${process.env.PATH}` });
  const printed = sh("node badge.mjs", project, env);
  assert(printed === "true\n", `the example printed ${printed.slice(0, 400)}`);
  // The schema the library exports, in the project's zod: parsed, nested, recognised as a schema.
  writeFileSync(
    path.join(project, "schema.mjs"),
    `import * as z from "zod/mini";
import { templateDocumentSchema } from "@mailrender/engine";
const template = ${block(readFileSync(path.join(ROOT, "spec", "template.md"), "utf8"), "A complete one:", "json")};
console.log(z.safeParse(z.object({ template: templateDocumentSchema }), { template }).success, z.safeParse(templateDocumentSchema, { rows: 1 }).success, templateDocumentSchema instanceof z.ZodMiniType);\n`,
  );
  const judged = sh("node schema.mjs", project, env);
  assert(judged === "true false true\n", `the project's zod with the library's schema printed ${judged.slice(0, 400)}`);
  // The README's short-lived process: Node's compile cache keeps the library between processes.
  const withCompileCacheNode = (extra = {}) =>
    cleanEnv({ PATH: `${nodeRelease(COMPILE_CACHE_NODE)}:${process.env.PATH}`, NODE_DEBUG_NATIVE: "COMPILE_CACHE", ...extra });
  const importEngine = `node -e 'import("@mailrender/engine").then((engine) => console.log(typeof engine.render))' 2>&1`;
  assertSecondImportCached(importEngine, withCompileCacheNode({ NODE_COMPILE_CACHE: path.join(project, ".compile-cache") }), "NODE_COMPILE_CACHE");
  // The same cache turned on by the program itself, before its import.
  writeFileSync(
    path.join(project, "cached.mjs"),
    `import module from "node:module";
module.enableCompileCache(${JSON.stringify(path.join(project, ".program-cache"))});
const engine = await import("@mailrender/engine");
console.log(typeof engine.render);\n`,
  );
  assertSecondImportCached("node cached.mjs 2>&1", withCompileCacheNode(), "module.enableCompileCache()");

  /** Runs `command` (it imports the engine library; NODE_DEBUG_NATIVE=COMPILE_CACHE) twice: the second must read Node's compile cache. */
  function assertSecondImportCached(command, env, how) {
    sh(command, project, env);
    const second = sh(command, project, env);
    assert(
      /cache for file:\S*\/@mailrender\/engine\/lib\/index\.js was accepted/.test(second) && /^function$/m.test(second),
      `with ${how}, a second process did not import the library from Node's compile cache:\n${second.slice(-600)}`,
    );
  }
});

// --- Python -----------------------------------------------------------------------------------------
await check("Python: the README's recipe in a clean virtualenv (httpx from the index, the engine from the wheel)", () => {
  const project = path.join(WORK, "python");
  mkdirSync(project);
  sh(recipe(README("clients/python")), project, cleanEnv({ PIP_DISABLE_PIP_VERSION_CHECK: "1" }));
  const python = path.join(project, ".venv", "bin", "python");
  const engine = sh(`${python} -c "import mailrender._engine_discovery as d; print(d.bundled_engine_path())"`, project).trim();
  assert(engine.startsWith(path.join(project, ".venv")), `the engine is not the wheel's: ${engine}`);
  const env = cleanEnv({ MAILRENDER_API_KEY: service.renderKey, MAILRENDER_BASE_URL: service.base });
  const example = block(README("clients/python"), "## Synchronous", "python")
    .replace("6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c", service.templateId)
    .replace('"sk_live_…"', JSON.stringify(service.renderKey))
    .replace('"https://mailrender.example.com"', JSON.stringify(service.base));
  writeFileSync(path.join(project, "example.py"), `${example}\nprint(html)\n`);
  assert(sh(`${python} example.py`, project, env).includes("Hello Ada"), "the README's example did not render Ada's email");
  writeFileSync(
    path.join(project, "render.py"),
    `import json, sys\nfrom mailrender import MailrenderClient\nwith MailrenderClient() as client:\n    sys.stdout.write(client.render_html(${JSON.stringify(service.templateId)}, json.loads(${JSON.stringify(JSON.stringify(DATA))})))\n`,
  );
  assert(sh(`${python} render.py`, project, env) === service.expected, "the output differs from the engine library's");
});

// --- PHP --------------------------------------------------------------------------------------------
await check("PHP: the README's recipe in a clean composer project; the quick start without an engine fails clearly", () => {
  const project = path.join(WORK, "php");
  mkdirSync(project);
  // Packagist is out of this machine's reach: the audit that `composer require` runs would only warn.
  const composerEnv = cleanEnv({
    COMPOSER_ALLOW_SUPERUSER: "1",
    COMPOSER_NO_INTERACTION: "1",
    COMPOSER_NO_AUDIT: "1",
    COMPOSER_HOME: path.join(WORK, ".composer"),
  });
  sh("composer init --name=acme/mailer --quiet", project, composerEnv);
  const commands = recipe(README("clients/php")).trim().split("\n");
  const installer = commands.findIndex((c) => c.startsWith("vendor/bin/mailrender-install-engine"));
  assert(installer > 0, "the recipe installs the engine with vendor/bin/mailrender-install-engine");
  sh(commands.slice(0, installer).join("\n"), project, composerEnv);

  const env = cleanEnv({ MAILRENDER_API_KEY: service.renderKey, MAILRENDER_BASE_URL: service.base });
  const quickStart = block(README("clients/php"), "## Quick start", "php").replace(/\$templateId = '[^']+';/, `$templateId = '${service.templateId}';`);
  writeFileSync(path.join(project, "quickstart.php"), quickStart);
  let missing = "";
  try {
    sh("php quickstart.php", project, env);
  } catch (error) {
    missing = error.message;
  }
  assert(/exit 1\)/.test(missing) && missing.includes("vendor/bin/mailrender-install-engine"), `without an engine: ${missing.slice(0, 600)}`);
  assert(!/Fatal error|Stack trace/.test(missing), `without an engine, a crash: ${missing.slice(0, 600)}`);

  sh(commands.slice(installer).join("\n"), project, composerEnv);
  assert(sh("php quickstart.php", project, env).includes("Hello Ada"), "the quick start did not render Ada's email");
  writeFileSync(
    path.join(project, "render.php"),
    `<?php\nrequire __DIR__ . '/vendor/autoload.php';\n$client = new Mailrender\\MailrenderClient();\necho $client->renderHtml('${service.templateId}', json_decode('${JSON.stringify(DATA)}', true));\n`,
  );
  assert(sh("php render.php", project, env) === service.expected, "the output differs from the engine library's");
});

await check("the service stops on SIGTERM within the unit's TimeoutStopSec, exit 0", async () => {
  assert(serverProcess !== undefined, "the service did not start");
  const timeout = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1] ?? "90");
  serverProcess.kill("SIGTERM");
  const outcome = await Promise.race([serverProcess.exited, new Promise((r) => setTimeout(() => r({ code: "timeout" }), timeout * 1000))]);
  assert(outcome.code === 0, `exit ${JSON.stringify(outcome)}`);
});

for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
if (failed === 0) rmSync(WORK, { recursive: true, force: true });
else say(`kept ${WORK} for inspection`);
process.stdout.write(`install recipes: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
