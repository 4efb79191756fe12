/**
 * QuickJS-ng as the release engine patches it (quickjs-patches.ts), built by the host's C compiler
 * with AddressSanitizer and UndefinedBehaviorSanitizer, then run on QuickJS-ng's own test suite
 * (its `tests.conf`: builtins, closures, the language, std, bigint, binary JSON…) with leak
 * detection on. A patch that reads or writes out of bounds, leaks, or leaves the collector an object
 * it does not account for fails here; the release binaries (zig, musl, no sanitizer) would only
 * crash some day, or not. The build is kept per patched source, so only a change to the patches or
 * to the pinned QuickJS-ng builds again (~30 s on two cores).
 *
 *   tsx engine/scripts/check-quickjs-patches.ts
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { LIBRARY_SOURCES, quickjsSource } from "./build-quickjs.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CC = process.env["CC"] ?? "cc";
const SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"];
/** QuickJS-ng's own flags (as build-quickjs.ts), at -O1 with frame pointers for readable reports. */
const CFLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", ...SANITIZE, "-D_GNU_SOURCE", "-DQJS_BUILD_LIBC", "-funsigned-char", "-fwrapv", "-w"];

/** QuickJS-ng's test runner built from `source`, sanitized: made once per patched source. */
async function sanitizedRunner(source: string): Promise<string> {
  // The patched source's directory is named after its crate and patches' digest (quickjs-patches.ts).
  const dir = join(ROOT, "engine", "dist", ".quickjs-sanitized", basename(dirname(dirname(source))));
  const runner = join(dir, "run-test262");
  if (existsSync(runner)) return runner;
  mkdirSync(dir, { recursive: true });
  const units = [...LIBRARY_SOURCES, "run-test262.c"];
  await Promise.all(
    units.map((file) => promisify(execFile)(CC, [...CFLAGS, `-I${source}`, "-c", join(source, file), "-o", join(dir, file.replace(/\.c$/, ".o"))])),
  );
  const objects = units.map((file) => join(dir, file.replace(/\.c$/, ".o")));
  execFileSync(CC, [...SANITIZE, "-o", `${runner}.tmp`, ...objects, "-lm", "-lpthread"]);
  renameSync(`${runner}.tmp`, runner);
  return runner;
}

async function main(): Promise<void> {
  const source = quickjsSource();
  const runner = await sanitizedRunner(source);
  // The suite runs from a copy: some tests write files beside themselves.
  const work = mkdtempSync(join(tmpdir(), "quickjs-tests-"));
  try {
    cpSync(source, work, { recursive: true });
    // The runner prints its summary on stderr and fails with a status of its own on any error.
    const run = spawnSync(runner, ["-c", "tests.conf"], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, ASAN_OPTIONS: "detect_leaks=1:abort_on_error=1", UBSAN_OPTIONS: "print_stacktrace=1" },
    });
    const output = `${run.stdout}${run.stderr}`;
    const result = /Result: (\d+)\/(\d+) errors/.exec(output);
    if (run.status !== 0 || result === null || result[1] !== "0") throw new Error(`QuickJS-ng's tests under the sanitizers:\n${output}`);
    process.stdout.write(`ok   QuickJS-ng's own tests on the patched source under ASan and UBSan: ${result[2]} passed\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  const detail = error as { stdout?: string; stderr?: string; message?: string };
  process.stderr.write(`check-quickjs-patches: ${detail.message ?? String(error)}\n${detail.stdout ?? ""}${detail.stderr ?? ""}\n`);
  process.exit(1);
});
