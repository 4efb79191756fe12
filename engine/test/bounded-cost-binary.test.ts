/**
 * The executable's bounds (spec/README.md, "Cost and memory"), measured on the build under test (the
 * release build; the Node build through `make test-binary`): the amplification probe is
 * refused in CPU time and memory far below what substituting first took (minutes, gigabytes), a
 * `--serve` process returns to its working size after a large render or a refused one, and
 * `--max-memory` is a ceiling it answers `output_too_large` at instead of growing.
 *
 * Bounds are CPU time and peak resident memory as Linux counts them for the process, not wall time,
 * with margins of several times what a loaded 2-core machine measures: the failures they catch were
 * hundreds of times over.
 */
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_REQUEST_BYTES } from "../src/protocol/constants.js";
import type { ErrorResponse, OkResponse } from "../src/protocol/response-schema.js";
import { AMPLIFICATION_DATA, AMPLIFICATION_TEMPLATE } from "./support/amplification.js";
import { BINARY, ensureBinary, ServeProcess, UNDER_TEST } from "./support/engine-binary.js";
import { hostileRequest } from "./support/hostile-requests.js";

beforeAll(ensureBinary, 300_000);

/** The ceiling is enforced differently by the two builds (executable/memory.ts); MAILRENDER_ENGINE_UNDER_TEST names the Node build (`make test-binary`). */
const RELEASE_BUILD = UNDER_TEST === undefined;

const small = { template: { template_id: "s", template_name: "S", schema_version: "1.0", canvas: {}, rows: [] }, target: "html" };
const paragraphTemplate = (id: string, content: string) => ({
  template_id: id,
  template_name: id,
  schema_version: "1.0",
  canvas: {},
  rows: [{ columns: [{ children: [{ type: "paragraph", props: { content } }] }] }],
});
const typeOf = (envelope: unknown): string | undefined => (envelope as ErrorResponse).error?.issues[0]?.type;

const processes: ServeProcess[] = [];
function serve(args: readonly string[] = []): ServeProcess {
  const process = new ServeProcess(args);
  processes.push(process);
  return process;
}
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.close()));
});

describe("the amplification probe", () => {
  it.each(["html", "mjml", "react-email"] as const)(
    "%s: output_too_large at once, peak memory under 512 MiB, the next request answered",
    async (target) => {
      const engine = serve();
      // The first request pays for compiling the 1.1 MB template (cached for later recipients).
      const cold = await engine.request({ template: AMPLIFICATION_TEMPLATE, template_ref: "probe", target, dynamic_data: AMPLIFICATION_DATA });
      expect(typeOf(cold.envelope)).toBe("output_too_large");
      // A large request is followed by a full collection once its answer is written (spec/README.md,
      // "Memory"): a small request answered after it says that is over, so the refusal's CPU is its own.
      expect(((await engine.request(small)).envelope as OkResponse).ok).toBe(true);
      // The refusal itself: one 64 KB escape and a count over 120,000 slots (~0.3 s of CPU on QuickJS;
      // ~0.65 s while QuickJS hashed a Map's integer keys into a few buckets).
      const warm = await engine.request({ template_ref: "probe", target, dynamic_data: AMPLIFICATION_DATA });
      expect(typeOf(warm.envelope)).toBe("output_too_large");
      expect(warm.cpuMs).toBeLessThan(1000);
      // Compiling the template cold: ~1.1 s of CPU on QuickJS, ~0.4 s on Node (a loaded 2-core VM).
      expect(cold.cpuMs).toBeLessThan(10_000);
      // Substituting first grew to 4 GB and beyond; the refusal peaks at ~80 MiB (QuickJS), ~220 MiB (Node).
      expect(engine.memory().peakMiB).toBeLessThan(512);
      const next = await engine.request(small);
      expect((next.envelope as OkResponse).ok).toBe(true);
    },
    120_000,
  );
});

/**
 * The bounds spec/template.md ("Cost") states for each build, per MiB of request (its JSON): CPU time
 * and the process's peak resident memory, idle size included. The heaviest shapes known, content of
 * tiny elements (2 MB of `<b>x</b>` or `x<br>`), cost the release build ~5 s and ~350 MiB per MiB on a
 * loaded 2-core VM, the Node build ~0.8 s and ~340 MiB.
 */
const BOUNDS = RELEASE_BUILD ? { cpuSeconds: [1, 10], peakMiB: [32, 512] } : { cpuSeconds: [1, 3], peakMiB: [160, 512] };
const CODED = new Set(["output_too_large", "too_many_nodes", "context_too_large", "missing_merge_tag"]);

describe("cost: any request within the limits, a bounded time and memory or a coded error", () => {
  const doc = (content: string) => paragraphTemplate("shape", content);
  /** The worst shapes known, at 2 MB: tiny elements (parse trees), unclosed tags (once quadratic), the probe. */
  const shapes = [
    { target: "html", template: doc(`<p>${"<b>x</b>".repeat(250_000)}</p>`), options: { plain_text: true } },
    { target: "react-email", template: doc(`<p>${"x<br>".repeat(400_000)}</p>`) },
    { target: "react-email", template: doc(`<p>${"{{ a|".repeat(400_000)}</p>`), options: { plain_text: true } },
    { target: "mjml", template: AMPLIFICATION_TEMPLATE, dynamic_data: AMPLIFICATION_DATA },
  ];

  const measure = async (request: object): Promise<void> => {
    const line = JSON.stringify(request);
    fc.pre(Buffer.byteLength(line) <= MAX_REQUEST_BYTES); // larger is REQUEST_TOO_LARGE, read and dropped
    const mib = Buffer.byteLength(line) / 1024 / 1024;
    const engine = new ServeProcess();
    const { envelope, cpuMs } = await engine.request(line);
    const { peakMiB } = engine.memory();
    await engine.close();
    if (!envelope.ok) {
      expect(envelope.error.code, envelope.error.message).toBe("RENDER_ERROR");
      expect(CODED, envelope.error.message).toContain(envelope.error.issues[0]?.type);
    }
    expect(cpuMs / 1000, `CPU for ${mib.toFixed(2)} MiB`).toBeLessThan(BOUNDS.cpuSeconds[0]! + BOUNDS.cpuSeconds[1]! * mib);
    expect(peakMiB, `peak memory for ${mib.toFixed(2)} MiB`).toBeLessThan(BOUNDS.peakMiB[0]! + BOUNDS.peakMiB[1]! * mib);
  };

  it.each(shapes.map((shape, i) => [i, shape] as const))("worst shape %i", async (_i, shape) => measure(shape), 300_000);

  it("generated requests: near the node limit, hostile texts, values up to 1 MB", async () => {
    await fc.assert(fc.asyncProperty(hostileRequest, measure), { numRuns: 12, seed: 20261126 });
  }, 900_000);
});

