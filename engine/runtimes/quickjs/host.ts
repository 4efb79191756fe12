/**
 * Entry of the QuickJS build of mailrender-engine: the same protocol code as the Node build
 * (src/executable/main.ts), over QuickJS's file descriptors instead of Node's streams.
 */
import * as os from "qjs:os";
import * as std from "qjs:std";
import type { EngineRuntime } from "../../src/engine/runtime.js";
import { guardConsole } from "../../src/executable/console-guard.js";
import type { EnginePort } from "../../src/executable/engine-port.js";
import { createLibraryEngine } from "../../src/executable/library-engine.js";
import { runMain } from "../../src/executable/main.js";
import type { HostMemory } from "../../src/executable/memory.js";
import { Buffer as QjsBuffer } from "./shims/buffer.js";

declare const scriptArgs: readonly string[];
/** Installed by the build's main() (native/memory.c). */
declare const mailrenderMemory: { release(): void; capHeap(bytes: number): void };
const SIGPIPE = 13;
const CHUNK = 65536;

/** stdin as the chunks read(2) returns: a --serve request is handled as soon as its line arrives. */
async function* stdinChunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const chunk = new ArrayBuffer(CHUNK);
    const n = os.read(0, chunk, 0, CHUNK);
    if (n <= 0) return;
    yield new Uint8Array(chunk, 0, n);
  }
}

type Listener = (error?: Error) => void;

/**
 * Text goes to stdout through the C library's FILE (`std.out`), which encodes it to UTF-8 in C: the
 * JavaScript encoder of shims/buffer.ts costs ~1,000 instructions a character under QuickJS (a 50 KB
 * answer: ~58 M, more than the rest of writing it). Not on Windows, whose stdout FILE is in text
 * mode and would write "\r\n" for "\n".
 */
const NATIVE_TEXT_OUT = os.platform !== "win32";

/** The few Writable members Output and the loops use, writing straight to a descriptor (text through `file` when given). */
function fdStream(fd: number, file?: std.FILE) {
  const listeners = new Map<string, Listener[]>();
  let failed: Error | undefined;
  const writeAll = (bytes: Uint8Array): Error | undefined => {
    let offset = 0;
    while (offset < bytes.byteLength) {
      const n = os.write(fd, bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, bytes.byteLength - offset);
      if (n <= 0) return new Error(n === -32 ? "EPIPE" : `write failed (${n})`);
      offset += n;
    }
    return undefined;
  };
  const writeText = (text: string, to: std.FILE): Error | undefined => {
    to.puts(text);
    to.flush();
    return to.error() ? new Error("write failed (EPIPE or closed)") : undefined;
  };
  const stream = {
    writableLength: 0,
    destroyed: false,
    write(data: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
      if (failed === undefined) {
        if (typeof data === "string" && file !== undefined) failed = writeText(data, file);
        else failed = writeAll(typeof data === "string" ? QjsBuffer.from(data) : data);
        if (failed !== undefined) for (const listener of listeners.get("error") ?? []) listener(failed);
      }
      callback?.(failed ?? null);
      return failed === undefined;
    },
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return stream;
    },
    off(event: string, listener: Listener) {
      listeners.set(
        event,
        (listeners.get(event) ?? []).filter((l) => l !== listener),
      );
      return stream;
    },
  };
  return stream;
}

/**
 * V8 reads ISO dates with a lower-case "t" and "z" (the visibility rules compare lower-cased
 * context values); QuickJS does not. Same results as the Node build, checked by the date fixtures.
 */
function acceptLowerCaseIsoDates(): void {
  const parse = Date.parse;
  const ISO_LOWER = /^\d{4}-\d{2}-\d{2}t/;
  Date.parse = (text: string): number => parse(ISO_LOWER.test(text) ? text.toUpperCase() : text);
}

/**
 * The library engine; in a process that renders once, answering with its output as a string only:
 * the envelope is then one `JSON.stringify` (in C) written as text (encoded in C, above), where the
 * pre-encoded pieces would be encoded by the JavaScript encoder, once, for one use. A `--serve`
 * process keeps the pieces: a compiled output's are encoded once and reused for every recipient.
 */
function createEngine(runtime: EngineRuntime): EnginePort {
  const engine = createLibraryEngine(runtime);
  if (!NATIVE_TEXT_OUT || runtime.cacheRenders) return engine;
  return {
    ...engine,
    render: async (template, options) => {
      const { jsonOutput, ...whole } = await engine.render(template, options);
      return whole;
    },
  };
}

/**
 * QuickJS cannot tell its resident size cheaply; its heap can be capped instead, and running out of
 * it unwinds the render and leaves the process serving. What is thrown is an InternalError "out of
 * memory", or `null` when even that error could not be allocated (nothing in the engine throws null).
 */
const hostMemory: HostMemory = {
  resident: () => undefined,
  release: () => mailrenderMemory.release(),
  capHeap: (bytes) => mailrenderMemory.capHeap(bytes),
  isOutOfMemory: (error) => error === null || (error instanceof Error && error.name === "InternalError" && error.message === "out of memory"),
};

function start(): void {
  acceptLowerCaseIsoDates();
  // A reader gone is an EPIPE to handle, as in Node, not a kill (Windows has no SIGPIPE).
  if (os.platform !== "win32") os.signal(SIGPIPE, undefined);
  const argv = scriptArgs.slice(1);
  const stdout = fdStream(1, NATIVE_TEXT_OUT ? std.out : undefined) as unknown as NodeJS.WriteStream;
  const stderr = fdStream(2) as unknown as NodeJS.WriteStream;
  guardConsole(stderr);
  // The protocol code is typed with Node's Buffer; under QuickJS its chunks are Uint8Arrays (shims/buffer.ts).
  const stdin = stdinChunks() as unknown as AsyncIterable<Buffer>;
  runMain(argv, { createEngine, stdin, stdout, stderr, memory: hostMemory }).then(
    (code) => std.exit(code),
    (error: unknown) => {
      stderr.write(`mailrender-engine: fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      std.exit(1);
    },
  );
}

start();
