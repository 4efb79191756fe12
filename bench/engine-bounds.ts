/**
 * The engine's cost and memory bounds (spec/template.md "Cost", spec/README.md "Memory"), measured on
 * an executable in `--serve`: for each request, the process's CPU time, its peak resident memory and
 * its resident memory once the next (small) request is answered. Prints figures; asserts nothing
 * (engine/test/bounded-cost-binary.test.ts asserts the bounds). Linux only (/proc).
 *   tsx bench/engine-bounds.ts [engine]     (default: the Node build, engine/dist/<os>-<arch>/)
 *   ENGINE_ARGS="--max-memory 64" tsx bench/engine-bounds.ts engine/dist/release/linux-x64/mailrender-engine
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const engine = process.argv[2] ?? fileURLToPath(new URL(`../engine/dist/${process.platform}-${process.arch}/mailrender-engine`, import.meta.url));
const args = (process.env["ENGINE_ARGS"] ?? "").split(" ").filter(Boolean);

const doc = (rows: unknown[]) => ({ template_id: "bounds", template_name: "Bounds", schema_version: "1.0", canvas: {}, rows });
const paragraph = (content: string) => ({ columns: [{ children: [{ type: "paragraph", props: { content } }] }] });
const requests: [string, object][] = [
  [
    "amplification probe, cold (600 × 200 {{ v }}, 64 KB of '<')",
    {
      template: doc(Array.from({ length: 600 }, () => paragraph(`<p>${"{{ v }} ".repeat(200)}</p>`))),
      template_ref: "probe",
      target: "html",
      dynamic_data: { merge_tags: { text: { v: "<".repeat(65_536) } } },
    },
  ],
  ["amplification probe, template kept", { template_ref: "probe", target: "html", dynamic_data: { merge_tags: { text: { v: "<".repeat(65_536) } } } }],
  [
    "one 7 MB value of '<' (refused)",
    { template: doc([paragraph("<p>{{ v }}</p>")]), target: "html", dynamic_data: { merge_tags: { text: { v: "<".repeat(7_000_000) } } } },
  ],
  [
    "one 7 MB value of 'a' (rendered)",
    { template: doc([paragraph("<p>{{ v }}</p>")]), target: "html", dynamic_data: { merge_tags: { text: { v: "a".repeat(7_000_000) } } } },
  ],
  [
    "400,000 merge-tag entries",
    {
      template: doc([paragraph("<p>{{ k1 }}</p>")]),
      target: "html",
      dynamic_data: { merge_tags: { text: Object.fromEntries(Array.from({ length: 400_000 }, (_, i) => [`k${i}`, "v"])) } },
    },
  ],
  ["2 MB of unclosed {{ a|", { template: doc([paragraph(`<p>${"{{ a|".repeat(400_000)}</p>`)]), target: "html" }],
  ["2 MB of tiny elements (<b>x</b>)", { template: doc([paragraph(`<p>${"<b>x</b>".repeat(250_000)}</p>`)]), target: "html" }],
];

const child = spawn(engine, ["--serve", ...args], { stdio: ["pipe", "pipe", "inherit"] });
child.stdout.setEncoding("utf8");
let buffered = "";
const waiting: ((line: string) => void)[] = [];
child.stdout.on("data", (chunk: string) => {
  const lines = (buffered + chunk).split("\n");
  buffered = lines.pop() ?? "";
  for (const line of lines) waiting.shift()?.(line);
});
const ask = (request: object): Promise<string> =>
  new Promise((resolve) => {
    waiting.push(resolve);
    child.stdin.write(`${JSON.stringify(request)}\n`);
  });
const status = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]) / 1024;
const cpuTicks = (): number => {
  const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
};
const small = { template: doc([]), target: "html" };

await ask(small);
console.log(`${engine} ${args.join(" ")}: idle ${status("VmRSS").toFixed(0)} MiB after a small render`);
for (const [name, request] of requests) {
  const before = cpuTicks();
  const answer = JSON.parse(await ask(request)) as { ok: boolean; error?: { issues: { type: string }[] } };
  const cpu = (cpuTicks() - before) * 10;
  const peak = status("VmHWM");
  await ask(small); // a large request's leftovers are released before the next line is read
  const outcome = answer.ok ? "ok" : `refused (${answer.error?.issues[0]?.type})`;
  console.log(
    `${name.padEnd(62)} ${outcome.padEnd(28)} CPU ${String(cpu).padStart(6)} ms  peak ${status("VmHWM").toFixed(0).padStart(5)} MiB (${peak.toFixed(0)} at the answer)  then ${status("VmRSS").toFixed(0).padStart(4)} MiB`,
  );
}
child.stdin.end();
