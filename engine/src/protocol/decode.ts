/**
 * Bytes → JSON value, refusing what would hurt the process: a request too large, bytes that are
 * not UTF-8 (a lenient decoder would silently turn them into U+FFFD and change the output), and
 * nesting deep enough to overflow the stack of JSON.parse or of the recursive code after it.
 */
import type { EngineHost } from "../engine/host.js";
import { MAX_JSON_DEPTH, MAX_REQUEST_BYTES } from "./constants.js";
import { ProtocolError } from "./errors.js";

/** The host's `decodeUtf8` is strict (it throws on bytes that are not UTF-8) and drops a leading BOM (Windows shells add one). */
export function decodeRequest(bytes: Uint8Array, host: Pick<EngineHost, "decodeUtf8" | "parseJsonUtf8">): unknown {
  if (bytes.byteLength > MAX_REQUEST_BYTES) throw tooLarge(bytes.byteLength);
  if (host.parseJsonUtf8 !== undefined) return parsedByHost(bytes, host.parseJsonUtf8);
  let text: string;
  try {
    text = host.decodeUtf8(bytes);
  } catch {
    throw notUtf8();
  }
  if (maxNesting(text) > MAX_JSON_DEPTH) throw tooDeep();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw notJson(error);
  }
}

/** The same checks by the host's `parseJsonUtf8`, in the same order, told apart by the error each throws. */
function parsedByHost(bytes: Uint8Array, parseJsonUtf8: (bytes: Uint8Array, maxDepth: number) => unknown): unknown {
  try {
    return parseJsonUtf8(bytes, MAX_JSON_DEPTH);
  } catch (error) {
    if (error instanceof TypeError) throw notUtf8();
    if (error instanceof RangeError) throw tooDeep();
    if (error instanceof SyntaxError) throw notJson(error);
    throw error;
  }
}

const notUtf8 = (): ProtocolError => new ProtocolError("INVALID_JSON", "The request is not valid UTF-8");

function tooDeep(): ProtocolError {
  return new ProtocolError("BAD_REQUEST", `The request nests deeper than ${MAX_JSON_DEPTH} levels`, [
    { loc: [], msg: `JSON nesting depth exceeds ${MAX_JSON_DEPTH}`, type: "too_deep" },
  ]);
}

function notJson(error: unknown): ProtocolError {
  const detail = error instanceof SyntaxError ? `: ${error.message}` : "";
  return new ProtocolError("INVALID_JSON", `The request is not valid JSON${detail}`);
}

export function tooLarge(bytes: number): ProtocolError {
  return new ProtocolError(
    "REQUEST_TOO_LARGE",
    `The request is ${bytes > MAX_REQUEST_BYTES ? "larger than" : "at least"} ${MAX_REQUEST_BYTES} bytes, the limit`,
  );
}

/**
 * Deepest bracket nesting outside strings; one linear scan, no allocation. Invalid JSON is left to
 * JSON.parse. A string's contents are skipped with indexOf (to its first unescaped quote) rather
 * than character by character: most of a template's characters are inside strings. (The release
 * engine's host measures the bytes in C: `parseJsonUtf8`.)
 */
export function maxNesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = stringEnd(text, i);
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return max;
}

/** The index of the quote closing the string opened at `open` (the text's end if unclosed). */
function stringEnd(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}
