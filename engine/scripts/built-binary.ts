/** What both executable builds (build-binary.ts, build-quickjs.ts) do with a binary they made. */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** The binary must render, answer with the envelope, and leave stderr empty; returns the engine version. */
export function smokeTest(exe: string): string {
  const request = JSON.stringify({
    template: { template_id: "smoke", template_name: "Smoke", schema_version: "1.0", canvas: {}, rows: [] },
    target: "html",
  });
  const run = spawnSync(exe, [], { input: request, encoding: "utf8" });
  const envelope = (() => {
    try {
      return JSON.parse(run.stdout) as { ok?: unknown; engine_version?: unknown };
    } catch {
      return undefined;
    }
  })();
  if (run.status !== 0 || envelope?.ok !== true || run.stderr !== "") {
    throw new Error(`smoke test of ${exe} failed (exit ${run.status}):\nstdout: ${run.stdout.slice(0, 500)}\nstderr: ${run.stderr.slice(0, 2000)}`);
  }
  return String(envelope.engine_version);
}

export function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** SHA256SUMS text (`sha256sum -c` format), sorted by path. */
export function sha256sums(entries: readonly { readonly hash: string; readonly path: string }[]): string {
  return `${[...entries]
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((e) => `${e.hash}  ${e.path}`)
    .join("\n")}\n`;
}

/** SHA256SUMS read back: path → hash. */
export function readSha256sums(file: string): Map<string, string> {
  const lines = readFileSync(file, "utf8").trim().split("\n");
  return new Map(lines.map((line) => [line.slice(66), line.slice(0, 64)] as const));
}
