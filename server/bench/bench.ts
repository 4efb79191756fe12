import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

/**
 * `bash scripts/bench-server.sh`: GET /v1/sdk/template/{id} with authentication (cached key and
 * template lookups, rate limiter, headers) and the request log at `info` (JSON lines on stdout, into
 * a file, as a log collector would take them) against a bare Fastify route returning the same JSON,
 * one after the other in one run, each server in its own process. Loopback only. Prints figures;
 * the target is ≥ 80% of the bare route's throughput with zero errors. Each server's CPU time per
 * request is printed too: on a shared machine it moves less than requests/s.
 *
 * BENCH_DURATION_S, BENCH_CONNECTIONS, BENCH_ROUNDS tune the run; BENCH_LOG_LEVEL=warn measures the
 * service without its request log (to see what the log costs); BENCH_NODE_ARGS are node options for
 * the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
 */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const DURATION_S = Number(process.env["BENCH_DURATION_S"] ?? 5);
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 50);
const NODE_ARGS = (process.env["BENCH_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
const TARGET = 0.8;

/** Starts a server script; it sends its address (and keys) over IPC, and its stdout goes to `stdout`. */
function startChild(
  script: string,
  options: { args?: string[]; nodeArgs?: string[]; env?: Record<string, string>; stdout?: number } = {},
): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", script, ...(options.args ?? [])], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", options.stdout ?? "ignore", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`${script} exited early (${code})`)));
    child.once("message", (info) => {
      child.disconnect();
      resolve({ child, info: info as Record<string, string> });
    });
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
  /** The server process's CPU time (user + system) per request answered, in µs; NaN where /proc is absent. */
  cpuUsPerRequest: number;
}

/**
 * A process's CPU time in ms, from /proc (Linux). On a shared machine this moves far less than
 * requests/s: it counts only the time the server ran, not the time it waited for a core.
 */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100;

async function measure(name: string, server: ChildProcess, url: string, headers: Record<string, string>): Promise<Figures> {
  // A short warm-up fills caches and lets V8 optimise before the measured run.
  await autocannon({ url, headers, connections: 10, duration: 1 });
  const before = cpuMs(server.pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  const cpuUsPerRequest = ((cpuMs(server.pid) - before) * 1000) / result.requests.total;
  return { name, reqPerSec: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx, cpuUsPerRequest };
}

function countLines(file: string): number {
  const fd = openSync(file, "r");
  const chunk = Buffer.alloc(1 << 20);
  let lines = 0;
  for (;;) {
    const n = readSync(fd, chunk);
    if (n === 0) break;
    for (let i = 0; i < n; i++) if (chunk[i] === 10) lines++;
  }
  closeSync(fd);
  return lines;
}

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);

const logDir = mkdtempSync(path.join(os.tmpdir(), "mailrender-bench-log-"));
const logFile = path.join(logDir, "service.log");
const logFd = openSync(logFile, "w");
const app = await startChild("bench/serve-app.ts", { nodeArgs: NODE_ARGS, env: { BENCH_LOG_LEVEL: process.env["BENCH_LOG_LEVEL"] ?? "info" }, stdout: logFd });
closeSync(logFd);
const bare = await startChild("bench/serve-bare.ts", { args: [app.info["body"] ?? "{}"] });
const route = `/v1/sdk/template/${app.info["templateId"]}`;
const results: { ours: Figures; baseline: Figures }[] = [];
try {
  // Alternating rounds, so a noisy neighbour on a shared machine hurts both sides alike.
  for (let round = 0; round < ROUNDS; round++) {
    const ours = await measure("GET /v1/sdk/template/{id} (auth)", app.child, app.info["url"] + route, { authorization: `Bearer ${app.info["key"]}` });
    const baseline = await measure("bare Fastify route, same JSON", bare.child, bare.info["url"] + route, {});
    results.push({ ours, baseline });
  }
} finally {
  await stop(app.child);
  await stop(bare.child);
}

const line = (f: Figures) =>
  `  ${f.name.padEnd(36)} ${f.reqPerSec.toFixed(0).padStart(9)} req/s   p99 ${String(f.p99).padStart(4)} ms   server CPU ${f.cpuUsPerRequest.toFixed(1).padStart(6)} µs/req   errors ${f.errors}`;
const ratios = results.map((r) => r.ours.reqPerSec / r.baseline.reqPerSec);
// The median round is reported: one round can be skewed by other work on a shared machine.
const median = [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)] ?? 0;
const cpuRatios = results.map((r) => r.baseline.cpuUsPerRequest / r.ours.cpuUsPerRequest);
const cpuMedian = [...cpuRatios].sort((x, y) => x - y)[Math.floor(cpuRatios.length / 2)] ?? 0;
const errors = results.reduce((n, r) => n + r.ours.errors + r.baseline.errors, 0);
// The log is part of what is measured: it holds one line for every request answered.
const logLines = countLines(logFile);
const logBytes = statSync(logFile).size;
rmSync(logDir, { recursive: true, force: true });
process.stdout.write(
  [
    `autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} alternating rounds, loopback`,
    ...results.flatMap((r, i) => [`round ${i + 1}: ratio ${((ratios[i] ?? 0) * 100).toFixed(1)}%`, line(r.ours), line(r.baseline)]),
    `service log (${process.env["BENCH_LOG_LEVEL"] ?? "info"}): ${logLines} lines, ${(logBytes / 1e6).toFixed(0)} MB`,
    `median CPU ratio (the bare route's CPU per request over ours): ${(cpuMedian * 100).toFixed(1)}%`,
    `median ratio: ${(median * 100).toFixed(1)}% of the bare route (target ≥ ${TARGET * 100}%) — ${median >= TARGET ? "met" : "NOT met"}; errors: ${errors}`,
    "",
  ].join("\n"),
);
if (errors > 0) process.exitCode = 1;
