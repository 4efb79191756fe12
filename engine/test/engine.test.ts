/**
 * The engine as an object (src/engine/engine.ts): made with a host and a cache policy, it owns its
 * caches, and engines in one process share nothing. The executable picks the policy per mode: a
 * one-shot process caches no render and therefore never hashes a template (on Node, never loads
 * node:crypto). zod/mini's objects parse without generated code, and a template's object parsers
 * are generated (`new Function`) only for a schema that has read many values (fast-parse.ts), never
 * on a process's first render, which this file counts.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { RenderOptions } from "../src/base/types.js";
import { BLOCKS } from "../src/blocks/registry.js";
import { type CachePolicy, MANY_RENDERS, ONE_RENDER } from "../src/engine/caches.js";
import { createEngine } from "../src/engine/engine.js";
import type { EngineHost } from "../src/engine/host.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import { runMain } from "../src/executable/main.js";
import { warmupTemplate } from "../src/executable/warmup.js";
import { EXIT } from "../src/protocol/errors.js";
import { generateParserCode } from "../src/schema/fast-parse.js";
import { createEngine as createEnginePort, nodeFiles } from "./support/engine-port.js";

const WARMUP = warmupTemplate();
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

/** Node's host, counting the templates it hashes. */
function countingHost(): EngineHost & { digests: number } {
  const host = {
    ...NODE_HOST,
    digests: 0,
    digest(text: string) {
      host.digests++;
      return NODE_HOST.digest(text);
    },
    digestParts(parts: readonly string[]) {
      host.digests++;
      return NODE_HOST.digestParts!(parts);
    },
  };
  return host;
}

