import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

/**
 * `bash scripts/bench-server.sh instructions`: the CPU instructions one request costs each server
 * (the service's GET /v1/sdk/template/{id} with its log at `info`, and the bare Fastify route), counted
 * by valgrind's callgrind: a figure other work on the machine does not move, unlike requests/s or
 * CPU time. Each server starts under valgrind with counting off, takes a warm-up (V8 optimises
 * the route), then counts exactly BENCH_REQUESTS requests (default 2000, one at a time). User-space
 * instructions only: the kernel's share (sockets, the log's writes) is not counted. Slow: a few
 * minutes.
 */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const REQUESTS = Number(process.env["BENCH_REQUESTS"] ?? 2000);
const WARM_UP = 3000;

/** Runs `script` under callgrind; its instructions per request, and what it sent over IPC. */
async function instructionsPerRequest(
  script: string,
  args: string[],
  env: Record<string, string>,
  headers: (info: Record<string, string>) => Record<string, string>,
): Promise<{ perRequest: number; info: Record<string, string> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mailrender-bench-callgrind-"));
  const child: ChildProcess = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      `--callgrind-out-file=${path.join(dir, "callgrind.out")}`,
      process.execPath,
      // V8's background threads (compilers, GC helpers) would count their work whenever it happens to run.
      "--single-threaded",
      "--import",
      "tsx",
      script,
      ...args,
    ],
    { cwd: SERVER_DIR, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "ignore", "ipc"] },
  );
  try {
    const info = await new Promise<Record<string, string>>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`${script} under valgrind exited early (${code})`)));
      child.once("message", (message) => resolve(message as Record<string, string>));
    });
    child.disconnect();
    const url = `${info["url"]}/v1/sdk/template/${info["templateId"] ?? "00000000-0000-4000-8000-000000000000"}`;
    // One connection: each request is answered alone, the same way whatever the machine is doing.
    const options = { url, headers: headers(info), connections: 1, timeout: 60 };
    await autocannon({ ...options, amount: WARM_UP });
    const control = (flag: string) => execFileSync("callgrind_control", [flag, String(child.pid)], { stdio: "ignore" });
    control("--instr=on");
    const result = await autocannon({ ...options, amount: REQUESTS });
    control("--instr=off");
    control("--dump");
    if (result.non2xx + result.errors > 0) throw new Error(`${script}: ${result.non2xx + result.errors} failed requests`);
    child.removeAllListeners("exit");
    const done = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await done;
    // Each dump (and the one at exit) is a file; counting was on only between the two controls.
    let total = 0;
    for (const file of readdirSync(dir)) {
      const match = /^totals: (\d+)$/m.exec(readFileSync(path.join(dir, file), "utf8"));
      total += Number(match?.[1] ?? 0);
    }
    return { perRequest: total / REQUESTS, info };
  } finally {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

const ours = await instructionsPerRequest("bench/serve-app.ts", [], { BENCH_LOG_LEVEL: process.env["BENCH_LOG_LEVEL"] ?? "info" }, (info) => ({
  authorization: `Bearer ${info["key"]}`,
}));
// The bare route answers the same JSON.
const bare = await instructionsPerRequest("bench/serve-bare.ts", [ours.info["body"] ?? "{}"], {}, () => ({}));
const k = (n: number) => `${(n / 1000).toFixed(0)}k`;
process.stdout.write(
  [
    `callgrind, ${REQUESTS} requests after ${WARM_UP} of warm-up, one connection, loopback; user-space instructions per request`,
    `  GET /v1/sdk/template/{id} (auth, log ${process.env["BENCH_LOG_LEVEL"] ?? "info"})  ${k(ours.perRequest)}`,
    `  bare Fastify route, same JSON              ${k(bare.perRequest)}`,
    `ratio (the bare route's instructions per request over ours): ${((bare.perRequest / ours.perRequest) * 100).toFixed(1)}%`,
    "",
  ].join("\n"),
);
