/**
 * Entry of a test executable built beside the release engine for this machine (never shipped):
 * the host's native functions (native/), linked as the engine links them, answering each JSON line
 * `[name, ...arguments]` on stdin with the JSON of `name(...arguments)` (null for undefined). The
 * tests hold each C function that follows a JavaScript definition (or Node's hash of the same name)
 * to it on any text, not only on what a template brings to it (engine/test/native-functions.test.ts).
 */
import * as std from "qjs:std";
import { crc32, jsonStringUtf8, minifyConditionalInner, minifyMarkup, parseMjml, removeHtmlWaste, sha256 } from "./platform/native.js";

/** Each function of a text and one more argument (a flag, a list), as the test sends them. */
const FUNCTIONS: Readonly<Record<string, (text: string, argument: never) => unknown>> = {
  minifyMarkup,
  minifyConditionalInner,
  removeHtmlWaste,
  parseMjml,
  sha256,
  crc32,
  // Its bytes, in hex.
  jsonStringUtf8: (text: string) => Array.from(jsonStringUtf8(text), (byte) => byte.toString(16).padStart(2, "0")).join(""),
};

for (let line = std.in.getline(); line !== null; line = std.in.getline()) {
  const [name, text, flag] = JSON.parse(line) as [string, string, never];
  const call = FUNCTIONS[name];
  std.out.puts(`${JSON.stringify(call === undefined ? { unknown: name } : (call(text, flag) ?? null))}\n`);
  std.out.flush();
}
