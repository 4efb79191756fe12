/**
 * The engine's host on Node (the library, the Node executable): node:crypto, Buffer and require, and
 * the html clean-up and minifier as WebAssembly (wasm-markup-passes.ts).
 */
import type { EngineHost } from "./host.js";
import { minifyMarkup, removeHtmlWaste } from "./wasm-markup-passes.js";

let strictUtf8: { decode(bytes: Uint8Array): string } | undefined;

export const NODE_HOST: EngineHost = Object.freeze({
  // node:crypto on first use only: a process that never caches renders never loads it, which keeps
  // it out of the Node executable's startup snapshot (~7 ms a launch; engine/README.md).
  // SHA-256, not SHA-1: two texts with one SHA-1 can be made, and the key must never be another template's.
  digest: (text: string) => process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("base64"),
  digestParts: (parts: readonly string[]) => {
    const hash = process.getBuiltinModule("node:crypto").createHash("sha256");
    for (const part of parts) hash.update(part);
    return hash.digest("base64");
  },
  sha256: (text: string) => process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("hex"),
  crc32: (text: string) => process.getBuiltinModule("node:zlib").crc32(text).toString(16).padStart(8, "0"),
  utf8Length: (text: string) => Buffer.byteLength(text, "utf8"),
  encodeUtf8: (text: string) => Buffer.from(text, "utf8"),
  decodeUtf8: (bytes: Uint8Array) => {
    strictUtf8 ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
    return strictUtf8.decode(bytes);
  },
  minifyMarkup,
  removeHtmlWaste,
  loadPackage: (name: string) => {
    const from = typeof import.meta.url === "string" ? import.meta.url : `${process.cwd()}/`;
    return process.getBuiltinModule("node:module").createRequire(from)(name);
  },
});
