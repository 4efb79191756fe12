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
  result_runs(length: number, most: number): number;
  result_runs_at(): number;
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
 * The characters a document's pieces are gathered into before each is encoded: V8 makes a string
 * of two bytes a character over 64 K of them (the newsletter's document, which holds an em dash)
 * a large object of its own, on fresh pages, which cost as much as the rest of the join; chunks this
 * size stay in the young generation, and a chunk without such a character stays one byte a character.
 */
const CHUNK = 8192;

/**
 * The UTF-8 of the concatenation of `pieces` written into the module's document buffer: its
 * length, or undefined where the module has no room. The pieces are gathered into chunks, never cut
 * after a high surrogate, so a pair is encoded whole, as in the whole text; a lone surrogate is
 * written as U+FFFD, which the module refuses.
 */
function writeDocument(module: MarkupPasses, pieces: readonly string[]): number | undefined {
  let characters = 0;
  for (let i = 0; i < pieces.length; i++) characters += (pieces[i] as string).length;
  const room = characters * 3;
  const at = module.document_buffer(room);
  if (at === 0) return undefined;
  const bytes = new Uint8Array(module.memory.buffer, at, room);
  let written = 0;
  let chunk = "";
  for (let i = 0; i < pieces.length; i++) {
    chunk += pieces[i] as string;
    if (chunk.length >= CHUNK && !isHighSurrogate(chunk.charCodeAt(chunk.length - 1))) {
      written += encoder.encodeInto(chunk, bytes.subarray(written)).written;
      chunk = "";
    }
  }
  return chunk === "" ? written : written + encoder.encodeInto(chunk, bytes.subarray(written)).written;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * `pass` of the document `pieces` make in the module (given its UTF-8's length): the text it gives,
 * or undefined; the module let go if it grew large.
 */
function run(pieces: readonly string[], pass: (module: MarkupPasses, length: number) => number): string | undefined {
  const module = passes();
  const length = module === undefined ? undefined : writeDocument(module, pieces);
  if (module === undefined || length === undefined) return undefined;
  const result = pass(module, length);
  const output = result === UNCHANGED ? pieces.join("") : result === LEFT_TO_JAVASCRIPT ? undefined : resultText(module, result);
  if (module.memory.buffer.byteLength > RETAINED_MEMORY) instance = undefined;
  return output;
}

/**
 * The runs of characters beyond ASCII a result is read by, at most: a text of more (one written
 * mostly beyond ASCII) is decoded whole, as the slices and concatenations per run would cost more.
 */
const MOST_RUNS = 512;

/**
 * The module's last result (`length` bytes of UTF-8) as text. V8 decodes UTF-8 holding any byte
 * beyond ASCII on its slow path, the whole text (~60 µs for the newsletter's 57 KB, with its slot
 * tokens and a dash; ~6 µs were it all ASCII): so the ASCII between the runs beyond it is read as
 * Latin-1, a copy, and each run decoded apart (~20 µs with the rope made flat).
 */
function resultText(module: MarkupPasses, length: number): string {
  const count = module.result_runs(length, MOST_RUNS);
  // After result_runs, which may grow the memory (and detach the buffer held before).
  const bytes = Buffer.from(module.memory.buffer, module.result_bytes(), length);
  if (count < 0) return decoder.decode(bytes);
  const runs = new Uint32Array(module.memory.buffer, module.result_runs_at(), 2 * count);
  let text = "";
  let copied = 0;
  for (let i = 0; i < runs.length; i += 2) {
    const start = runs[i] as number;
    const end = runs[i + 1] as number;
    text += bytes.toString("latin1", copied, start) + bytes.toString("utf8", start, end);
    copied = end;
  }
  return text + bytes.toString("latin1", copied, length);
}

/** EngineHost.removeHtmlWaste: `removeHtmlWaste`, then `minifyMarkup` when `minify`, of the document `pieces` make. */
export const removeHtmlWaste = (pieces: readonly string[], minify: boolean): string | undefined =>
  run(pieces, (module, length) => module.remove_html_waste(length, minify ? 1 : 0));

/** EngineHost.minifyMarkup. */
export const minifyMarkup = (markup: string): string | undefined => run([markup], (module, length) => module.minify_markup(length));
