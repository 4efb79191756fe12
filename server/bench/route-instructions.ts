import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import Fastify from "fastify";
import { startCompiledService } from "./compiled-service.js";

/**
 * Instructions a request costs on the SDK route and on the bare Fastify route, counted by valgrind
 * (callgrind) in one server process that serves both: the compiled service as bench.ts starts it
 * (SQLite, the demo template and key, its log into a file) and, beside it on its own port, the bare
 * route answering the same JSON. Unlike CPU time, the counts do not move with the machine's load,
 * and with both routes in one process, whatever the process carries (its heap, its threads, its
 * flags, the log's destination) is the same for both: the difference is the route's own work.
 *
 *   bash scripts/bench-server.sh instructions            # levels info and warn
 *   ROUTE_LEVELS=info ROUTE_REQUESTS=2000 bash scripts/bench-server.sh instructions
 *
 * Needs valgrind. User-space instructions only: the kernel's part (the socket's reads and writes) is
 * not counted. Prints, for each log level, the instructions a request of each route in each round
 * (warmed up, then alternating rounds; a round where V8 still optimised or ran a full collection
 * stands out), of all threads and of the main thread alone, and, over the rounds, the functions
 * whose own instructions differ most (JavaScript named from V8's perf map). Compare the main
 * thread's figures: V8's helper threads (concurrent marking, sweeping, compiling) add to whichever
 * round they happen to run in, and move the all-thread totals by tens of thousands a request. Under valgrind the server runs ~50× slower while the
 * log's file writes do not, so each write carries fewer lines than in a real run: the count
 * overstates the writes' share of the log.
 */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const REQUESTS = Number(process.env["ROUTE_REQUESTS"] ?? 2000);
const ROUNDS = Number(process.env["ROUTE_ROUNDS"] ?? 3);
/** Until V8 has compiled the route's code: the first thousands of requests under valgrind still pay for optimising. */
const WARM_UP = 6000;
const CONNECTIONS = 10;
/** After a round's last answer, until the work it left (the log's writes) is done; ~20 ms unslowed. */
const SETTLE_MS = 1000;

/** The server under valgrind: the compiled service and the bare route; what the client needs goes to `infoFile`. */
async function serve(level: string, infoFile: string): Promise<void> {
  const { server, state, body, route } = await startCompiledService(level);
  // serve-bare.ts's route.
  const bare = Fastify({ logger: { level: "warn" } });
  bare.get("/v1/sdk/template/:id", async (_request, reply) => reply.type("application/json; charset=utf-8").send(body));
  const bareUrl = await bare.listen({ host: "127.0.0.1", port: 0 });
  const info = { service: `${server.url}${route}`, bare: `${bareUrl}${route}`, key: state.render_key };
  writeFileSync(`${infoFile}.part`, JSON.stringify(info));
  renameSync(`${infoFile}.part`, infoFile);
}

/** callgrind_annotate's table of a dump: the total, and each function's own instructions. */
function selfCosts(dump: string): { total: number; functions: Map<string, number> } {
  const text = execFileSync("callgrind_annotate", ["--inclusive=no", "--threshold=100", dump], { encoding: "utf8", maxBuffer: 1 << 28 });
  const functions = new Map<string, number>();
  let total = 0;
  for (const line of text.split("\n")) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (m === null) continue;
    const count = Number(m[1]!.replaceAll(",", ""));
    if (m[2] === "PROGRAM TOTALS") total = count;
    else functions.set(m[2]!, (functions.get(m[2]!) ?? 0) + count);
  }
  return { total, functions };
}

/** Names JIT code from V8's perf map (`--perf-basic-prof`): callgrind knows it only as an address. */
function symbolizer(pid: number): (name: string) => string {
  const file = `/tmp/perf-${pid}.map`;
  const entries = existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [start = "0", size = "0", ...name] = line.split(" ");
          return { start: Number.parseInt(start, 16), end: Number.parseInt(start, 16) + Number.parseInt(size, 16), name: name.join(" ") };
        })
    : [];
  return (name) => {
    const address = /^\?\?\?:0x([0-9a-f]+)/.exec(name);
    if (address === null) return name.replace(/^\?\?\?:/, "").replace(/\s*\[[^\]]*\]$/, "");
    const at = Number.parseInt(address[1]!, 16);
    // The latest entry covering the address: V8 reuses the addresses of code it has freed.
    const entry = entries.findLast((e) => e.start <= at && at < e.end);
    return entry === undefined ? `JIT code at 0x${address[1]}` : entry.name.replace(/^JS:/, "").replace(SERVER_DIR, "server/");
  };
}

