/**
 * QuickJS-ng as the release engine patches it (quickjs-patches.ts), built by the host's C compiler
 * with AddressSanitizer and UndefinedBehaviorSanitizer, then run on QuickJS-ng's own test suite
 * (its `tests.conf`: builtins, closures, the language, std, bigint, binary JSON…) with leak
 * detection on. A patch that reads or writes out of bounds, leaks, or leaves the collector an object
 * it does not account for fails here; the release binaries (zig, musl, no sanitizer) would only
 * crash some day, or not. The build is kept per patched source, so only a change to the patches or
 * to the pinned QuickJS-ng builds again (~30 s on two cores).
 *
 * The suite compiles its tests from source; the engine reads its functions from bytecode, their
 * bodies when first called. So some tests run again as the engine runs: compiled by the sanitized
 * qjsc into programs (its generated `main`, the engine's too, reads the bytecode and frees the
 * runtime at exit, where the leaks are looked for): those of QuickJS-ng's tests that need nothing
 * of its `qjs` shell, runtimes/quickjs/lazy-bodies-check.js, which calls each kind of function
 * QuickJS-ng enters by another path, and runtimes/quickjs/runtime-patches-check.js (Map keys of
 * every kind, atoms, JSON strings, text through UTF-8 and back). Last, the engine itself, built from the release build's C (its
 * bytecode and `main`) with the host's native functions and the sanitized library, through the
 * fixtures one-shot and in `--serve` with saved layouts (the collector and frees at work).
 *
 *   tsx engine/scripts/check-quickjs-patches.ts
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ENGINE_BYTECODE_C, LIBRARY_SOURCES, NATIVE_C, quickjsSource } from "./build-quickjs.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CC = process.env["CC"] ?? "cc";
const SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"];
/** QuickJS-ng's own flags (as build-quickjs.ts), at -O1 with frame pointers for readable reports. */
const CFLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", ...SANITIZE, "-D_GNU_SOURCE", "-DQJS_BUILD_LIBC", "-funsigned-char", "-fwrapv", "-w"];

/** QuickJS-ng's tests that run as programs compiled by qjsc (the others ask for its shell's `gc` or `qjs`). */
const COMPILED_TESTS = ["test_closure.js", "test_loop.js", "test_bigint.js", "test_std.js"];
/** The engine's own checks of the patches, run as programs compiled by qjsc. */
const PATCH_CHECKS = ["lazy-bodies-check.js", "runtime-patches-check.js"].map((file) => join(ROOT, "engine", "runtimes", "quickjs", file));

interface SanitizedBuild {
  readonly dir: string;
  /** QuickJS-ng's test runner. */
  readonly runner: string;
  readonly qjsc: string;
  /** The library's objects, for a program of qjsc's. */
  readonly library: readonly string[];
}

/** QuickJS-ng's test runner and qjsc built from `source`, sanitized: made once per patched source. */
async function sanitizedBuild(source: string): Promise<SanitizedBuild> {
  // The patched source's directory is named after its crate and patches' digest (quickjs-patches.ts).
  const dir = join(ROOT, "engine", "dist", ".quickjs-sanitized", basename(dirname(dirname(source))));
  const object = (file: string) => join(dir, file.replace(/\.c$/, ".o"));
  const build = { dir, runner: join(dir, "run-test262"), qjsc: join(dir, "qjsc"), library: LIBRARY_SOURCES.map(object) };
  if (existsSync(build.runner) && existsSync(build.qjsc)) return build;
  mkdirSync(dir, { recursive: true });
  const units = [...LIBRARY_SOURCES, "run-test262.c", "qjsc.c"];
  await Promise.all(units.map((file) => promisify(execFile)(CC, [...CFLAGS, `-I${source}`, "-c", join(source, file), "-o", object(file)])));
  for (const [program, main] of [
    [build.qjsc, "qjsc.c"],
    [build.runner, "run-test262.c"],
  ] as const) {
    execFileSync(CC, [...SANITIZE, "-o", `${program}.tmp`, object(main), ...build.library, "-lm", "-lpthread"]);
    renameSync(`${program}.tmp`, program);
  }
  return build;
}

const SANITIZER_ENV = { ...process.env, ASAN_OPTIONS: "detect_leaks=1:abort_on_error=1", UBSAN_OPTIONS: "print_stacktrace=1" };

