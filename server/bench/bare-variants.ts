import { type ChildProcess, spawn } from "node:child_process";
import { hash, timingSafeEqual } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import Fastify from "fastify";
import { hashesEqual } from "../src/auth/keys.js";
import { startCompiledService } from "./compiled-service.js";

/**
 * What one ingredient of the SDK route costs a bare Fastify route in a running server: the bare
 * route of bench.ts with one thing added (a hook, headers, the key's hash and comparison, …), each
 * variant in its own process, CPU time per request from /proc in alternating rounds. A whole-server
 * A/B of the SDK route moves by ±15 µs from round to round on a shared machine; a variant here
 * isolates a change of 1–3 µs.
 *
 *   node --import tsx server/bench/bare-variants.ts [rounds] [seconds] plain hash,compare-hex hash,compare-text
 *
 * A variant is a comma list of: sync (a synchronous handler), hook (a callback onRequest hook),
 * headers (the SDK route's three response headers), auth-header (the client sends an Authorization
 * header), timeouts (the service's request and header timeouts, idle connections closed at
 * shutdown), abort-hook (an onRequestAbort hook), big-heap (400,000 live objects), app (the whole
 * service built in the same process, unused), hash (the key's SHA-256),
 * compare-hex (both digests decoded for crypto.timingSafeEqual), compare-text (hashesEqual),
 * service (the compiled service running in the same process, as bench.ts starts it: SQLite, the demo
 * template and key, its log at info into a file; the bare route answers on its own port beside it),
 * route (with service: the service's own SDK route is measured instead of the bare one), log-warn
 * (with service: its log at warn), garbage (an onRequest hook leaving ~17 KB of small objects a request).
 */
const KEY = `sk_live_${"ab".repeat(32)}`;
const BODY = readFileSync(new URL("../demo/newsletter.json", import.meta.url), "utf8");

async function serve(variant: Set<string>): Promise<void> {
  const service = variant.has("service") ? await startCompiledService(variant.has("log-warn") ? "warn" : "info") : undefined;
  if (service !== undefined && variant.has("route")) {
    process.send?.({ url: `${service.server.url}${service.route}`, key: service.state.render_key });
    return;
  }
  const app = Fastify({
    logger: { level: "warn" },
    // The service's connection settings (app.ts).
    ...(variant.has("timeouts")
      ? { requestTimeout: 30_000, http: { connectionsCheckingInterval: 1_000, headersTimeout: 10_000 }, forceCloseConnections: "idle" as const }
      : {}),
  });
  if (variant.has("abort-hook")) app.addHook("onRequestAbort", (_request, done) => done());
  if (variant.has("big-heap")) Object.assign(globalThis, { heap: Array.from({ length: 400_000 }, (_, i) => ({ i, text: `x${i}`, pair: [i, i + 1] })) });
  if (variant.has("app")) {
    const { buildApp } = await import("../src/app.js");
    const { DEFAULTS } = await import("../src/config.js");
    const config = { ...DEFAULTS, logLevel: "warn", rateLimit: { max: 1, adminMax: 0, windowMs: 1000 }, render: { workers: 1, timeoutMs: 1000 } };
    Object.assign(globalThis, { unused: await buildApp({ config: config as never, store: {} as never, logger: false }) });
  }
  if (variant.has("garbage")) {
    // ~17 KB of short-lived small objects a request: what the service's route allocates beyond the bare route's.
    const kept: unknown[] = [];
    app.addHook("onRequest", (_request, _reply, done) => {
      for (let i = 0; i < 200; i++) kept[i & 7] = { i, text: `v${i}`, list: [i, i + 1, i + 2] };
      done();
    });
  }
  const stored = hash("sha256", KEY, "hex");
  const seen: boolean[] = []; // the comparisons' results are kept, so none is optimised away
  if (["hook", "hash", "compare-hex", "compare-text"].some((v) => variant.has(v))) {
    app.addHook("onRequest", (_request, _reply, done) => {
      const digest = variant.has("hash") ? hash("sha256", KEY, "hex") : stored;
      if (variant.has("compare-hex")) seen[0] = timingSafeEqual(Buffer.from(digest, "hex"), Buffer.from(stored, "hex"));
      if (variant.has("compare-text")) seen[0] = hashesEqual(digest, stored);
      done();
    });
  }
  const answer = (reply: { header(name: string, value: string): unknown; type(t: string): { send(body: string): unknown } }) => {
    if (variant.has("headers")) {
      reply.header("etag", '"0123456789abcdef0123456789abcdef"');
      reply.header("x-key-targets", "html,react-email,mjml");
      reply.header("cache-control", "private, no-cache");
    }
    return reply.type("application/json; charset=utf-8").send(BODY);
  };
  if (variant.has("sync")) app.get("/t", (_request, reply) => void answer(reply));
  else app.get("/t", async (_request, reply) => answer(reply));
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
  process.send?.({ url: `${url}/t` });
}

/** The process's CPU time (all threads, user + system) in ms, from /proc's clock ticks of 10 ms. */
function cpuMs(pid: number): number {
  let ms = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    ms += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return ms;
}

async function compare(rounds: number, seconds: number, variants: string[]): Promise<void> {
  const servers: { name: string; child: ChildProcess; url: string; headers: Record<string, string>; us: number[] }[] = [];
  const logDir = mkdtempSync(path.join(os.tmpdir(), "mailrender-bench-log-"));
  for (const name of variants) {
    // A service's log goes into a file, as bench.ts takes it.
    const out = name.split(",").includes("service") ? openSync(path.join(logDir, `${servers.length}.log`), "w") : "ignore";
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve", name], {
      stdio: ["ignore", out, "inherit", "ipc"],
    });
    if (typeof out === "number") closeSync(out);
    const { url, key } = await new Promise<{ url: string; key?: string }>((resolve) => child.once("message", (m) => resolve(m as { url: string })));
    child.disconnect();
    const bearer = key ?? (name.split(",").includes("auth-header") ? KEY : undefined);
    servers.push({ name, child, url, headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }, us: [] });
  }
  for (const s of servers) await autocannon({ url: s.url, headers: s.headers, connections: 10, duration: 1 });
  for (let round = 0; round < rounds; round++) {
    for (const s of servers) {
      const before = cpuMs(s.child.pid ?? 0);
      const result = await autocannon({ url: s.url, headers: s.headers, connections: 50, duration: seconds });
      s.us.push(((cpuMs(s.child.pid ?? 0) - before) * 1000) / result.requests.total);
      if (result.errors + result.non2xx > 0) throw new Error(`${s.name}: ${result.errors} errors, ${result.non2xx} answers not 2xx`);
    }
  }
  for (const s of servers) {
    const median = [...s.us].sort((a, b) => a - b)[Math.floor(s.us.length / 2)] ?? 0;
    process.stdout.write(`${s.name.padEnd(32)} median ${median.toFixed(1)} µs/req   rounds ${s.us.map((x) => x.toFixed(1)).join(" ")}\n`);
    s.child.kill("SIGTERM");
  }
  rmSync(logDir, { recursive: true, force: true });
}

const args = process.argv.slice(2);
if (args[0] === "--serve") await serve(new Set((args[1] ?? "").split(",")));
else {
  const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const variants = args.filter((a) => !/^\d+$/.test(a));
  await compare(numbers[0] ?? 7, numbers[1] ?? 3, variants.length > 0 ? variants : ["plain", "hash,compare-hex", "hash,compare-text"]);
}
