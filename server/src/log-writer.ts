import { write, writeSync } from "node:fs";

/** How long a write refused with EAGAIN (a pipe its reader is not emptying) waits before it is tried again. */
const RETRY_MS = 20;

/** Writers with lines still to write when the process exits: each writes them synchronously then. */
const open = new Set<LogWriter>();
let exitHookInstalled = false;

/** The size of a fresh queue buffer, and the largest one kept for reuse once its write is done. */
const QUEUE_START_BYTES = 64 * 1024;
const QUEUE_KEPT_BYTES = 1024 * 1024;

/**
 * The JSON log's writer: lines to a file descriptor (stdout), never waited for by the caller. The
 * first line starts a write; the lines that come while it is in flight are encoded into a buffer as
 * they come, and leave together, all of them, in the next write. A writer that fell behind so
 * catches up in one write, and a queued line is bytes outside the JavaScript heap, its string
 * garbage at once. pino's own writer (sonic-boom) keeps queued lines as strings, sends them in
 * 16 KiB chunks, one a turn of the event loop, and rebuilds the last chunk's text at every line;
 * under sustained load its queue could grow for good, and the garbage collector's work on the text
 * it held more than doubled a request's CPU (docs/design/service-hot-path.md, the log).
 *
 * A reader that stops reading (EAGAIN) is waited for; a reader gone (EPIPE) or a failing descriptor
 * drops the log, never the process. Beyond `maxQueuedBytes` waiting, lines are dropped rather than
 * memory grown.
 */
export class LogWriter {
  private queue: Buffer = Buffer.allocUnsafe(QUEUE_START_BYTES);
  private queued = 0;
  /** The buffer of the write in flight, reused for the queue once that write is done. */
  private spare: Buffer | undefined;
  private writing = false;
  private broken = false;
  private drained: (() => void)[] = [];

  constructor(
    private readonly fd: number,
    private readonly maxQueuedBytes: number,
  ) {
    open.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", () => {
        for (const writer of open) writer.flushSync();
      });
    }
  }

  write(line: string): void {
    if (this.broken || !this.makeRoom(line)) return;
    this.queued += this.queue.write(line, this.queued);
    if (!this.writing) this.writeQueued();
  }

  /** Resolves once every line given so far is written (or the descriptor has failed). */
  end(): Promise<void> {
    open.delete(this);
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /**
   * Writes what is queued now, synchronously: for a process that is about to exit (pino calls it
   * after a `fatal` line). A write already in flight is not waited for.
   */
  flushSync(): void {
    let bytes = this.queue.subarray(0, this.queued);
    this.queued = 0;
    while (!this.broken && bytes.length > 0) {
      try {
        bytes = bytes.subarray(writeSync(this.fd, bytes));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
        else this.fail();
      }
    }
  }

  /** Whether the queue can take the line, grown if need be; false beyond the limit. */
  private makeRoom(line: string): boolean {
    // A UTF-16 code unit is at most three bytes of UTF-8; the exact length only near the limit.
    let needed = this.queued + line.length * 3;
    if (needed > this.maxQueuedBytes) {
      needed = this.queued + Buffer.byteLength(line);
      if (needed > this.maxQueuedBytes) return false;
    }
    if (needed <= this.queue.length) return true;
    const bigger = Buffer.allocUnsafe(Math.min(this.maxQueuedBytes, Math.max(needed, 2 * this.queue.length)));
    this.queue.copy(bigger, 0, 0, this.queued);
    this.queue = bigger;
    return true;
  }

  private writeQueued(): void {
    const full = this.queue;
    const bytes = full.subarray(0, this.queued);
    this.queue = this.spare ?? Buffer.allocUnsafe(QUEUE_START_BYTES);
    this.spare = undefined;
    this.queued = 0;
    this.writing = true;
    this.writeBytes(bytes, full);
  }

  private writeBytes(bytes: Buffer, full: Buffer): void {
    write(this.fd, bytes, 0, bytes.length, null, (error, written) => {
      if (error?.code === "EAGAIN") setTimeout(() => this.writeBytes(bytes, full), RETRY_MS);
      else if (error !== null) this.fail();
      else if (written < bytes.length) this.writeBytes(bytes.subarray(written), full);
      else {
        if (full.length <= QUEUE_KEPT_BYTES) this.spare = full;
        if (this.queued > 0) this.writeQueued();
        else {
          this.writing = false;
          for (const resolve of this.drained.splice(0)) resolve();
        }
      }
    });
  }

  /** The descriptor failed (its reader gone, a disk full): the log stops; the service goes on. */
  private fail(): void {
    this.broken = true;
    this.writing = false;
    this.queued = 0;
    open.delete(this);
    for (const resolve of this.drained.splice(0)) resolve();
  }
}
