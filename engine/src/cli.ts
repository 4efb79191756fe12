/**
 * Entry of the mailrender-engine binary (and of `tsx engine/src/cli.ts` in development).
 *
 * Built into a Node single-executable application with a V8 startup snapshot: while the snapshot
 * is built this module runs once, warms the engine with a few renders and registers `start` as
 * the function a launched binary runs. Everything that reads the process (argv, env, stdio) must
 * therefore happen inside `start`, never at module load.
 */
import fs from "node:fs";
import { Writable } from "node:stream";
import v8 from "node:v8";
import vm from "node:vm";
import { type CachePolicy, ONE_RENDER } from "./engine/caches.js";
import { NODE_HOST } from "./engine/node-host.js";
import { guardConsole } from "./executable/console-guard.js";
import type { Files } from "./executable/io.js";
import { createEnginePort } from "./executable/library-engine.js";
import { runMain } from "./executable/main.js";
import { warmUp } from "./executable/warmup.js";
import { EXIT } from "./protocol/errors.js";

/**
 * A one-shot launch runs the html target's passes in JavaScript, whose code the startup snapshot
 * holds warm (Node has no WebAssembly while it builds one); compiling the WebAssembly module on each
 * launch cost a one-shot newsletter ~9% more CPU. `--serve` runs them as WebAssembly.
 */
const { removeHtmlWaste: _, minifyMarkup: __, ...oneRenderHost } = NODE_HOST;
const createEngine = (cache: CachePolicy) => createEnginePort(cache === ONE_RENDER ? oneRenderHost : NODE_HOST, cache);

/** The human commands' files; "-" is stdin. */
const files: Files = {
  read: (path) => fs.readFileSync(path === "-" ? 0 : path),
  write: (path, text) => fs.writeFileSync(path, text),
};

function start(): void {
  guardConsole(process.stderr);
  // Last line of defence: whatever escapes still never puts a stack trace on stdout.
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
  runMain(process.argv.slice(2), {
    createEngine,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    files,
    // A heap limit would end the process: the ceiling is checked before each render instead (memory.ts).
    memory: { resident: () => process.memoryUsage.rss(), release: fullCollection(), isOutOfMemory: () => false },
  }).then(async (code) => {
    // Exit as soon as what was written is out: a natural exit first tears down the isolate and its
    // heap (the snapshot's ~10 MB), which a process about to end pays for nothing.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
  }, fatal);
}

/**
 * A last-resort garbage collection, the one that also shrinks the young generation back: after a
 * 7 MB request the binary's young generation had grown to 128 MiB and its RSS stayed 310 MiB above
 * its level (a plain full collection left both). V8 offers it to code only with --expose-gc, which
 * can be turned on at run time.
 */
function fullCollection(): () => void {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;
  return () => gc({ type: "major", execution: "sync", flavor: "last-resort" });
}

/** Resolves once the stream's pending writes are handed to the OS (at once when none are pending). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.write("", () => resolve()));
}

function fatal(error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`mailrender-engine: fatal: ${detail}\n`);
  process.exit(EXIT.RENDER_FAILED);
}

const snapshot = v8.startupSnapshot;
if (snapshot?.isBuildingSnapshot()) {
  snapshot.setDeserializeMainFunction(start);
  // The warm-up warms the one-shot path, which also keeps node:crypto out of the snapshot (src/engine/caches.ts, ONE_RENDER).
  // Node loads the stream classes behind a file stdin (`engine < request.json`) on first use of
  // process.stdin; touched here, that code is in the snapshot like net's for a pipe already is.
  void fs.ReadStream;
  const log = (line: string): boolean => process.stderr.write(`mailrender-engine build: ${line}\n`);
  const discard = new Writable({ write: (_chunk, _encoding, done) => done(), writev: (_chunks, done) => done() });
  void warmUp(createEngine(ONE_RENDER), log, discard);
  // A guard, since any import of node:crypto would bring it back (the build fails on this line).
  snapshot.addSerializeCallback(() => {
    const loaded = (process as unknown as { moduleLoadList?: readonly string[] }).moduleLoadList ?? [];
    if (loaded.includes("NativeModule crypto")) log("node:crypto is loaded at snapshot time: it adds ~7 ms to every launch (src/engine/caches.ts, ONE_RENDER)");
  });
} else {
  start();
}