async function measureLevel(level: string): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), "mailrender-route-instructions-"));
  const infoFile = path.join(work, "info.json");
  const out = path.join(work, "callgrind.out");
  const child: ChildProcess = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no", // start-up runs at full speed; counting starts with the warm-up
      "--separate-threads=yes", // the main thread's count apart: V8's and libuv's helper threads vary from run to run
      "--smc-check=all-non-file", // V8 writes the code it runs
      `--callgrind-out-file=${out}`,
      process.execPath,
      "--perf-basic-prof",
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      "--serve",
      level,
      infoFile,
    ],
    { cwd: SERVER_DIR, stdio: ["ignore", "ignore", "inherit"] },
  );
  try {
    while (!existsSync(infoFile)) {
      if (child.exitCode !== null) throw new Error(`the server under valgrind exited (${child.exitCode})`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const info = JSON.parse(readFileSync(infoFile, "utf8")) as { service: string; bare: string; key: string };
    const pid = String(child.pid);
    const control = (...args: string[]) => execFileSync("callgrind_control", [...args, pid], { stdio: "ignore" });
    const routes = [
      { name: "bare route", url: info.bare, headers: {} },
      { name: `SDK route, log at ${level}`, url: info.service, headers: { authorization: `Bearer ${info.key}` } },
    ];
    const load = async (route: (typeof routes)[number], amount: number) => {
      const result = await autocannon({ url: route.url, headers: route.headers, connections: CONNECTIONS, amount });
      if (result.errors + result.timeouts + result.non2xx > 0) throw new Error(`${route.name}: errors or answers not 2xx`);
    };
    control("--instr=on");
    for (const route of routes) await load(route, WARM_UP);
    const dumps: { route: string; files: string[] }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of routes) {
        control("--zero");
        await load(route, REQUESTS);
        // What the round left running (the log's last writes, their completions) is counted with it,
        // not with the next round, which may be the other route's.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const before = new Set(readdirSync(work));
        control(`--dump=${route.name}`);
        // One file a thread: `…-01` is the main thread.
        const files = readdirSync(work).filter((f) => f.startsWith("callgrind.out.") && !before.has(f));
        if (files.length === 0) throw new Error("callgrind wrote no dump");
        dumps.push({ route: route.name, files: files.map((f) => path.join(work, f)) });
      }
    }
    const name = symbolizer(child.pid ?? 0);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const perRoute = routes.map((route) => {
      const runs = dumps
        .filter((d) => d.route === route.name)
        .map((d) => {
          const threads = d.files.map((file) => ({ file, ...selfCosts(file) }));
          return { threads, total: threads.reduce((sum, t) => sum + t.total, 0), main: threads.find((t) => t.file.endsWith("-01"))?.total ?? 0 };
        });
      const functions = new Map<string, number>();
      for (const run of runs)
        for (const thread of run.threads)
          for (const [fn, n] of thread.functions) functions.set(name(fn), (functions.get(name(fn)) ?? 0) + n / REQUESTS / runs.length);
      const totals = runs.map((r) => r.total / REQUESTS);
      const mains = runs.map((r) => r.main / REQUESTS);
      return { route: route.name, totals, median: median(totals), mains, mainMedian: median(mains), functions };
    });
    const [bare, sdk] = perRoute as [(typeof perRoute)[number], (typeof perRoute)[number]];
    const fmt = (n: number) => Math.round(n).toLocaleString("en").padStart(8);
    const differences = [...new Set([...bare.functions.keys(), ...sdk.functions.keys()])]
      .map((fn) => ({ fn, bare: bare.functions.get(fn) ?? 0, sdk: sdk.functions.get(fn) ?? 0 }))
      .sort((a, b) => b.sdk - b.bare - (a.sdk - a.bare))
      .slice(0, 30);
    process.stdout.write(
      [
        `log at ${level}: instructions a request (${REQUESTS} requests a round, ${ROUNDS} alternating rounds, ${CONNECTIONS} connections)`,
        ...perRoute.map((r) => `  ${r.route.padEnd(24)} median ${fmt(r.median)}   rounds ${r.totals.map(fmt).join(" ")}`),
        `  the bare route's over the SDK route's (medians): ${((bare.median / sdk.median) * 100).toFixed(1)}%`,
        "  the main thread alone:",
        ...perRoute.map((r) => `  ${r.route.padEnd(24)} median ${fmt(r.mainMedian)}   rounds ${r.mains.map(fmt).join(" ")}`),
        `  the bare route's over the SDK route's (medians): ${((bare.mainMedian / sdk.mainMedian) * 100).toFixed(1)}%`,
        `  own instructions a request (mean of the rounds), the largest differences:   bare      SDK  difference`,
        ...differences.map((d) => `  ${d.fn.slice(0, 52).padEnd(52)} ${fmt(d.bare)} ${fmt(d.sdk)} ${fmt(d.sdk - d.bare)}`),
        "",
      ].join("\n"),
    );
  } finally {
    child.kill("SIGKILL");
    rmSync(work, { recursive: true, force: true });
    rmSync(`/tmp/perf-${child.pid}.map`, { force: true });
  }
}

if (process.argv[2] === "--serve") await serve(process.argv[3] ?? "info", process.argv[4] ?? "");
else for (const level of (process.env["ROUTE_LEVELS"] ?? "info,warn").split(",")) await measureLevel(level);
