import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

/**
 * `bash scripts/bench-server.sh`: GET /v1/sdk/template/{id} with authentication (cached key and
 * template lookups, rate limiter, headers) and the request log at `info` (JSON lines on stdout, into
 * a file, as a log collector would take them) against a bare Fastify route returning the same JSON,
 * one after the other in each round, each server in a process of its own, new in every round.
 * Loopback only. Prints figures; the target is ≥ 80% of the bare route's throughput with zero
 * errors. Each server's CPU time per request is printed too: on a shared machine it moves less than
 * requests/s.
 *
 * BENCH_DURATION_S, BENCH_CONNECTIONS, BENCH_ROUNDS tune the run; BENCH_LOG_LEVEL=warn measures the
 * service without its request log (to see what the log costs); BENCH_NODE_ARGS are node options for
 * the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, or `--trace-gc` for the garbage a request
 * leaves (logFigures). BENCH_PERF_DIR=<dir> records every measured run of every server with `perf`
 * (on-CPU samples of all its threads, kernel included) for `bench/layers.ts`, which splits a
 * request's CPU time by layer.
 */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const DURATION_S = Number(process.env["BENCH_DURATION_S"] ?? 5);
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 50);
const NODE_ARGS = (process.env["BENCH_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
const TARGET = 0.8;
/** Each server is new in each round: until V8 has optimised its hot code, a request costs more. */
const WARM_UP_S = 3;
const PERF_DIR = process.env["BENCH_PERF_DIR"];
/** perf names JavaScript functions from the map file V8 writes (/tmp/perf-<pid>.map) with this flag. */
const PERF_NODE_ARGS = PERF_DIR === undefined ? [] : ["--perf-basic-prof-only-functions"];
const perfRuns: { name: string; pid: number; requests: number; data: string }[] = [];

/** Starts a server script; it sends its address (and keys) over IPC, and its stdout goes to `stdout`. */
function startChild(
  script: string,
  options: { args?: string[]; nodeArgs?: string[]; env?: Record<string, string>; stdout?: number; cwd?: string } = {},
): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", script, ...(options.args ?? [])], {
    cwd: options.cwd ?? SERVER_DIR,
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
  /** The server process's CPU time (user + system, all threads) per request answered, in µs; NaN where /proc is absent. */
  cpuUsPerRequest: number;
  /** The same split: the main (JavaScript) thread's user and system time, and every other thread's (libuv's pool, V8's helpers). */
  split: CpuTimes;
  /** Context switches of the whole process per request (voluntary + involuntary, all threads). */
  switchesPerRequest: number;
}

interface CpuTimes {
  mainUser: number;
  mainSystem: number;
  others: number;
}

/**
 * A process's CPU time in ms by thread, from /proc (Linux). On a shared machine this moves far less
 * than requests/s: it counts only the time the server ran, not the time it waited for a core. The
 * main thread is the task whose id is the pid; the others are libuv's pool (asynchronous file
 * writes) and V8's helpers (garbage collection, compilation).
 */
function cpuTimes(pid: number | undefined): CpuTimes & { switches: number } {
  const times = { mainUser: 0, mainSystem: 0, others: 0, switches: 0 };
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      const [user, system] = [Number(fields[11]) * TICK_MS, Number(fields[12]) * TICK_MS];
      if (task === String(pid)) Object.assign(times, { mainUser: user, mainSystem: system });
      else times.others += user + system;
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, "utf8");
      for (const m of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)/gm)) times.switches += Number(m[1]);
    }
  } catch {
    return { mainUser: Number.NaN, mainSystem: Number.NaN, others: Number.NaN, switches: Number.NaN };
  }
  return times;
}
/** /proc counts CPU time in clock ticks of 10 ms. */
const TICK_MS = 10;

/** With BENCH_PERF_DIR, `perf record` on the server during `run`; the recording is listed for bench/layers.ts. */
async function recorded<T extends { requests: { total: number } }>(name: string, server: ChildProcess, run: () => Promise<T>): Promise<T> {
  if (PERF_DIR === undefined || server.pid === undefined) return run();
  const data = path.join(PERF_DIR, `${perfRuns.length}.data`);
  const perf = spawn("perf", ["record", "-q", "-e", "cpu-clock", "-F", "2999", "-g", "-p", String(server.pid), "-o", data], { stdio: "ignore" });
  await new Promise((resolve) => setTimeout(resolve, 300)); // perf attaches
  const result = await run();
  const done = new Promise((resolve) => perf.once("exit", resolve));
  perf.kill("SIGINT");
  await done;
  perfRuns.push({ name, pid: server.pid, requests: result.requests.total, data });
  return result;
}

