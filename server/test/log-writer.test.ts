/**
 * The JSON log's writer (src/log-writer.ts) on real descriptors: a file, and a pipe whose reader
 * the test controls (a FIFO opened non-blocking at both ends, as stdout is when it is a pipe), so a
 * reader that stops, comes back or goes away is produced for real.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { LogWriter } from "../src/log-writer.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mailrender-log-writer-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const LIMIT = 16 * 1024 * 1024;
const lines = (count: number, width = 100): string[] =>
  Array.from({ length: count }, (_, i) => `${JSON.stringify({ n: i, msg: "request completed", pad: "é☕𝄞".padEnd(width, "x") })}\n`);

/** A pipe: the writer's end and the reader's, both non-blocking; nothing is read until asked. */
function pipe(): { writeFd: number; readFd: number; readAvailable(): void; drain(bytes: number): Promise<Buffer> } {
  const fifo = path.join(tmp, `fifo-${Math.random().toString(36).slice(2)}`);
  execFileSync("mkfifo", [fifo]);
  const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(64 * 1024);
  /** Reads what the pipe holds now; false when it held nothing. */
  const read = (): boolean => {
    let n = 0;
    try {
      n = readSync(readFd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
    if (n > 0) {
      chunks.push(Buffer.from(chunk.subarray(0, n)));
      total += n;
    }
    return n > 0;
  };
  return {
    writeFd,
    readFd,
    readAvailable() {
      while (read()) {}
    },
    /** Reads until `bytes` have come in all (the writer retries a refused write by itself, on a timer). */
    async drain(bytes: number) {
      while (total < bytes) if (!read()) await new Promise((resolve) => setTimeout(resolve, 5));
      return Buffer.concat(chunks);
    },
  };
}

describe("the JSON log's writer", () => {
  it("a reader that stops: lines wait, none lost, and leave whole and in order once it reads again", async () => {
    const { writeFd, readFd, drain } = pipe();
    try {
      const writer = new LogWriter(writeFd, LIMIT);
      // ~1.3 MB: twenty times what the pipe holds, so the writer is refused (EAGAIN) and waits.
      const given = lines(10_000);
      for (const line of given) writer.write(line);
      const expected = Buffer.from(given.join(""));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ended = writer.end();
      expect((await drain(expected.length)).equals(expected)).toBe(true);
      await ended;
    } finally {
      closeSync(writeFd);
      closeSync(readFd);
    }
  });

  it("lines that come while refused writes wait, over many turns, leave whole and in order", async () => {
    const { writeFd, readFd, readAvailable, drain } = pipe();
    try {
      const writer = new LogWriter(writeFd, LIMIT);
      const given = lines(6_000);
      // Each turn adds lines while a write is in flight or waiting to be retried, and the reader
      // takes only what the pipe holds: the queue is taken, refilled and resumed again and again.
      for (let batch = 0; batch < 60; batch++) {
        for (const line of given.slice(batch * 100, (batch + 1) * 100)) writer.write(line);
        await new Promise((resolve) => setTimeout(resolve, 25));
        readAvailable();
      }
      const expected = Buffer.from(given.join(""));
      expect((await drain(expected.length)).equals(expected)).toBe(true);
      await writer.end();
    } finally {
      closeSync(writeFd);
      closeSync(readFd);
    }
  });

  it("beyond its limit it drops lines rather than holding them; the lines before the limit are written", async () => {
    const file = path.join(tmp, "limit.log");
    const fd = openSync(file, "w");
    try {
      const limit = 10_000;
      const writer = new LogWriter(fd, limit);
      const given = lines(500);
      for (const line of given) writer.write(line);
      await writer.end();
      // The first line leaves at once; the next ones queue behind its write until the limit.
      let queued = 0;
      let kept = 1;
      while (kept < given.length && queued + (given[kept] as string).length <= limit) queued += (given[kept++] as string).length;
      expect(kept).toBeLessThan(given.length);
      expect(readFileSync(file, "utf8")).toBe(given.slice(0, kept).join(""));
    } finally {
      closeSync(fd);
    }
  });

  it("a reader gone away (EPIPE): the log stops, the process goes on, `end` still resolves", async () => {
    const { writeFd, readFd } = pipe();
    closeSync(readFd);
    try {
      const writer = new LogWriter(writeFd, LIMIT);
      for (const line of lines(100)) writer.write(line);
      await writer.end();
      writer.write("after\n");
      await writer.end();
    } finally {
      closeSync(writeFd);
    }
  });

  it("at exit, a reader that does not read is waited for a while, not for ever", () => {
    const { writeFd, readFd } = pipe();
    try {
      const writer = new LogWriter(writeFd, LIMIT);
      // Twice what the pipe holds: the synchronous write fills it and is refused until it gives up.
      for (const line of lines(1_000)) writer.write(line);
      writer.flushSync();
    } finally {
      closeSync(writeFd);
      closeSync(readFd);
    }
  }, 10_000);

  it("what is queued when the process exits is written before it ends", () => {
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", EXITING_PROCESS(fileURLToPath(new URL("../src/log-writer.ts", import.meta.url)))],
      { encoding: "utf8", cwd: fileURLToPath(new URL("..", import.meta.url)) },
    );
    expect(child.status, child.stderr).toBe(0);
    // The queued lines are written by the exit hook. The first line's write may still be in the
    // thread pool when the process exits: it is not waited for, and may land or not.
    const written = child.stdout.split("\n").filter(Boolean);
    expect(written.filter((line) => line !== "first")).toEqual(["second", "third"]);
    expect(written.filter((line) => line === "first").length).toBeLessThanOrEqual(1);
  });
});

const EXITING_PROCESS = (module: string) => `
import { LogWriter } from ${JSON.stringify(module)};
const writer = new LogWriter(1, ${LIMIT});
writer.write("first\\n");
writer.write("second\\n");
writer.write("third\\n");
process.exit(0);
`;
