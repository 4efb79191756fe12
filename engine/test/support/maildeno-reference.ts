/**
 * The Maildeno product's own engine (`engine.wasm` from the public PyPI package `maildeno` 2.0.7), a
 * dev-only reference like mjml is for the mjml port. Downloaded once by `pip download` into the
 * git-ignored engine/.reference/, never committed. The wasm imports nothing; its allocator runs out
 * after a few hundred renders, so every batch gets a fresh instance.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const VERSION = "2.0.7";
const DIR = fileURLToPath(new URL(`../../.reference/maildeno-${VERSION}/`, import.meta.url));
const WASM = `${DIR}engine.wasm`;

/** engine.wasm, downloaded with pip on first use. */
export function referenceWasmPath(): string {
  if (existsSync(WASM)) return WASM;
  mkdirSync(DIR, { recursive: true });
  const python = process.env["PYTHON"] ?? "python3";
  execFileSync(python, ["-m", "pip", "download", `maildeno==${VERSION}`, "--no-deps", "--disable-pip-version-check", "-q", "-d", DIR], { stdio: "inherit" });
  const wheel = readdirSync(DIR).find((name) => name.endsWith(".whl"));
  if (!wheel) throw new Error(`pip download maildeno==${VERSION} left no wheel in ${DIR}`);
  const script = "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('maildeno/engine.wasm'))";
  execFileSync(python, ["-c", script, `${DIR}${wheel}`, WASM]);
  return WASM;
}

/** The part of the WebAssembly API used here (the engine's TypeScript lib has no DOM types). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ exports: unknown }>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Exports {
  memory: { buffer: ArrayBuffer };
  alloc(len: number): number;
  dealloc(ptr: number, len: number): void;
  dealloc_str(ptr: number): void;
  render(ptr: number, len: number): number;
}

export type ReferenceResult = { output: string } | { error: string };

export interface ReferenceRequest {
  readonly template: unknown;
  readonly target: "html" | "mjml" | "react-email";
  readonly dynamic_data: unknown;
}

/** Renders requests with the reference engine, a fresh instance for every `batch` of them. */
export async function renderWithReference(requests: readonly ReferenceRequest[], batch = 200): Promise<ReferenceResult[]> {
  const module = await wasm.compile(readFileSync(referenceWasmPath()));
  const results: ReferenceResult[] = [];
  let exports: Exports | undefined;
  for (const [index, request] of requests.entries()) {
    if (index % batch === 0) exports = (await wasm.instantiate(module, {})).exports as unknown as Exports;
    results.push(renderOne(exports!, request));
  }
  return results;
}

function renderOne(e: Exports, request: ReferenceRequest): ReferenceResult {
  const input = Buffer.from(JSON.stringify(request), "utf8");
  const ptr = e.alloc(input.length);
  new Uint8Array(e.memory.buffer, ptr, input.length).set(input);
  const out = e.render(ptr, input.length);
  e.dealloc(ptr, input.length);
  const memory = new Uint8Array(e.memory.buffer);
  let end = out;
  while (memory[end] !== 0) end++;
  const text = Buffer.from(memory.subarray(out, end)).toString("utf8");
  e.dealloc_str(out);
  return JSON.parse(text) as ReferenceResult;
}
