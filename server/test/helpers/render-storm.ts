/**
 * The storm's clients, as their own process (started by `runStorm` in storm.ts, options on stdin): each of
 * `concurrency` clients posts renders back to back for `durationMs`; a refused client waits as its
 * Retry-After says when `honourRetryAfter`, or tries again at once. Prints `started`, then when it is over one JSON line, a `StormReport`.
 */
import type { StormOptions, StormReport, StormRequest } from "./storm.js";

function bodyFor({ body, randomContextKeys }: StormRequest): string {
  if (randomContextKeys === undefined) return JSON.stringify(body);
  const context: Record<string, string> = {};
  for (let i = 0; i < randomContextKeys; i++) context[`k${i}`] = Math.random() < 0.5 ? "1" : "0";
  return JSON.stringify({ ...body, dynamic_data: { context } });
}

async function client(options: StormOptions, request: StormRequest, deadline: number, report: StormReport): Promise<void> {
  while (performance.now() < deadline) {
    const started = performance.now();
    try {
      const res = await fetch(`${options.url}/v1/sdk/render`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.key}`, "content-type": "application/json" },
        body: bodyFor(request),
      });
      const text = res.status === 200 ? "" : await res.text();
      if (res.status === 200) await res.arrayBuffer();
      const retryAfter = res.headers.get("retry-after");
      const label = `${res.status}${retryAfter === null ? "" : ` retry-after=${retryAfter}`}`;
      report.answers[label] = (report.answers[label] ?? 0) + 1;
      if (res.status === 200) report.renderMs.push(performance.now() - started);
      else if (res.status !== 503 || retryAfter === null) report.problems.push(`${label}: ${text.slice(0, 200)}`);
      if (options.honourRetryAfter && retryAfter !== null) await new Promise((r) => setTimeout(r, Number(retryAfter) * 1000));
    } catch (err) {
      report.problems.push(`request failed: ${err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : String(err)}`);
    }
  }
}

let input = "";
for await (const chunk of process.stdin) input += String(chunk);
const options = JSON.parse(input) as StormOptions;
const report: StormReport = { answers: {}, problems: [], renderMs: [] };
const deadline = performance.now() + options.durationMs;
process.stdout.write("started\n");
await Promise.all(Array.from({ length: options.concurrency }, (_, i) => client(options, options.requests[i % options.requests.length]!, deadline, report)));
process.stdout.write(`${JSON.stringify(report)}\n`);
