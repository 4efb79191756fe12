import { type ResourceLimits, Worker } from "node:worker_threads";
import type { RenderTarget } from "@mailrender/engine";
import type { Issue } from "../errors.js";
import { threadCpuMs } from "./thread-cpu.js";

/**
 * The messages between the event loop and a render thread, for one job in two steps: the thread reads
 * the request from the body's bytes and says which template and target it asks for; the event loop
 * checks the key's scope, looks the template up (cached) and sends its JSON text, or drops the job;
 * the thread renders and answers with the output's UTF-8 bytes. Bytes travel both ways as transferred
 * buffers: the event loop never copies, decodes, parses or encodes a body or an output.
 */
export type ToThread =
  | { kind: "read"; id: number; body: Uint8Array | undefined; plainText: boolean }
  | { kind: "render"; id: number; template: string }
  | { kind: "drop"; id: number };

export type FromThread =
  | { kind: "ready"; threadId: number | undefined }
  | { kind: "read"; id: number; templateId: string; target: RenderTarget }
  | { kind: "invalid"; id: number; issues: Issue[] }
  | { kind: "rendered"; id: number; output: Uint8Array }
  | { kind: "failed"; id: number; failure: "render" | "internal"; message: string; issues: Issue[] };

/** Why a render did not produce output; the route maps each kind to an HTTP answer. */
export class RenderFailure extends Error {
  constructor(
    readonly kind: "invalid" | "render" | "timeout" | "memory" | "overloaded" | "internal",
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
  }
}

/**
 * What the body asks for → the stored template's JSON text. The route checks the key's scope and
 * looks the template up here; what it throws (403, 404, 503) ends the job with that error.
 */
export type TemplateFor = (asked: { templateId: string; target: RenderTarget }) => Promise<string>;

export interface RenderPoolOptions {
  /** Worker threads; each renders one template at a time. */
  size: number;
  /** A render whose thread has run longer (CPU time on Linux, else wall time) is stopped and its thread replaced. */
  timeoutMs: number;
  /**
   * Renders admitted beyond one per thread: waiting for a thread, or whose request is still arriving.
   * Past it `admit` refuses, before the request's body is read.
   */
  maxWaiting: number;
  /** Heap limit of one thread, so one template cannot take the process's memory. */
  maxHeapMb: number;
}

interface Job {
  id: number;
  body: Uint8Array | undefined;
  plainText: boolean;
  templateFor: TemplateFor;
  resolve: (output: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Resolves once the thread has loaded the engine. */
  ready: Promise<void>;
  /** The clock of the thread's budget in ms: its CPU time where Linux tells it, else wall time. */
  clock: () => number;
  job?: RunningJob | undefined;
}

/**
 * A job on a thread. Its time budget counts the thread's own work (reading the request, rendering):
 * the clock stops while the event loop looks the template up, so a slow database or a busy event
 * loop never turns a quick render into a timeout; and it counts the thread's CPU time, not the time
 * other work takes it off the CPU (render threads yield to everything else: worker.ts), so a busy
 * machine slows renders without failing them.
 */
interface RunningJob extends Job {
  startedAt: number;
  timer: NodeJS.Timeout | undefined;
  budgetLeftMs: number;
  clockStartedAt: number;
}

/** One admitted render: `render` once, or `release` when the request ends without one (both idempotent). */
export interface RenderTicket {
  render(body: Uint8Array | undefined, plainText: boolean, templateFor: TemplateFor): Promise<Buffer>;
  release(): void;
}

/** What a render is assumed to take before any has finished, for the first Retry-After. */
const FIRST_ESTIMATE_MS = 200;

/** The compiled worker; run from the TypeScript sources (tests, `tsx`), it loads tsx first. */
function newWorker(resourceLimits: ResourceLimits): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./worker.js", import.meta.url), { resourceLimits });
  const tsx = import.meta.resolve("tsx/esm/api");
  const worker = new URL("./worker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(worker)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}

/** The buffer a view owns alone can be transferred; a view into a shared one (Node's pooled small Buffers) is copied. */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/**
 * Renders on worker threads, so a huge template blocks neither health checks nor other requests,
 * and a render that runs past its time budget is stopped by terminating its thread.
 *
 * Admission keeps the event loop for everyone else: a render is admitted before its request body is
 * read, while fewer than `size + maxWaiting` are admitted; under a storm of renders the rest are
 * refused at the cost of their headers (with a Retry-After from the recent render time), instead of
 * every request being read and queued for minutes. An admitted render costs the event loop no work per byte (see `ToThread`).
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private admitted = 0;
  /** Moving average of recent render times (queue wait excluded), for Retry-After. */
  private recentMs = FIRST_ESTIMATE_MS;

  constructor(private readonly options: RenderPoolOptions) {}

  /** A ticket for one render, or undefined when as many renders as the pool takes are admitted already. */
  admit(): RenderTicket | undefined {
    if (this.closed || this.admitted >= this.options.size + this.options.maxWaiting) return undefined;
    this.admitted += 1;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.admitted -= 1;
    };
    return { render: (body, plainText, templateFor) => this.run(body, plainText, templateFor).finally(release), release };
  }

