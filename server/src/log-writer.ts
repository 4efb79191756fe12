import { write, writeSync } from "node:fs";

/** How long a write refused with EAGAIN (a pipe its reader is not emptying) waits before it is tried again. */
const RETRY_MS = 20;

/**
 * How long an exit waits for the log's last lines (the synchronous write at exit here, `end` in the
 * server's stop): a stdout nobody reads must not hold the process.
 */
export const EXIT_WAIT_MS = 2_000;

/** Writers with lines still to write when the process exits: each writes them synchronously then. */
const liveWriters = new Set<LogWriter>();
let exitHookInstalled = false;

/**
 * The JSON log's writer: lines to a file descriptor (stdout), never waited for by the caller. The
 * first line starts a write; the lines that come while it is in flight queue up and leave together,
 * all of them, in the next write. A writer that fell behind so catches up in one write, and queued
 * text waits on the JavaScript heap only until the write in flight is done: pino's own writer
 * (sonic-boom) sends what is queued in 16 KiB chunks, one a turn of the event loop, and rebuilds the
 * last chunk's text at every line; under sustained load its queue barely drained, and the lines it
 * held lived across garbage collections (docs/design/service-hot-path.md, the log).
 *
 * A reader that stops reading (EAGAIN) is waited for; a reader gone (EPIPE) or a failing descriptor
 * drops the log, never the process. Beyond `maxQueued` characters waiting, lines are dropped rather
 * than memory grown.
 */
export class LogWriter {
  private queue: string[] = [];
  private queued = 0;
  private writing = false;
  private broken = false;
  private drained: (() => void)[] = [];

  constructor(
    private readonly fd: number,
    private readonly maxQueued: number,
  ) {
    liveWriters.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", () => {
        for (const writer of liveWriters) writer.flushSync();
      });
    }
  }

  write(line: string): void {
    if (this.broken || this.queued + line.length > this.maxQueued) return;
    this.queue.push(line);
    this.queued += line.length;
    if (!this.writing) this.writeQueued();
  }

  /** Resolves once every line given so far is written (or the descriptor has failed). */
  end(): Promise<void> {
    liveWriters.delete(this);
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /**
   * Writes what is queued now, synchronously: for a process that is about to exit (pino calls it
   * after a `fatal` line). A write already in flight is not waited for; a reader that does not read
   * is waited for at most EXIT_WAIT_MS, so that it cannot keep the process from exiting.
   */
  flushSync(): void {
    if (this.broken || this.queue.length === 0) return;
    let bytes = this.takeQueued();
    const giveUpAt = Date.now() + EXIT_WAIT_MS;
    while (bytes.length > 0) {
      try {
        bytes = bytes.subarray(writeSync(this.fd, bytes));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") {
          this.fail();
          return;
        }
        if (Date.now() >= giveUpAt) return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      }
    }
  }

  private takeQueued(): Buffer {
    const text = this.queue.length === 1 ? (this.queue[0] as string) : this.queue.join("");
    this.queue = [];
    this.queued = 0;
    return Buffer.from(text, "utf8");
  }

  private writeQueued(): void {
    this.writing = true;
    this.writeBytes(this.takeQueued());
  }

  private writeBytes(bytes: Buffer): void {
    write(this.fd, bytes, 0, bytes.length, null, (error, written) => {
      if (error?.code === "EAGAIN") setTimeout(() => this.writeBytes(bytes), RETRY_MS);
      else if (error !== null) this.fail();
      else if (written < bytes.length) this.writeBytes(bytes.subarray(written));
      else if (this.queue.length > 0) this.writeQueued();
      else {
        this.writing = false;
        for (const resolve of this.drained.splice(0)) resolve();
      }
    });
  }

  /** The descriptor failed (its reader gone, a disk full): the log stops; the service goes on. */
  private fail(): void {
    this.broken = true;
    this.writing = false;
    this.queue = [];
    this.queued = 0;
    liveWriters.delete(this);
    for (const resolve of this.drained.splice(0)) resolve();
  }
}
