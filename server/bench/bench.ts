import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

/**
 * `bash scripts/bench-server.sh`: GET /v1/sdk/template/{id} with authentication (cached key and
 * template lookups, rate limiter, headers) against a bare Fastify route returning the same JSON,
 * one after the other in one run, each server in its own process. Loopback only. Prints figures;
 * the target is ≥ 60% of the bare route's throughput with zero errors.
 */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const DURATION_S = Number(process.env["BENCH_DURATION_S"] ?? 5);
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 50);

function startChild(script: string, args: string[] = []): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: SERVER_DIR, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`${script} exited early (${code})`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ child, info: JSON.parse(line) as Record<string, string> }));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners("exit");
  const done = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await done;
}

interface Figures {
  name: string;
  reqPerSec: number;
  p99: number;
  errors: number;
}

async function measure(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  // A short warm-up fills caches and lets V8 optimise before the measured run.
  await autocannon({ url, headers, connections: 10, duration: 1 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  return { name, reqPerSec: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);

const app = await startChild("bench/serve-app.ts");
const bare = await startChild("bench/serve-bare.ts", [app.info["body"] ?? "{}"]);
const path = `/v1/sdk/template/${app.info["templateId"]}`;
const results: { ours: Figures; baseline: Figures }[] = [];
try {
  // Alternating rounds, so a noisy neighbour on a shared machine hurts both sides alike.
  for (let round = 0; round < ROUNDS; round++) {
    const ours = await measure("GET /v1/sdk/template/{id} (auth)", app.info["url"] + path, { authorization: `Bearer ${app.info["key"]}` });
    const baseline = await measure("bare Fastify route, same JSON", bare.info["url"] + path, {});
    results.push({ ours, baseline });
  }
} finally {
  await stop(app.child);
  await stop(bare.child);
}

const line = (f: Figures) => `  ${f.name.padEnd(36)} ${f.reqPerSec.toFixed(0).padStart(9)} req/s   p99 ${String(f.p99).padStart(4)} ms   errors ${f.errors}`;
const ratios = results.map((r) => r.ours.reqPerSec / r.baseline.reqPerSec);
// The median round is reported: one round can be skewed by other work on a shared machine.
const median = [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)] ?? 0;
const errors = results.reduce((n, r) => n + r.ours.errors + r.baseline.errors, 0);
process.stdout.write(
  [
    `autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} alternating rounds, loopback`,
    ...results.flatMap((r, i) => [`round ${i + 1}: ratio ${((ratios[i] ?? 0) * 100).toFixed(1)}%`, line(r.ours), line(r.baseline)]),
    `median ratio: ${(median * 100).toFixed(1)}% of the bare route (target ≥ 60%) — ${median >= 0.6 ? "met" : "NOT met"}; errors: ${errors}`,
    "",
  ].join("\n"),
);
if (errors > 0) process.exitCode = 1;
