import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The compiled service (lib/, built by scripts/bench-server.sh) started as the benchmarks measure it:
 * SQLite in a temp dir, the demo template and key, the default cache, a rate limit the benchmark
 * cannot exhaust, its log at `logLevel` on stdout. Not the sources through tsx: its transpiler gives
 * every function a name with Object.defineProperty each time one is created, a cost per request that
 * the shipped code does not pay.
 */
export async function startCompiledService(logLevel: string) {
  const compiled = async <T>(module: string): Promise<T> => (await import(new URL(`../lib/${module}`, import.meta.url).href)) as T;
  const { generateApiKey } = await compiled<typeof import("../src/auth/keys.js")>("auth/keys.js");
  const { DEFAULTS } = await compiled<typeof import("../src/config.js")>("config.js");
  const { seedDemo } = await compiled<typeof import("../src/demo.js")>("demo.js");
  const { handleSignals, startServer } = await compiled<typeof import("../src/server.js")>("server.js");
  const dir = mkdtempSync(path.join(os.tmpdir(), "mailrender-bench-"));
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    database: { kind: "sqlite", path: path.join(dir, "bench.db") },
    cacheTtlMs: DEFAULTS.cacheTtlMs,
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    // The limiter stays in the request path, with a budget the benchmark cannot exhaust.
    rateLimit: { max: 1_000_000_000, adminMax: 0, windowMs: DEFAULTS.rateLimitWindowMs },
    requestTimeoutMs: DEFAULTS.requestTimeoutMs,
    shutdownGraceMs: DEFAULTS.shutdownGraceMs,
    render: { workers: DEFAULTS.renderWorkers, timeoutMs: DEFAULTS.renderTimeoutMs },
    adminKey: generateApiKey(),
    logLevel,
  });
  handleSignals(server, () => {});
  const { state } = await seedDemo(server.store, dir);
  const body = (await server.store.getTemplate(state.template_id))?.body ?? "{}";
  return { server, state, body, route: `/v1/sdk/template/${state.template_id}` };
}
