/**
 * The executable under test and what a test measures of it. The release build for this machine by
 * default (`make engine`, rebuilt first when missing or older than its sources: CI must test the
 * artefact it ships); MAILRENDER_ENGINE_UNDER_TEST names another build (the Node build, `make test-binary`).
 *
 * `ServeProcess` runs `--serve` and reads what Linux reports of the process: its CPU time
 * (/proc/<pid>/stat, in clock ticks) and its resident and peak resident memory (/proc/<pid>/status).
 * CPU time and peak memory are what a request costs whatever else the machine runs, where wall time
 * is not.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Response } from "../../src/protocol/response-schema.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const UNDER_TEST = process.env["MAILRENDER_ENGINE_UNDER_TEST"];
export const BINARY =
  UNDER_TEST ??
  join(ROOT, "engine", "dist", `${process.platform}-${process.arch}`, process.platform === "win32" ? "mailrender-engine.exe" : "mailrender-engine");

/** For `beforeAll`: make rebuilds the release build when it is missing or stale (never another build under test). */
export function ensureBinary(): void {
  if (UNDER_TEST !== undefined) return;
  execFileSync("make", ["-C", ROOT, "--no-print-directory", "engine"], { stdio: ["ignore", "inherit", "inherit"] });
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

export interface Answer {
  readonly envelope: Response;
  /** CPU time the process spent from the request's write to its answer. */
  readonly cpuMs: number;
}

export class ServeProcess {
  readonly #child;
  readonly #lines: string[] = [];
  #partial = "";
  #waiting: ((line: string) => void) | undefined;
  #stderr = "";

  constructor(args: readonly string[] = []) {
    this.#child = spawn(BINARY, ["--serve", ...args], { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => {
      const lines = (this.#partial + chunk).split("\n");
      this.#partial = lines.pop() ?? "";
      for (const line of lines) {
        const waiting = this.#waiting;
        this.#waiting = undefined;
        if (waiting) waiting(line);
        else this.#lines.push(line);
      }
    });
    this.#child.stderr.on("data", (chunk: Buffer) => (this.#stderr += chunk.toString()));
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** Sends one request and waits for its answer. */
  async request(request: string | object): Promise<Answer> {
    const line = typeof request === "string" ? request : JSON.stringify(request);
    const before = this.cpuTicks();
    const answered = new Promise<string>((resolve) => {
      const ready = this.#lines.shift();
      if (ready !== undefined) resolve(ready);
      else this.#waiting = resolve;
    });
    this.#child.stdin.write(`${line}\n`);
    const answer = await answered;
    return { envelope: JSON.parse(answer) as Response, cpuMs: ((this.cpuTicks() - before) * 1000) / CLOCK_TICKS_PER_SECOND };
  }

  /** Resident and peak resident memory, MiB. */
  memory(): { residentMiB: number; peakMiB: number } {
    const status = readFileSync(`/proc/${this.#child.pid}/status`, "utf8");
    const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
    return { residentMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
  }

  /** utime + stime of the process, in clock ticks. */
  cpuTicks(): number {
    const stat = readFileSync(`/proc/${this.#child.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  }

  async close(): Promise<number | null> {
    this.#child.stdin.end();
    return new Promise((resolve) => this.#child.on("close", resolve));
  }
}