async function measure(name: string, server: ChildProcess, url: string, headers: Record<string, string>): Promise<Figures> {
  // A warm-up fills caches and lets V8 optimise before the measured run.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARM_UP_S });
  const before = cpuTimes(server.pid);
  const result = await recorded(name, server, () => autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S }));
  const after = cpuTimes(server.pid);
  const perRequest = (ms: number) => (ms * 1000) / result.requests.total;
  const split = {
    mainUser: perRequest(after.mainUser - before.mainUser),
    mainSystem: perRequest(after.mainSystem - before.mainSystem),
    others: perRequest(after.others - before.others),
  };
  return {
    name,
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuUsPerRequest: split.mainUser + split.mainSystem + split.others,
    split,
    switchesPerRequest: (after.switches - before.switches) / result.requests.total,
  };
}

/**
 * What a service's log file holds, read once: its lines (one for every request answered), and, with
 * BENCH_NODE_ARGS=--trace-gc (V8's collection lines land beside the request lines), the young
 * generation's collections and what they freed per request line (warm-ups included), a figure the
 * machine's load hardly moves.
 */
function logFigures(file: string): { lines: number; requests: number; scavenges: number; freedMb: number } {
  const figures = { lines: 0, requests: 0, scavenges: 0, freedMb: 0 };
  const fd = openSync(file, "r");
  const chunk = Buffer.alloc(1 << 20);
  let partial = "";
  for (;;) {
    const n = readSync(fd, chunk);
    const lines = (partial + chunk.toString("utf8", 0, n)).split("\n");
    partial = n === 0 ? "" : (lines.pop() ?? "");
    figures.lines += n === 0 ? 0 : lines.length;
    for (const text of lines) {
      if (text.includes('"msg":"request completed"')) figures.requests++;
      const scavenge = /Scavenge ([\d.]+) \([\d.]+\) -> ([\d.]+)/.exec(text);
      if (scavenge !== null) {
        figures.scavenges++;
        figures.freedMb += Number(scavenge[1]) - Number(scavenge[2]);
      }
    }
    if (n === 0) break;
  }
  closeSync(fd);
  return figures;
}

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);

/**
 * The services measured, each against the bare route in the same rounds: BENCH_SERVICES is a comma
 * list of `level` or `level:dir`, where dir is another checkout's server/ (built), e.g.
 * `info,warn` (what the log costs) or `info,info:/tmp/before/server` (a change, before and after,
 * in one run). Default: this tree at BENCH_LOG_LEVEL (info).
 */
const variants = (process.env["BENCH_SERVICES"] ?? process.env["BENCH_LOG_LEVEL"] ?? "info").split(",").map((spec) => {
  const [level = "info", dir] = spec.split(":");
  return { label: dir === undefined ? level : `${level} (${dir})`, level, dir: dir ?? SERVER_DIR };
});
const logDir = mkdtempSync(path.join(os.tmpdir(), "mailrender-bench-log-"));
const services = variants.map((variant, i) => ({ ...variant, logFile: path.join(logDir, `service-${i}.log`) }));

/** A service variant in a new process; its log (stdout) is appended to the variant's file. */
async function startService(service: (typeof services)[number]) {
  const logFd = openSync(service.logFile, "a");
  try {
    return await startChild("bench/serve-app.ts", {
      nodeArgs: [...PERF_NODE_ARGS, ...NODE_ARGS],
      env: { BENCH_LOG_LEVEL: service.level },
      stdout: logFd,
      cwd: service.dir,
    });
  } finally {
    closeSync(logFd);
  }
}