describe("memory returned", () => {
  it("after a refused 7 MB value and a 7 MB render, a --serve process is back within 48 MiB of its size after a small render", async () => {
    const engine = serve();
    await engine.request(small);
    const idle = engine.memory().residentMiB;
    const lt = { template: paragraphTemplate("lt", "<p>{{ v }}</p>"), target: "html", dynamic_data: { merge_tags: { text: { v: "<".repeat(7_000_000) } } } };
    const a = { template: paragraphTemplate("a", "<p>{{ v }}</p>"), target: "html", dynamic_data: { merge_tags: { text: { v: "a".repeat(7_000_000) } } } };
    expect(typeOf((await engine.request(lt)).envelope)).toBe("output_too_large");
    // Measured once the next request is answered: the process releases after writing an answer, before reading the next line.
    await engine.request(small);
    const afterRefused = engine.memory().residentMiB;
    expect(((await engine.request(a)).envelope as OkResponse).output.length).toBeGreaterThan(7_000_000);
    await engine.request(small);
    const afterRendered = engine.memory().residentMiB;
    // The requests were large enough to matter: they grew the process past the bound below while they ran.
    expect(engine.memory().peakMiB - idle).toBeGreaterThan(48);
    // One 7 MB value of "<" left the release engine at 1,643 MiB before (the escape's matches, kept by its
    // allocator), the Node build ~310 MiB above its level (its grown young generation).
    expect(afterRefused - idle).toBeLessThan(48);
    expect(afterRendered - idle).toBeLessThan(48);
  }, 120_000);
});

describe("--max-memory", () => {
  it.runIf(RELEASE_BUILD)(
    "release build: a render needing more heap than the ceiling answers output_too_large, stays at the ceiling, answers the next",
    async () => {
      // 1.2 MB of small elements: its parse trees need ~150 MiB of heap, its output only ~1.2 MB.
      const heavy = { template: paragraphTemplate("heavy", `<p>${"<b>x</b>".repeat(150_000)}</p>`), target: "html" };
      const engine = serve(["--max-memory", "64"]);
      await engine.request(small);
      const refused = await engine.request(heavy);
      expect((refused.envelope as ErrorResponse).error?.code).toBe("RENDER_ERROR");
      expect(typeOf(refused.envelope)).toBe("output_too_large");
      expect((refused.envelope as ErrorResponse).error.message).toMatch(/ceiling of 64 MiB/);
      // The heap is capped at the ceiling less 8 MiB for the binary, its stack and the allocator's books.
      expect(engine.memory().peakMiB).toBeLessThan(64 + 16);
      expect((await engine.request(small)).envelope.ok).toBe(true);
      expect(engine.memory().residentMiB).toBeLessThan(32);
      // Without the ceiling the same render succeeds: the refusal is the ceiling's.
      const unbounded = serve();
      expect((await unbounded.request(heavy)).envelope.ok).toBe(true);
      expect(unbounded.memory().peakMiB).toBeGreaterThan(64 + 16);
    },
    300_000,
  );

  it.runIf(!RELEASE_BUILD)(
    "Node build: an output the headroom under the ceiling cannot hold answers output_too_large, and the next is answered",
    async () => {
      // 16,000,000 bytes of output: under the default limit, over what 128 MiB less the process's ~60 MiB holds at 4 bytes a byte.
      const large = {
        template: paragraphTemplate("large", "<p>{{ v }}{{ v }}{{ v }}{{ v }}</p>"),
        target: "mjml",
        dynamic_data: { merge_tags: { text: { v: "a".repeat(4_000_000) } } },
      };
      const engine = serve(["--max-memory", "128"]);
      await engine.request(small);
      const refused = await engine.request(large);
      expect(typeOf(refused.envelope)).toBe("output_too_large");
      const limit = Number(/the limit is (\d+)/.exec((refused.envelope as ErrorResponse).error.message)?.[1]);
      expect(limit).toBeLessThan(16_000_000);
      expect(engine.memory().peakMiB).toBeLessThan(128);
      expect((await engine.request(small)).envelope.ok).toBe(true);
      const unbounded = serve();
      expect((await unbounded.request(large)).envelope.ok).toBe(true);
    },
    300_000,
  );

  it("a malformed ceiling, or one with a human command, is a usage error (exit 2)", () => {
    for (const args of [
      ["--serve", "--max-memory"],
      ["--max-memory", "abc"],
      ["--max-memory", "8"],
      ["--max-memory", "64", "validate"],
    ]) {
      const run = spawnSync(BINARY, args, { input: "", encoding: "utf8" });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--max-memory/);
    }
  });
});
