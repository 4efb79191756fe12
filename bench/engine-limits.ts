/**
 * The template size limits (spec/template.md, "Limits"), measured: how fast an oversized template is
 * refused, and what the largest template the defaults accept costs to render, per target, in the
 * library and through the executable (one-shot; "minimal", an empty template, is its start-up cost).
 * Prints figures; asserts nothing.
 *   tsx bench/engine-limits.ts            (BENCH_RUNS, default 5: renders per figure, median shown)
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { DEFAULT_LIMITS, RENDER_TARGETS, RenderError, type RenderTarget, render } from "../engine/src/index.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
const BINARY = fileURLToPath(new URL(`../engine/dist/${process.platform}-${process.arch}/mailrender-engine`, import.meta.url));

const doc = (rows: unknown[]) => ({ template_id: "limits", template_name: "Limits", schema_version: "1.0", canvas: {}, rows });

/** The report's hostile template: 200,000 rows without content (600 KB of JSON). */
const hostile = doc(Array.from({ length: 200_000 }, () => ({})));

/** The largest newsletter-like template the node limit accepts: rows of one column holding one paragraph (3 nodes each). */
const largest = doc(
  Array.from({ length: Math.floor(DEFAULT_LIMITS.maxNodes / 3) }, (_, i) => ({
    columns: [
      {
        children: [
          {
            type: "paragraph",
            props: { content: `<p>Story ${i}: a paragraph of about a hundred characters, with <a href="https://example.com/${i}">a link</a>.</p>` },
          },
        ],
      },
    ],
  })),
);

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function libraryMs(template: unknown, target: RenderTarget): Promise<{ ms: number; outcome: string }> {
  const samples: number[] = [];
  let outcome = "";
  for (let i = 0; i < RUNS; i++) {
    // A new id each run defeats the parse and compile caches: a template seen the first time.
    const copy = { ...(template as object), template_id: `limits-${i}-${performance.now()}` };
    const started = performance.now();
    try {
      const { output } = await render(copy, { target });
      outcome = `ok, ${(Buffer.byteLength(output) / 1024).toFixed(0)} KiB`;
    } catch (error) {
      outcome = error instanceof RenderError ? `refused: ${error.issues[0]?.type}` : String(error);
    }
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), outcome };
}

function binaryMs(template: unknown, target: RenderTarget): { ms: number; outcome: string } {
  const input = JSON.stringify({ template, target });
  const samples: number[] = [];
  let outcome = "";
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const run = spawnSync(BINARY, [], { input, maxBuffer: 256 * 1024 * 1024 });
    samples.push(performance.now() - started);
    const envelope = JSON.parse(run.stdout.toString("utf8")) as { ok: boolean; error?: { issues: Array<{ type: string }> } };
    outcome = envelope.ok ? "ok" : `refused: ${envelope.error?.issues[0]?.type}`;
  }
  return { ms: median(samples), outcome };
}

console.log(`defaults: maxNodes ${DEFAULT_LIMITS.maxNodes}, maxOutputBytes ${DEFAULT_LIMITS.maxOutputBytes}; median of ${RUNS}`);
console.log(
  `hostile: 200,000 empty rows, ${(JSON.stringify(hostile).length / 1024).toFixed(0)} KB; largest accepted: ${largest.rows.length} rows × 3 nodes, ${(JSON.stringify(largest).length / 1024).toFixed(0)} KB`,
);
for (const [name, template] of [
  ["minimal", doc([])],
  ["hostile", hostile],
  ["largest", largest],
] as const) {
  for (const target of RENDER_TARGETS) {
    const lib = await libraryMs(template, target);
    const line = `${name.padEnd(8)} ${target.padEnd(12)} library ${lib.ms.toFixed(1).padStart(8)} ms (${lib.outcome})`;
    if (!existsSync(BINARY)) console.log(`${line}; executable not built (make engine)`);
    else {
      const bin = binaryMs(template, target);
      console.log(`${line}; executable one-shot ${bin.ms.toFixed(1).padStart(8)} ms (${bin.outcome})`);
    }
  }
}
