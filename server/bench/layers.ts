import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Where a request's CPU time goes, by layer, for each server `bench.ts` measured with
 * BENCH_PERF_DIR=<dir> (needs `perf`, Debian's linux-perf, and the right to profile the servers):
 *
 *   BENCH_PERF_DIR=/tmp/route-perf bash scripts/bench-server.sh
 *   node --import tsx server/bench/layers.ts /tmp/route-perf
 *
 * Each on-CPU sample (all threads, kernel included, 2999 a second) goes to the innermost layer on
 * its stack that is not Node's own code: a socket write under Fastify's reply counts as the reply's,
 * a file write under pino as the log's. Samples with no such layer are Node's HTTP machinery (the
 * parser, the request and response streams, the event loop) or native code whose stack perf cannot
 * walk. Figures are µs a request, the median over the rounds; perf's own overhead and the machine's
 * load inflate every figure alike, so read them side by side, not as absolute costs.
 */
const dir = process.argv[2] ?? process.env["BENCH_PERF_DIR"];
if (dir === undefined) throw new Error("usage: layers.ts <BENCH_PERF_DIR>");
const SAMPLES_PER_S = 2999;

/** The layers, first match wins; a frame is `symbol (file)` as `perf script` prints it. */
const LAYERS: [layer: string, frame: RegExp][] = [
  ["ours: rate limiter", /server\/lib\/auth\/rate-limit/],
  ["ours: auth hook (bearer token, SHA-256, constant-time compare)", /server\/lib\/auth\//],
  ["ours: key and template cache", /server\/lib\/cache\//],
  ["ours: route handler (headers, ETag check)", /server\/lib\/(routes|targets)/],
  ["log: our request line, URL redaction and writer", /server\/lib\/(http\/(request-log|redact)|log-writer)/],
  ["validation (zod, our compiler)", /server\/lib\/http\/validation|node_modules\/(zod|fastify-type-provider-zod)\//],
  ["ours: onSend hook (framing headers)", /server\/lib\/(app|http\/security-headers)\.js/],
  ["ours: other", /server\/lib\//],
  ["log: pino (line, child logger)", /node_modules\/(pino|sonic-boom|@pinojs|quick-format-unescaped)\/|fastify\/lib\/(log-controller|logger)/],
  ["Fastify: routing (find-my-way)", /node_modules\/find-my-way\//],
  ["Fastify: reply, with Node's response write and the socket send", /fastify\/lib\/(reply|content-type|headers)\.js/],
  ["Fastify: hook runners", /fastify\/lib\/hooks\.js/],
  ["Fastify: request and reply objects, route glue", /node_modules\/(fastify|toad-cache)\//],
  ["other libraries", /node_modules\//],
];
const NODE = "Node: HTTP parser, request/response streams, event loop (and unwalkable native stacks)";
const GC = "GC (main thread)";
const THREADS = "other threads (log writes in libuv's pool, GC and compiler helpers)";
const GC_FRAME = /Heap::|Scavenge|MarkCompact|GCTracer|Sweeper/;

/**
 * V8 appends to its map as it compiles, and reuses the addresses of code it has freed: perf would
 * name a sample after the first (stale) entry covering its address. Only the latest entry of each
 * address range is kept.
 */
function keepLatestSymbols(pid: number): void {
  const file = `/tmp/perf-${pid}.map`;
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
  const kept: string[] = [];
  const ranges: [start: number, end: number][] = []; // sorted by start, disjoint
  for (const line of lines.reverse()) {
    const [start, size] = line.split(" ", 2).map((hex) => Number.parseInt(hex, 16)) as [number, number];
    const end = start + size;
    let lo = 0;
    let hi = ranges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid]![0] < start) lo = mid + 1;
      else hi = mid;
    }
    const overlaps = (lo < ranges.length && ranges[lo]![0] < end) || (lo > 0 && ranges[lo - 1]![1] > start);
    if (overlaps) continue;
    ranges.splice(lo, 0, [start, end]);
    kept.push(line);
  }
  writeFileSync(file, `${kept.reverse().join("\n")}\n`);
}

function layersOf(data: string): { samples: Map<string, number>; kernel: Map<string, number>; total: number } {
  const text = execFileSync("perf", ["script", "-i", data, "-F", "pid,tid,ip,sym,dso"], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const samples = new Map<string, number>();
  const kernel = new Map<string, number>();
  let total = 0;
  for (const block of text.split("\n\n")) {
    const [head, ...frames] = block.split("\n").filter((line) => line.trim() !== "");
    if (head === undefined) continue;
    const [pid, tid] = head.trim().split(/[\s/]+/);
    let layer: string;
    if (pid !== tid) layer = THREADS;
    else if (frames.some((f) => GC_FRAME.test(f))) layer = GC;
    else layer = frames.map((f) => LAYERS.find(([, re]) => re.test(f))?.[0]).find((l) => l !== undefined) ?? NODE;
    total++;
    samples.set(layer, (samples.get(layer) ?? 0) + 1);
    if (frames[0]?.includes("[kernel")) kernel.set(layer, (kernel.get(layer) ?? 0) + 1);
  }
  return { samples, kernel, total };
}

const runs = JSON.parse(readFileSync(path.join(dir, "runs.json"), "utf8")) as { name: string; pid: number; requests: number; data: string }[];
for (const pid of new Set(runs.map((r) => r.pid))) keepLatestSymbols(pid);
/** Per server: per layer, µs a request in each round (all samples, and those in the kernel). */
const servers = new Map<string, Map<string, { all: number[]; kernel: number[] }>>();
for (const run of runs) {
  const { samples, kernel, total } = layersOf(run.data);
  const us = (n: number) => ((n / SAMPLES_PER_S) * 1e6) / run.requests;
  const layers = servers.get(run.name) ?? new Map<string, { all: number[]; kernel: number[] }>();
  servers.set(run.name, layers);
  for (const [layer, n] of [...samples, ["total", total] as const]) {
    const entry = layers.get(layer) ?? { all: [], kernel: [] };
    entry.all.push(us(n));
    entry.kernel.push(us(kernel.get(layer) ?? 0));
    layers.set(layer, entry);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const names = [...servers.keys()];
const allLayers = [...new Set([...servers.values()].flatMap((layers) => [...layers.keys()]))].filter((l) => l !== "total");
const of = (name: string, layer: string) => servers.get(name)?.get(layer);
const cell = (name: string, layer: string) => {
  const entry = of(name, layer);
  return entry === undefined ? "".padStart(20) : `${median(entry.all).toFixed(1).padStart(6)} (kernel ${median(entry.kernel).toFixed(1).padStart(4)})`;
};
allLayers.sort((a, b) => median(of(names[0]!, b)?.all ?? []) - median(of(names[0]!, a)?.all ?? []));
process.stdout.write(
  [
    `CPU µs a request by layer, median of ${Math.max(...[...servers.values()].map((l) => l.get("total")?.all.length ?? 0))} rounds (perf, all threads):`,
    ...names.map((name, i) => `  [${i + 1}] ${name}`),
    `  ${"layer".padEnd(88)}${names.map((_, i) => `[${i + 1}]`.padStart(21)).join("")}`,
    ...allLayers.map((layer) => `  ${layer.padEnd(88)}${names.map((name) => ` ${cell(name, layer)}`).join("")}`),
    `  ${"total".padEnd(88)}${names
      .map(
        (name) =>
          ` ${median(of(name, "total")?.all ?? [])
            .toFixed(1)
            .padStart(6)}${"".padStart(14)}`,
      )
      .join("")}`,
    "",
  ].join("\n"),
);
