/**
 * The JSON log's destination takes a line at the same cost whatever is pending (logging.ts): what it
 * writes, where it cuts its chunks, what it drops and what it flushes at exit stay the destination's.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { destination } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { appendInConstantTime, type PendingLines } from "../src/logging.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mailrender-log-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let files = 0;
async function openLog(options: { maxLength?: number } = {}) {
  const file = path.join(tmp, `log-${files++}.jsonl`);
  const stream = destination({ dest: file, sync: false, ...options });
  await new Promise((resolve) => stream.once("ready", resolve));
  const pending = stream as unknown as PendingLines;
  // Installed on the destination pino ships: if its internals change, this fails and logging.ts needs a look.
  expect(appendInConstantTime(pending)).toBe(true);
  return { file, stream, pending };
}

/** Ends the stream and waits until its last write has landed and the file is closed. */
function ended(stream: ReturnType<typeof destination>): Promise<unknown> {
  const closed = new Promise((resolve) => stream.once("close", resolve));
  stream.end();
  return closed;
}

const line = (i: number) =>
  `${JSON.stringify({ level: 30, reqId: `req-${i}`, url: `/v1/sdk/template/${i}`, userAgent: "ünïcødé ✓", msg: "request completed" })}\n`;

describe("the log destination", () => {
  it("keeps every line, in order, in chunks no larger than one write, while a write is in flight", async () => {
    const { file, stream, pending } = await openLog();
    const lines = Array.from({ length: 2_000 }, (_, i) => line(i));
    // One turn: the first line starts a write, the others wait behind it.
    for (const l of lines) stream.write(l);
    expect(pending._writing).toBe(true);
    expect(pending._bufs.length).toBeGreaterThan(1);
    for (const chunk of pending._bufs) expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(pending.maxWrite);
    // Every chunk but the last is full: no line could have joined it.
    for (const chunk of pending._bufs.slice(0, -1)) expect(Buffer.byteLength(chunk) + Buffer.byteLength(line(0))).toBeGreaterThan(pending.maxWrite);
    await ended(stream);
    expect(readFileSync(file, "utf8")).toBe(lines.join(""));
  });

  it("drops lines beyond its limit instead of growing, and says so", async () => {
    const { file, stream } = await openLog({ maxLength: 4_096 });
    const dropped: string[] = [];
    stream.on("drop", (l: string) => dropped.push(l));
    const lines = Array.from({ length: 200 }, (_, i) => line(i));
    for (const l of lines) stream.write(l);
    expect(dropped.length).toBeGreaterThan(0);
    await ended(stream);
    const written = readFileSync(file, "utf8");
    expect(Buffer.byteLength(written)).toBeLessThanOrEqual(4_096);
    expect(written + dropped.join("")).toBe(lines.join(""));
  });

  it("writes everything pending synchronously when flushed (what the process does as it exits)", async () => {
    const { file, stream } = await openLog();
    const lines = Array.from({ length: 500 }, (_, i) => line(i));
    for (const l of lines) stream.write(l);
    await new Promise((resolve) => stream.once("write", resolve)); // the write in flight has landed
    stream.flushSync();
    expect(readFileSync(file, "utf8")).toBe(lines.join(""));
    // Lines taken after a flush join the chunk the flush left behind correctly.
    for (const l of lines) stream.write(l);
    await ended(stream);
    expect(readFileSync(file, "utf8")).toBe(lines.join("") + lines.join(""));
  });
});
