/**
 * The executable's runtime choices (src/engine/runtime.ts) are passed to the engine it makes, never set
 * on the library: running the one-shot path in a process leaves the library as every other
 * importer of it knows it (renders cached).
 *
 * Observed through what the choice does: a cached render hands back the same compiled output (the
 * identity `output_format: "layout"` relies on). No path compiles code with `new Function`, which
 * this file counts: zod/mini's objects parse without generated code.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { renderParts } from "../src/engine/pipeline.js";
import { type EngineRuntime, LIBRARY_RUNTIME, ONE_RENDER_RUNTIME } from "../src/engine/runtime.js";
import type { EnginePort } from "../src/executable/engine-port.js";
import { createLibraryEngine } from "../src/executable/library-engine.js";
import { runMain } from "../src/executable/main.js";
import { warmupTemplate } from "../src/executable/warmup.js";

const WARMUP = warmupTemplate();

import { EXIT } from "../src/protocol/errors.js";

const OPTIONS = { target: "html", dynamicData: { merge_tags: { text: { first_name: "Ada" } } } } as const;

/** Counts `new Function(…)` while `run` runs. */
async function functionsCompiledBy(run: () => Promise<unknown>): Promise<number> {
  const original = globalThis.Function;
  let count = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      count++;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    await run();
  } finally {
    globalThis.Function = original;
  }
  return count;
}

/** The CLI's path for `argv` in-process, with stdin's chunks; what it wrote and the runtimes it made engines with. */
interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly runtimes: readonly EngineRuntime[];
}

async function runCli(argv: string[], stdin: Buffer[] = []): Promise<CliRun> {
  const chunks: Buffer[] = [];
  const runtimes: EngineRuntime[] = [];
  const code = await runMain(argv, {
    createEngine: (runtime) => {
      runtimes.push(runtime);
      return createLibraryEngine(runtime);
    },
    stdin: (async function* () {
      yield* stdin;
    })(),
    stdout: new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    }),
    stderr: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });
  return { code, stdout: Buffer.concat(chunks).toString("utf8"), runtimes };
}

const sameCompiledTwice = async (engine: EnginePort): Promise<boolean> => {
  const [first, second] = [await engine.render(WARMUP, OPTIONS), await engine.render(WARMUP, OPTIONS)];
  return first.layout?.().layout === second.layout?.().layout;
};

describe("runtime choices", () => {
  afterEach(() => expect(globalThis.Function.name).toBe("Function"));

  it("the one-shot path renders once, uncached; the library in the same process keeps its defaults", async () => {
    const request = { template: WARMUP, target: "html", dynamic_data: { merge_tags: { text: { first_name: "Ada" } } } };
    let oneShot: CliRun | undefined;
    const compiled = await functionsCompiledBy(async () => {
      oneShot = await runCli([], [Buffer.from(JSON.stringify(request))]);
    });
    expect(compiled).toBe(0);
    expect(oneShot?.code).toBe(EXIT.OK);
    expect(JSON.parse(oneShot?.stdout ?? "")).toMatchObject({ ok: true, target: "html" });
    expect(oneShot?.runtimes).toEqual([ONE_RENDER_RUNTIME]);

    // Another importer, after it: renders are cached, and still nothing is compiled.
    expect(await functionsCompiledBy(() => renderParts(WARMUP, OPTIONS))).toBe(0);
    const [first, second] = [await renderParts(WARMUP, OPTIONS), await renderParts(WARMUP, OPTIONS)];
    expect(second.compiled).toBe(first.compiled);
  });

  it("--serve and the library cache renders; a one-render engine does not, in the same process", async () => {
    expect(await sameCompiledTwice(createLibraryEngine(LIBRARY_RUNTIME))).toBe(true);
    expect(await sameCompiledTwice(createLibraryEngine(ONE_RENDER_RUNTIME))).toBe(false);
    expect(await sameCompiledTwice(createLibraryEngine(LIBRARY_RUNTIME))).toBe(true);
  });

  it("runMain picks the runtime by mode", async () => {
    expect((await runCli(["--serve"])).runtimes).toEqual([LIBRARY_RUNTIME]);
    expect((await runCli(["--version"])).runtimes).toEqual([ONE_RENDER_RUNTIME]);
  });
});