/** `script` (in `work`) compiled by the sanitized qjsc into a program, built and run there; its output when it fails. */
function runCompiled(build: SanitizedBuild, source: string, work: string, script: string): string | undefined {
  const name = basename(script, ".js");
  const qjscEnv = { ...process.env, ASAN_OPTIONS: "detect_leaks=0" };
  execFileSync(build.qjsc, ["-e", "-o", `${name}.c`, script], { cwd: work, env: qjscEnv });
  execFileSync(CC, [...CFLAGS, `-I${source}`, "-o", name, `${name}.c`, ...build.library, "-lm", "-lpthread"], { cwd: work });
  const run = spawnSync(join(work, name), [], { cwd: work, encoding: "utf8", env: SANITIZER_ENV });
  return run.status === 0 ? undefined : `${script} (compiled by qjsc), status ${run.status}:\n${run.stdout}${run.stderr}`;
}

/** The release engine built as the release build links it, sanitized (without mimalloc: ASan's allocator sees each block). */
function sanitizedEngine(build: SanitizedBuild, source: string): string {
  if (!existsSync(ENGINE_BYTECODE_C)) throw new Error(`${ENGINE_BYTECODE_C} is missing: build the release engine first (make engine)`);
  const engine = join(build.dir, "mailrender-engine");
  execFileSync(CC, [...CFLAGS, `-I${source}`, "-o", engine, ENGINE_BYTECODE_C, ...NATIVE_C, ...build.library, "-lm", "-lpthread"]);
  return engine;
}

/** The fixtures through the sanitized engine, in each `modes`; the runner's output when one fails. */
function engineFixtures(engine: string, modes: readonly (readonly string[])[]): string | undefined {
  for (const mode of modes) {
    const run = spawnSync(join(ROOT, "fixtures", "run"), ["--program", engine, ...mode], { cwd: ROOT, encoding: "utf8", env: SANITIZER_ENV });
    if (run.status !== 0) return `${["fixtures/run", ...mode].join(" ")} through the sanitized engine, status ${run.status}:\n${run.stdout}${run.stderr}`;
  }
  return undefined;
}

async function main(): Promise<void> {
  const source = quickjsSource();
  const build = await sanitizedBuild(source);
  // The suite runs from a copy: some tests write files beside themselves.
  const work = mkdtempSync(join(tmpdir(), "quickjs-tests-"));
  try {
    cpSync(source, work, { recursive: true });
    // The runner prints its summary on stderr and fails with a status of its own on any error.
    const run = spawnSync(build.runner, ["-c", "tests.conf"], { cwd: work, encoding: "utf8", env: SANITIZER_ENV });
    const output = `${run.stdout}${run.stderr}`;
    const result = /Result: (\d+)\/(\d+) errors/.exec(output);
    if (run.status !== 0 || result === null || result[1] !== "0") throw new Error(`QuickJS-ng's tests under the sanitizers:\n${output}`);
    process.stdout.write(`ok   QuickJS-ng's own tests on the patched source under ASan and UBSan: ${result[2]} passed\n`);
    const tests = join(work, "tests");
    for (const check of PATCH_CHECKS) cpSync(check, join(tests, basename(check)));
    const failures = [...COMPILED_TESTS, ...PATCH_CHECKS.map((check) => basename(check))]
      .map((script) => runCompiled(build, source, tests, script))
      .filter((f) => f !== undefined);
    if (failures.length > 0) throw new Error(`programs compiled by qjsc under the sanitizers:\n${failures.join("\n")}`);
    process.stdout.write(
      `ok   ${COMPILED_TESTS.length + PATCH_CHECKS.length} tests compiled by qjsc, their functions read from bytecode as the engine's, under ASan and UBSan\n`,
    );
    const fixtures = engineFixtures(sanitizedEngine(build, source), [[], ["--serve", "--layout"]]);
    if (fixtures !== undefined) throw new Error(fixtures);
    process.stdout.write("ok   the engine under ASan and UBSan: the fixtures one-shot and in --serve with saved layouts\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  const detail = error as { stdout?: string; stderr?: string; message?: string };
  process.stderr.write(`check-quickjs-patches: ${detail.message ?? String(error)}\n${detail.stdout ?? ""}${detail.stderr ?? ""}\n`);
  process.exit(1);
});