if (PERF_DIR !== undefined) mkdirSync(PERF_DIR, { recursive: true });
const results: { ours: Figures[]; baseline: Figures }[] = [];
// Alternating rounds, so a noisy neighbour on a shared machine hurts every side alike. Every round
// starts every server afresh: a Node process settles into a state as it warms up (how V8 compiled
// and laid out its code and heap) and keeps it, and a process's state moves its CPU per request by
// up to a third; a round's median is then over processes, not over one process's luck.
for (let round = 0; round < ROUNDS; round++) {
  const running: ChildProcess[] = [];
  try {
    const ours: Figures[] = [];
    // The bare route answers the first service's template, under the same path.
    let first: Record<string, string> | undefined;
    for (const s of services) {
      const { child, info } = await startService(s);
      running.push(child);
      first ??= info;
      const url = `${info["url"]}/v1/sdk/template/${info["templateId"]}`;
      ours.push(await measure(`service, log at ${s.label}`.slice(0, 36), child, url, { authorization: `Bearer ${info["key"]}` }));
    }
    const bare = await startChild("bench/serve-bare.ts", { args: [first?.["body"] ?? "{}"], nodeArgs: PERF_NODE_ARGS });
    running.push(bare.child);
    const baseline = await measure("bare Fastify route, same JSON", bare.child, `${bare.info["url"]}/v1/sdk/template/${first?.["templateId"]}`, {});
    results.push({ ours, baseline });
  } finally {
    for (const child of running) await stop(child);
  }
}

const line = (f: Figures) =>
  `  ${f.name.padEnd(36)} ${f.reqPerSec.toFixed(0).padStart(9)} req/s   p99 ${String(f.p99).padStart(4)} ms   server CPU ${f.cpuUsPerRequest.toFixed(1).padStart(6)} µs/req ` +
  `(main ${f.split.mainUser.toFixed(1)} user + ${f.split.mainSystem.toFixed(1)} sys, other threads ${f.split.others.toFixed(1)}; ` +
  `${f.switchesPerRequest.toFixed(2)} switches/req)   errors ${f.errors}`;
const medianOf = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
// The median round is reported: one round can be skewed by other work on a shared machine.
const ratiosOf = (i: number) => results.map((r) => r.ours[i]!.reqPerSec / r.baseline.reqPerSec);
const cpuRatiosOf = (i: number) => results.map((r) => r.baseline.cpuUsPerRequest / r.ours[i]!.cpuUsPerRequest);
const median = medianOf(ratiosOf(0));
/** Above this, a service's threads other than the main one are V8's scavengers promoting what requests left. */
const SLOW_STATE_OTHER_US = 5;
const otherThreads = (i: number) => medianOf(results.map((r) => r.ours[i]!.split.others));
const errors = results.reduce((n, r) => n + r.ours.reduce((m, f) => m + f.errors, 0) + r.baseline.errors, 0);
const summary = services.flatMap((s, i) => {
  // The log is part of what is measured: it holds one line for every request answered.
  const { lines, ...gc } = logFigures(s.logFile);
  const bytes = statSync(s.logFile).size;
  return [
    `service, log at ${s.label}: ${lines} log lines, ${(bytes / 1e6).toFixed(0)} MB; median CPU per request ${medianOf(results.map((r) => r.ours[i]!.cpuUsPerRequest)).toFixed(1)} µs`,
    `  median CPU ratio (the bare route's CPU per request over the service's): ${(medianOf(cpuRatiosOf(i)) * 100).toFixed(1)}%; median req/s ratio ${(medianOf(ratiosOf(i)) * 100).toFixed(1)}%`,
    ...(otherThreads(i) < SLOW_STATE_OTHER_US
      ? []
      : [`  other threads ${otherThreads(i).toFixed(1)} µs a request: the collector's slow state (docs/design/service-hot-path.md, the log)`]),
    ...(gc.scavenges === 0 || gc.requests === 0
      ? []
      : [
          `  young-generation collections (--trace-gc): ${((gc.scavenges * 1000) / gc.requests).toFixed(2)} per 1,000 requests, ` +
            `${((gc.freedMb * 1024) / gc.requests).toFixed(1)} KB freed a request`,
        ]),
  ];
});
rmSync(logDir, { recursive: true, force: true });
if (PERF_DIR !== undefined) writeFileSync(path.join(PERF_DIR, "runs.json"), `${JSON.stringify(perfRuns, null, 1)}\n`);
process.stdout.write(
  [
    `autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} alternating rounds, loopback`,
    ...results.flatMap((r, i) => [`round ${i + 1}: ratio ${((ratiosOf(0)[i] ?? 0) * 100).toFixed(1)}%`, ...r.ours.map(line), line(r.baseline)]),
    ...summary,
    `median CPU per request of the bare route: ${medianOf(results.map((r) => r.baseline.cpuUsPerRequest)).toFixed(1)} µs`,
    `median ratio: ${(median * 100).toFixed(1)}% of the bare route (target ≥ ${TARGET * 100}%) — ${median >= TARGET ? "met" : "NOT met"}; errors: ${errors}`,
    "",
  ].join("\n"),
);
if (errors > 0) process.exitCode = 1;