/** The CLI's path for `argv` in-process, with stdin's chunks; what it wrote and the policies it made engines with. */
async function runCli(argv: string[], stdin: Uint8Array[] = []): Promise<{ code: number; stdout: string; policies: CachePolicy[] }> {
  const chunks: Buffer[] = [];
  const policies: CachePolicy[] = [];
  const code = await runMain(argv, {
    createEngine: (cache) => {
      policies.push(cache);
      return createEnginePort(cache);
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
    files: nodeFiles,
  });
  return { code, stdout: Buffer.concat(chunks).toString("utf8"), policies };
}

describe("the engine object", () => {
  afterEach(() => expect(globalThis.Function.name).toBe("Function"));

  it("renders the same output whatever its policy, and compiles no code for a template's first reads", async () => {
    // Every object parser made anew: none has read a value yet, whatever this file rendered before.
    generateParserCode(true);
    const many = createEngine({ host: NODE_HOST, cache: MANY_RENDERS });
    const once = createEngine({ host: NODE_HOST, cache: ONE_RENDER });
    let outputs: string[] = [];
    expect(await functionsCompiledBy(async () => (outputs = [(await many.render(WARMUP, OPTIONS)).output, (await once.render(WARMUP, OPTIONS)).output]))).toBe(
      0,
    );
    expect(outputs[1]).toBe(outputs[0]);
  });

  it("generates an object schema's parser once it has read many values, and renders the same", async () => {
    generateParserCode(true);
    const engine = createEngine({ host: NODE_HOST, cache: ONE_RENDER });
    const first = (await engine.render(WARMUP, OPTIONS)).output;
    let later = "";
    const compiled = await functionsCompiledBy(async () => {
      for (let i = 0; i < 40; i++) later = (await engine.render(WARMUP, OPTIONS)).output;
    });
    expect(compiled).toBeGreaterThan(0);
    expect(later).toBe(first);
  });

  it("caches parses and compiled outputs under its policy: a one-render engine never hashes a template", async () => {
    const host = countingHost();
    const many = createEngine({ host, cache: MANY_RENDERS });
    const [first, second] = [await many.renderParts(WARMUP, OPTIONS), await many.renderParts(WARMUP, OPTIONS)];
    expect(second.compiled).toBe(first.compiled);
    expect(host.digests).toBe(2);

    const oneHost = countingHost();
    const once = createEngine({ host: oneHost, cache: ONE_RENDER });
    const [a, b] = [await once.renderParts(WARMUP, OPTIONS), await once.renderParts(WARMUP, OPTIONS)];
    expect(b.compiled).not.toBe(a.compiled);
    expect(oneHost.digests).toBe(0);
  });

  it("keeps a new template's outline from a render, and its whole parse from the first later render that needs it", async () => {
    // A block definition whose props schema the template reader asks for once per block it reads.
    let reads = 0;
    const paragraph = new Proxy(BLOCKS["paragraph"]!, {
      get(definition, name, receiver) {
        if (name === "props") reads++;
        return Reflect.get(definition, name, receiver) as unknown;
      },
    });
    const host = countingHost();
    const engine = createEngine({ host, cache: MANY_RENDERS, registry: { ...BLOCKS, paragraph } });
    const readsOf = async (options: RenderOptions): Promise<number> => {
      const [before, digests] = [reads, host.digests];
      await engine.render(WARMUP, options);
      // Read again or not, the template is hashed once a render.
      expect(host.digests - digests).toBe(1);
      return reads - before;
    };
    expect(await readsOf(OPTIONS)).toBeGreaterThan(0);
    // Its compiled output cached: the outline is all a render needs.
    expect(await readsOf(OPTIONS)).toBe(0);
    // Its plain text, then another target: the template is read again, once, and kept whole.
    const withText = { ...OPTIONS, plainText: true };
    expect(await readsOf(withText)).toBeGreaterThan(0);
    expect(await readsOf(withText)).toBe(0);
    expect(await readsOf({ ...OPTIONS, target: "mjml" })).toBe(0);
    const fresh = createEngine({ host: NODE_HOST, cache: ONE_RENDER });
    expect((await engine.render(WARMUP, withText)).text).toBe((await fresh.render(WARMUP, withText)).text);
    // A new template rendered with its plain text is kept whole at once.
    const other = { ...WARMUP, template_id: "other" };
    const before = reads;
    await engine.render(other, withText);
    const first = reads - before;
    await engine.render(other, withText);
    expect(reads - before).toBe(first);
  });

  it("refuses an invalid template, or one over a render's node limit, alike on every render it caches", async () => {
    const engine = createEngine({ host: NODE_HOST, cache: MANY_RENDERS });
    const invalid = { ...WARMUP, rows: "none" };
    const first = await engine.render(invalid, OPTIONS).catch((error: unknown) => error);
    expect(first).toMatchObject({ code: "RENDER_ERROR", message: expect.stringMatching(/^Invalid template: /) });
    await expect(engine.render(invalid, OPTIONS)).rejects.toMatchObject({ message: (first as Error).message, issues: (first as { issues: unknown }).issues });
    // Kept as an outline by its first render, then rendered within a limit it is over.
    await engine.render(WARMUP, OPTIONS);
    await expect(engine.render(WARMUP, { ...OPTIONS, limits: { maxNodes: 3 } })).rejects.toMatchObject({ code: "RENDER_ERROR" });
    expect((await engine.render(WARMUP, OPTIONS)).output).toBe((await createEngine({ host: NODE_HOST, cache: ONE_RENDER }).render(WARMUP, OPTIONS)).output);
  });

  it("keeps at most its bound of entries, least recently used out first", async () => {
    const engine = createEngine({ host: NODE_HOST, cache: { templates: 1, outputs: 1, contentHtml: 1 } });
    const other = { ...WARMUP, template_id: "other" };
    const first = await engine.renderParts(WARMUP, OPTIONS);
    expect((await engine.renderParts(WARMUP, OPTIONS)).compiled).toBe(first.compiled);
    await engine.renderParts(other, OPTIONS);
    expect((await engine.renderParts(WARMUP, OPTIONS)).compiled).not.toBe(first.compiled);
  });

  it("shares nothing with another engine in the same process", async () => {
    const [one, two] = [createEngine({ host: NODE_HOST }), createEngine({ host: NODE_HOST })];
    expect((await two.renderParts(WARMUP, OPTIONS)).compiled).not.toBe((await one.renderParts(WARMUP, OPTIONS)).compiled);
  });

  it("refuses a policy that is not a whole number of entries", () => {
    expect(() => createEngine({ host: NODE_HOST, cache: { templates: -1, outputs: 1, contentHtml: 1 } })).toThrow(/cache\.templates/);
    expect(() => createEngine({ host: NODE_HOST, cache: { templates: 1, outputs: 0.5, contentHtml: 1 } })).toThrow(/cache\.outputs/);
  });
});

describe("the executable's policy per mode", () => {
  it("one-shot renders once, uncached; --serve caches; other modes cache nothing", async () => {
    const request = { template: WARMUP, target: "html", dynamic_data: { merge_tags: { text: { first_name: "Ada" } } } };
    const oneShot = await runCli([], [Buffer.from(JSON.stringify(request))]);
    expect(oneShot.code).toBe(EXIT.OK);
    expect(JSON.parse(oneShot.stdout)).toMatchObject({ ok: true, target: "html" });
    expect(oneShot.policies).toEqual([ONE_RENDER]);
    expect((await runCli(["--serve"])).policies).toEqual([MANY_RENDERS]);
    expect((await runCli(["--version"])).policies).toEqual([ONE_RENDER]);
  });
});