  /** Seconds a refused caller should wait: the renders admitted beyond the threads, at the recent render time, spread over the threads. */
  retryAfterSeconds(): number {
    const ahead = Math.max(1, this.admitted - this.options.size + 1);
    return Math.min(60, Math.max(1, Math.ceil((ahead * this.recentMs) / this.options.size / 1000)));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new RenderFailure("overloaded", "The server is shutting down"));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private run(body: Uint8Array | undefined, plainText: boolean, templateFor: TemplateFor): Promise<Buffer> {
    if (this.closed) return Promise.reject(new RenderFailure("overloaded", "The server is shutting down"));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, body: body === undefined ? undefined : ownBuffer(body), plainText, templateFor, resolve, reject };
      const slot = this.freeSlot();
      if (slot !== undefined) this.start(slot, job);
      else this.queue.push(job);
    });
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => s.job === undefined);
    if (idle !== undefined) return idle;
    if (this.slots.length >= this.options.size) return undefined;
    const slot = this.spawn();
    this.slots.push(slot);
    return slot;
  }

  private spawn(): Slot {
    const worker = newWorker({ maxOldGenerationSizeMb: this.options.maxHeapMb });
    let markReady = () => {};
    const slot: Slot = { worker, ready: new Promise((resolve) => (markReady = resolve)), clock: () => performance.now() };
    worker.on("message", (message: FromThread) => {
      if (message.kind === "ready") {
        const { threadId } = message;
        if (threadId !== undefined && threadCpuMs(threadId) !== undefined) slot.clock = () => threadCpuMs(threadId) ?? Number.POSITIVE_INFINITY;
        return markReady();
      }
      const current = slot.job;
      if (current === undefined || current.id !== message.id) return;
      switch (message.kind) {
        case "read":
          this.stopClock(slot, current);
          this.supplyTemplate(slot, current, message);
          return;
        case "invalid":
          this.settle(slot, () => current.reject(new RenderFailure("invalid", "Request validation failed", message.issues)));
          return;
        case "rendered":
          this.settle(slot, () => current.resolve(Buffer.from(message.output.buffer, message.output.byteOffset, message.output.byteLength)));
          return;
        case "failed":
          this.settle(slot, () => current.reject(new RenderFailure(message.failure, message.message, message.issues)));
      }
    });
    worker.on("error", (err: Error & { code?: string }) => {
      const memory = err.code === "ERR_WORKER_OUT_OF_MEMORY";
      this.fail(
        slot,
        new RenderFailure(memory ? "memory" : "internal", memory ? "Rendering this template needs more memory than a render may use" : err.message),
      );
    });
    worker.on("exit", () => this.fail(slot, new RenderFailure("internal", "render worker stopped")));
    return slot;
  }

  /** The thread has read the request: the route's check and lookup, then the template or a drop. */
  private supplyTemplate(slot: Slot, job: RunningJob, asked: { templateId: string; target: RenderTarget }): void {
    job.templateFor(asked).then(
      (template) => {
        if (slot.job !== job) return;
        this.runClock(slot, job);
        slot.worker.postMessage({ kind: "render", id: job.id, template } satisfies ToThread);
      },
      (err: unknown) => {
        if (slot.job !== job) return;
        slot.worker.postMessage({ kind: "drop", id: job.id } satisfies ToThread);
        this.settle(slot, () => job.reject(err instanceof Error ? err : new Error(String(err))));
      },
    );
  }

  private start(slot: Slot, job: Job): void {
    const now = performance.now();
    const current: RunningJob = { ...job, startedAt: now, timer: undefined, budgetLeftMs: this.options.timeoutMs, clockStartedAt: 0 };
    slot.job = current;
    void slot.ready.then(() => {
      if (slot.job !== current) return; // the thread died while starting
      current.startedAt = performance.now();
      this.runClock(slot, current);
      const message: ToThread = { kind: "read", id: current.id, body: current.body, plainText: current.plainText };
      slot.worker.postMessage(message, current.body === undefined ? [] : [current.body.buffer as ArrayBuffer]);
    });
  }

  /**
   * Runs the job's clock; the timer fires when its budget would be spent at full speed, and then
   * stops the render only if the thread's clock says it is spent (a thread kept off the CPU has not).
   */
  private runClock(slot: Slot, job: RunningJob): void {
    job.clockStartedAt = slot.clock();
    const check = () => {
      this.stopClock(slot, job);
      if (job.budgetLeftMs > 0) return this.runClock(slot, job);
      this.fail(slot, new RenderFailure("timeout", `Rendering this template took longer than the ${this.options.timeoutMs} ms budget`));
    };
    job.timer = setTimeout(check, Math.max(0, job.budgetLeftMs));
  }

  private stopClock(slot: Slot, job: RunningJob): void {
    clearTimeout(job.timer);
    job.timer = undefined;
    job.budgetLeftMs -= slot.clock() - job.clockStartedAt;
  }

  private observe(job: { startedAt: number }): void {
    this.recentMs = 0.8 * this.recentMs + 0.2 * (performance.now() - job.startedAt);
  }

  /** The slot's job is over: answer it, then give the thread the next waiting job, if any. */
  private settle(slot: Slot, answer: () => void): void {
    if (slot.job !== undefined) {
      clearTimeout(slot.job.timer);
      this.observe(slot.job);
    }
    slot.job = undefined;
    answer();
    const next = this.queue.shift();
    if (next !== undefined) this.start(slot, next);
  }

  /** The slot's thread is unusable (timeout, crash, out of memory): fail its job and replace the thread. */
  private fail(slot: Slot, error: RenderFailure): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    slot.worker.removeAllListeners();
    slot.worker.on("error", () => {});
    void slot.worker.terminate();
    if (slot.job !== undefined) {
      clearTimeout(slot.job.timer);
      this.observe(slot.job);
      slot.job.reject(error);
      slot.job = undefined;
    }
    const next = this.queue.shift();
    if (next !== undefined && !this.closed) {
      const fresh = this.spawn();
      this.slots.push(fresh);
      this.start(fresh, next);
    }
  }
}
