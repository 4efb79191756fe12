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
import { concatBytes, type Sink } from "../../src/executable/io.js";
import { createEnginePort } from "../../src/executable/library-engine.js";
import { runMain } from "../../src/executable/main.js";
import type { HostMemory } from "../../src/executable/memory.js";
import { generateParserCode } from "../../src/schema/fast-parse.js";
import { QUICKJS_FILES } from "./platform/files.js";
import {
  capHeap,
  crc32,
  decodeUtf8,
  encodeUtf8,
  jsonStringUtf8,
  minifyConditionalInner,
  minifyMarkup,
  parseJsonUtf8,
  parseMjml,
  releaseMemory,
  removeHtmlWaste,
  requestTemplateSha256,
  sha256,
  utf8Length,
} from "./platform/native.js";

const QUICKJS_HOST: EngineHost = {
  // The render caches' key: any digest that tells templates apart (Node's host uses SHA-256 too).
  digest: sha256,
  // The same digest, of the request's bytes: the template's JSON text is never built to be hashed.
  requestTemplateDigest: requestTemplateSha256,
  sha256,
  crc32,
  utf8Length,
  encodeUtf8,
  decodeUtf8,
  jsonStringUtf8,
  parseJsonUtf8,
  minifyMarkup,
  removeHtmlWaste: (document, minify) => removeHtmlWaste(document.join(""), minify),
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
 * Text written to stdout on its own (the human commands' output) goes through the C library's FILE
 * (`std.out`), which encodes it as it writes: no copy of it as bytes. Not on Windows, whose stdout
 * FILE is in text mode and would write "\r\n" for "\n".
 */
const NATIVE_TEXT_OUT = os.platform !== "win32";

/**
 * A sink writing straight to a descriptor (text through `file` when given). Corked, it keeps what
 * it is given and writes it in one call when uncorked, then answers the writes' callbacks: an answer
 * written as its pieces is one write(2), not one a piece.
 */
function fdStream(fd: number, file?: std.FILE): Sink {
  const listeners = new Map<string, Listener[]>();
  let failed: Error | undefined;
  let corked: { pieces: Uint8Array[]; size: number; callbacks: ((error?: Error | null) => void)[] } | undefined;
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
  const settled = (written: Error | undefined): void => {
    failed ??= written;
    if (written !== undefined) for (const listener of listeners.get("error") ?? []) listener();
  };
  const stream: Sink = {
    write(data: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
      if (corked !== undefined && failed === undefined) {
        const bytes = typeof data === "string" ? encodeUtf8(data) : data;
        corked.pieces.push(bytes);
        corked.size += bytes.byteLength;
        if (callback !== undefined) corked.callbacks.push(callback);
        return true;
      }
      if (failed === undefined)
        settled(typeof data === "string" && file !== undefined ? writeText(data, file) : writeAll(typeof data === "string" ? encodeUtf8(data) : data));
      callback?.(failed ?? null);
      return failed === undefined;
    },
    cork() {
      corked ??= { pieces: [], size: 0, callbacks: [] };
    },
    uncork() {
      const held = corked;
      corked = undefined;
      if (held === undefined) return;
      if (failed === undefined && held.size > 0) settled(writeAll(concatBytes(held.pieces, held.size)));
      for (const callback of held.callbacks) callback(failed ?? null);
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
 * The engine. Its answers are written as their output's UTF-8 pieces, quoted and encoded in C
 * (`jsonStringUtf8`) and gathered into one write (the sink's cork): a `--serve` process encodes a
 * compiled output's pieces once and reuses them for every recipient.
 */
const createEngine = (cache: CachePolicy): EnginePort => createEnginePort(QUICKJS_HOST, cache);

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
  // An interpreter gains nothing from a template's parsers as code of their own, and would compile them in every process.
  generateParserCode(false);
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
