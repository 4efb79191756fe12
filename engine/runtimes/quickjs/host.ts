/**
 * Entry of the QuickJS build of mailrender-engine: the same executable code as the Node build
 * (src/executable/main.ts), over QuickJS's file descriptors instead of Node's streams, with this
 * runtime's own engine host: QuickJS has neither hashes nor UTF-8 codecs, so the build adds them in
 * C (native/), where they cost a few instructions a byte against hundreds in JavaScript.
 */
import * as os from "qjs:os";
import * as std from "qjs:std";
import type { CachePolicy } from "../../src/engine/caches.js";
import type { EngineHost } from "../../src/engine/host.js";
import { guardConsole } from "../../src/executable/console-guard.js";
import type { EnginePort } from "../../src/executable/engine-port.js";
import type { Sink } from "../../src/executable/io.js";
import { createEnginePort } from "../../src/executable/library-engine.js";
import { runMain } from "../../src/executable/main.js";
import type { HostMemory } from "../../src/executable/memory.js";
import { QUICKJS_FILES } from "./platform/files.js";
import {
  capHeap,
  crc32,
  decodeUtf8,
  encodeUtf8,
  jsonNesting,
  jsonStringUtf8,
  minifyConditionalInner,
  minifyMarkup,
  parseMjml,
  releaseMemory,
  removeHtmlWaste,
  requestTemplateSha256,
  sha256,
  utf8Length,
} from "./platform/native.js";

const QUICKJS_HOST: EngineHost = {
  // The render caches' key: any digest that tells templates apart (Node's host uses SHA-1).
  digest: sha256,
  // The same digest, of the request's bytes: the template's JSON text is never built to be hashed.
  requestTemplateDigest: requestTemplateSha256,
  sha256,
  crc32,
  utf8Length,
  encodeUtf8,
  decodeUtf8,
  jsonStringUtf8,
  jsonNesting,
  minifyMarkup,
  removeHtmlWaste,
  minifyConditionalInner,
  parseMjml,
};

declare const scriptArgs: readonly string[];
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

type Listener = () => void;

/**
 * Text goes to stdout through the C library's FILE (`std.out`), which encodes it as it writes: no
 * copy of a large answer as bytes. Not on Windows, whose stdout FILE is in text mode and would write
 * "\r\n" for "\n".
 */
const NATIVE_TEXT_OUT = os.platform !== "win32";

/** A sink writing straight to a descriptor (text through `file` when given). */
function fdStream(fd: number, file?: std.FILE): Sink {
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
  const stream: Sink = {
    write(data: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
      if (failed === undefined) {
        if (typeof data === "string" && file !== undefined) failed = writeText(data, file);
        else failed = writeAll(typeof data === "string" ? encodeUtf8(data) : data);
        if (failed !== undefined) for (const listener of listeners.get("error") ?? []) listener();
      }
      callback?.(failed ?? null);
      return failed === undefined;
    },
    on(event, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return stream;
    },
    off(event, listener: Listener) {
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
 * The engine; in a process that renders once, answering with its output as a string only: the
 * envelope is then one `JSON.stringify` (in C) written as text (encoded in C, above), where the
 * pre-encoded pieces would be encoded by the JavaScript encoder, once, for one use. A `--serve`
 * process keeps the pieces: a compiled output's are encoded once and reused for every recipient.
 */
function createEngine(cache: CachePolicy): EnginePort {
  const engine = createEnginePort(QUICKJS_HOST, cache);
  if (!NATIVE_TEXT_OUT || cache.outputs > 0) return engine;
  return {
    ...engine,
    render: async (template, options) => {
      const { jsonOutput, ...whole } = await engine.render(template, options);
      return whole;
    },
    renderFromLayout: (layout, template, options) => {
      const rendered = engine.renderFromLayout?.(layout, template, options);
      if (rendered === undefined) return undefined;
      const { jsonOutput, ...whole } = rendered;
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
  release: releaseMemory,
  capHeap,
  isOutOfMemory: (error) => error === null || (error instanceof Error && error.name === "InternalError" && error.message === "out of memory"),
};

function start(): void {
  acceptLowerCaseIsoDates();
  // A reader gone is an EPIPE to handle, as in Node, not a kill (Windows has no SIGPIPE).
  if (os.platform !== "win32") os.signal(SIGPIPE, undefined);
  const argv = scriptArgs.slice(1);
  const stdout = fdStream(1, NATIVE_TEXT_OUT ? std.out : undefined);
  const stderr = fdStream(2);
  guardConsole(stderr);
  runMain(argv, { createEngine, stdin: stdinChunks(), stdout, stderr, files: QUICKJS_FILES, memory: hostMemory }).then(
    (code) => std.exit(code),
    (error: unknown) => {
      stderr.write(`mailrender-engine: fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      std.exit(1);
    },
  );
}

start();
