/**
 * The html clean-up and the minifier for Node's host: the release engine's C (markup-passes.h),
 * compiled to WebAssembly (engine/scripts/build-wasm.ts). A new newsletter's html goes through them
 * in about half the JavaScript's time, and leaves V8 no garbage of theirs: 10–20% less CPU a new
 * template's render (bench/RESULTS.md). Each answers undefined where the JavaScript must do the
 * work (engine/src/targets/html-waste.ts and minify.ts, their definition): a text holding a lone
 * surrogate, which UTF-8 cannot carry, or U+FFFD, which stands for one in the module; what the C
 * leaves to it (each C file says what); a Node without WebAssembly or its SIMD.
 */
import { MARKUP_PASSES_WASM } from "./generated/markup-passes-wasm.js";

/** What this module uses of WebAssembly, which the engine's types (ES2023's and Node's) do not declare; absent under `--jitless`. */
declare const WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object, imports: object) => { readonly exports: object } };

interface MarkupPasses {
  readonly memory: { readonly buffer: ArrayBuffer };
  _initialize(): void;
  document_buffer(size: number): number;
  result_bytes(): number;
  minify_markup(length: number): number;
  remove_html_waste(length: number, minify: number): number;
}

/** What a pass answers besides a result's length (runtimes/wasm/markup-passes.c). */
const LEFT_TO_JAVASCRIPT = -1;
const UNCHANGED = -2;

/**
 * A module's memory only grows: past this, the instance that grew it is dropped after its call and
 * the next call starts a new one (a render of a document of several megabytes would otherwise keep
 * several times its size for the life of the process).
 */
const RETAINED_MEMORY = 64 * 1024 * 1024;

/** The compiled module; null where this Node cannot compile it. */
let compiled: object | null | undefined;
let instance: MarkupPasses | undefined;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The instance, made on first use; undefined where this Node has no WebAssembly (`--jitless`, or while
 * it builds a startup snapshot: not remembered, as the snapshot's state is a launched binary's) or
 * cannot compile the module (V8 runs WebAssembly's SIMD on x86-64 only with SSE4.1).
 */
function passes(): MarkupPasses | undefined {
  if (instance !== undefined) return instance;
  // Not `WebAssembly === undefined`: where it is absent, the name is not declared at all.
  if (typeof WebAssembly === "undefined") return undefined;
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(MARKUP_PASSES_WASM, "base64"));
    } catch {
      compiled = null;
    }
  }
  if (compiled === null) return undefined;
  instance = new WebAssembly.Instance(compiled, {}).exports as MarkupPasses;
  instance._initialize();
  return instance;
}

/**
 * `text`'s UTF-8 written into the module's document buffer: its length, or undefined where the module
 * has no room. A lone surrogate is written as U+FFFD, which the module refuses.
 */
function writeDocument(module: MarkupPasses, text: string): number | undefined {
  const room = text.length * 3;
  const at = module.document_buffer(room);
  if (at === 0) return undefined;
  return encoder.encodeInto(text, new Uint8Array(module.memory.buffer, at, room)).written;
}

/** `pass` of `text` in the module (given its UTF-8's length): the text it gives, or undefined; the module let go if it grew large. */
function run(text: string, pass: (module: MarkupPasses, length: number) => number): string | undefined {
  const module = passes();
  const length = module === undefined ? undefined : writeDocument(module, text);
  if (module === undefined || length === undefined) return undefined;
  const result = pass(module, length);
  const output =
    result === UNCHANGED
      ? text
      : result === LEFT_TO_JAVASCRIPT
        ? undefined
        : decoder.decode(new Uint8Array(module.memory.buffer, module.result_bytes(), result));
  if (module.memory.buffer.byteLength > RETAINED_MEMORY) instance = undefined;
  return output;
}

/** EngineHost.removeHtmlWaste: `removeHtmlWaste`, then `minifyMarkup` when `minify`. */
export const removeHtmlWaste = (html: string, minify: boolean): string | undefined =>
  run(html, (module, length) => module.remove_html_waste(length, minify ? 1 : 0));

/** EngineHost.minifyMarkup. */
export const minifyMarkup = (markup: string): string | undefined => run(markup, (module, length) => module.minify_markup(length));
