import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { percentile, probe, runStorm, type StormRequest } from "../test/helpers/storm.js";

/**
 * `bash scripts/bench-server.sh storm`: a render storm against the real service in its own process —
 * STORM_CONCURRENCY (default 50) clients, in a process of their own, posting heavy deprecated renders
 * back to back (a refused client waits as its Retry-After says) — while this process asks for
 * `/healthz` and `GET /v1/sdk/template/{id}` every 10 ms. Prints the probes' latency percentiles,
 * quiet and in the storm, and what the renders got. Loopback only.
 *
 * STORM_KIND picks the heavy render: `rows` (default: 1,990 empty rows, near the node limit, about
 * 2 MB of html, compiled once and then served from the engine's cache: the main thread's share),
 * `cpu` (400 rows, each shown by its own context key, a random context per request: every render
 * compiles, the render threads' share) or `data` (the receipt fixture with ~900 KB of merge-tag
 * values in each request: the request body's share). STORM_NODE_ARGS are node options for the
 * server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its main thread's time goes.
 */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const CONCURRENCY = Number(process.env["STORM_CONCURRENCY"] ?? 50);
const DURATION_MS = Number(process.env["STORM_DURATION_S"] ?? 10) * 1000;
const KIND = process.env["STORM_KIND"] ?? "rows";
const NODE_ARGS = (process.env["STORM_NODE_ARGS"] ?? "").split(" ").filter(Boolean);

function startServer(): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, [...NODE_ARGS, "--import", "tsx", "bench/serve-app.ts"], { cwd: SERVER_DIR, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`serve-app.ts exited early (${code})`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ child, info: JSON.parse(line) as Record<string, string> }));
  });
}

async function createTemplate(base: string, adminKey: string, template: object): Promise<string> {
  // Without its template_id: a fixture's id is not a UUID, which the service refuses rather than replaces.
  const { template_id: _fixtureId, ...body } = template as { template_id?: unknown };
  const res = await fetch(`${base}/api/v1/templates`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`storing the storm's template answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** The render request of each kind, with its template stored first. */
async function heavyRequest(base: string, adminKey: string): Promise<StormRequest> {
  if (KIND === "rows") {
    const rows = Array.from({ length: 1_990 }, () => ({}));
    return { body: { template_id: await createTemplate(base, adminKey, { template_name: "storm", schema_version: "1.0", canvas: {}, rows }) } };
  }
  if (KIND === "cpu") {
    const rows = Array.from({ length: 400 }, (_, i) => ({
      id: `r${i}`,
      type: "row",
      visibility: { enabled: true, match: "all", rules: [{ tag: `k${i}`, operator: "==", value: "1" }] },
      columns: [{ id: `c${i}`, width: 100, children: [{ id: `p${i}`, type: "component", componentType: "paragraph", props: { content: `<p>Row ${i}</p>` } }] }],
    }));
    const id = await createTemplate(base, adminKey, { template_name: "storm", schema_version: "1.0", canvas: {}, rows });
    return { body: { template_id: id }, randomContextKeys: 400 };
  }
  const fixture = JSON.parse(readFileSync(new URL("../../fixtures/render/realistic-receipt/case.json", import.meta.url), "utf8")) as { template: unknown };
  const text: Record<string, string> = { first_name: "y".repeat(30_000) };
  for (let i = 0; i < 30; i++) text[`tag_${i}`] = "x".repeat(30_000);
  return { body: { template_id: await createTemplate(base, adminKey, fixture.template as object), dynamic_data: { merge_tags: { text } } } };
}

function line(name: string, probes: readonly number[] | readonly { ms: number }[]): string {
  const samples = probes.map((p) => (typeof p === "number" ? p : p.ms));
  const f = (p: number) => percentile(samples, p).toFixed(1).padStart(7);
  return `  ${name.padEnd(28)} n=${String(samples.length).padStart(5)}  p50 ${f(50)}  p90 ${f(90)}  p99 ${f(99)}  max ${f(100)} ms`;
}

const server = await startServer();
const base = server.info["url"]!;
const key = server.info["key"]!;
const templateId = server.info["templateId"]!;
try {
  const request = await heavyRequest(base, server.info["adminKey"]!);
  const probed = { url: base, key, templateId };
  let rounds = 0;
  const [quiet] = await probe([probed], () => ++rounds > 200);
  let stormOver = false;
  const storm = runStorm({ url: base, key, requests: [request], concurrency: CONCURRENCY, durationMs: DURATION_MS, honourRetryAfter: true });
  void storm.report.finally(() => (stormOver = true));
  await storm.started;
  const [loud] = await probe([probed], () => stormOver);
  const report = await storm.report;
  process.stdout.write(
    [
      `storm: ${CONCURRENCY} clients of heavy renders (${KIND}, ${JSON.stringify(request.body).length} bytes per request) for ${DURATION_MS / 1000} s, loopback`,
      "quiet:",
      line("GET /healthz", quiet.healthz),
      line("GET /v1/sdk/template/{id}", quiet.template),
      "storm:",
      line("GET /healthz", loud.healthz),
      line("GET /v1/sdk/template/{id}", loud.template),
      line("POST /v1/sdk/render (200)", report.renderMs),
      `  render answers: ${Object.entries(report.answers)
        .map(([k, v]) => `${k} ×${v}`)
        .join(
          ", ",
        )}; problems: ${report.problems.length}${report.problems.length > 0 ? ` (first: ${report.problems[0]})` : ""}; failed probes: ${loud.failures.length}`,
      "",
    ].join("\n"),
  );
} finally {
  server.child.removeAllListeners("exit");
  server.child.kill("SIGTERM");
}
