import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A render storm against a running server (see render-storm.ts, its clients' process). */
export interface StormRequest {
  body: Record<string, unknown>;
  /** Each request's context gets keys k0…k(n-1), "1" or "0" at random (a new visible set, so a new compile, each time). */
  randomContextKeys?: number;
}

export interface StormOptions {
  url: string;
  key: string;
  /** The render requests; client i sends requests[i % length]. */
  requests: StormRequest[];
  concurrency: number;
  durationMs: number;
  honourRetryAfter: boolean;
}

export interface StormReport {
  /** Answers by status, refusals with their Retry-After, e.g. `{"200": 40, "503 retry-after=1": 310}`. */
  answers: Record<string, number>;
  /** Anything but a 200 or a 503 with Retry-After: other statuses, connection errors. */
  problems: string[];
  renderMs: number[];
}

const CLIENTS = fileURLToPath(new URL("./render-storm.ts", import.meta.url));

/**
 * Runs the storm's clients in a process of their own, so that reading megabytes of answers does not
 * slow the process that measures the server. `started` resolves when the clients send their first
 * requests (the process takes a moment to start), `report` when the storm is over.
 */
export function runStorm(options: StormOptions): { started: Promise<void>; report: Promise<StormReport> } {
  const child = spawn(process.execPath, ["--import", "tsx", CLIENTS], { stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.end(JSON.stringify(options));
  let out = "";
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
    if (out.startsWith("started\n")) markStarted();
  });
  const report = new Promise<StormReport>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      markStarted();
      if (code === 0) resolve(JSON.parse(out.slice("started\n".length)) as StormReport);
      else reject(new Error(`storm clients exited with ${code}: ${out}`));
    });
  });
  return { started, report };
}

/** Probe latencies in ms, with when each probe was sent (ms on the performance clock). */
export interface ProbeLatencies {
  healthz: { at: number; ms: number }[];
  template: { at: number; ms: number }[];
  /** Probes answered with anything but 200. */
  failures: string[];
}

/** A server the probes ask: its address, a key that may fetch templates and a stored template's id. */
export interface ProbedServer {
  url: string;
  key: string;
  templateId: string;
}

/**
 * What a load balancer's health check and an SDK client see: `GET /healthz` and `GET
 * /v1/sdk/template/{id}` of each server in turn (the first one asked rotating, so that none is always
 * asked first), every `gapMs`, until `until()` says stop. The latencies of each server, in order.
 */
export async function probe<const S extends readonly ProbedServer[]>(
  servers: S,
  until: () => boolean,
  gapMs = 10,
): Promise<{ [K in keyof S]: ProbeLatencies }> {
  const results: ProbeLatencies[] = servers.map(() => ({ healthz: [], template: [], failures: [] }));
  for (let round = 0; !until(); round++) {
    for (const name of ["healthz", "template"] as const) {
      for (let i = 0; i < servers.length; i++) {
        const index = (round + i) % servers.length;
        const { url, key, templateId } = servers[index]!;
        const path = name === "healthz" ? "/healthz" : `/v1/sdk/template/${templateId}`;
        const at = performance.now();
        const res = await fetch(url + path, { headers: name === "healthz" ? {} : { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        const result = results[index]!;
        result[name].push({ at, ms: performance.now() - at });
        if (res.status !== 200) result.failures.push(`${url}${path}: ${res.status}`);
      }
    }
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return results as { [K in keyof S]: ProbeLatencies };
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * The median over consecutive `windowMs` windows of each window's p99: a burst of someone else's work
 * on a shared machine spoils one window, not the figure; a server that starves under load spoils them all.
 */
export function typicalP99(samples: readonly { at: number; ms: number }[], windowMs = 1_000): number {
  const first = samples[0]?.at ?? 0;
  const windows = new Map<number, number[]>();
  for (const { at, ms } of samples) {
    const index = Math.floor((at - first) / windowMs);
    windows.set(index, [...(windows.get(index) ?? []), ms]);
  }
  const full = [...windows.values()].filter((w) => w.length >= 10);
  return percentile(
    full.map((w) => percentile(w, 99)),
    50,
  );
}
