import { type ResourceLimits, Worker } from "node:worker_threads";
import type { DynamicData, RenderTarget } from "@mailrender/engine";
import type { Issue } from "../errors.js";

export interface RenderJob {
  id: number;
  /** The stored template JSON text, parsed in the worker (parsing a big template is work too). */
  template: string;
  /** With `plainText`, the job's output is the plain-text version instead of the target's output. */
  options: { target: RenderTarget; dynamicData?: DynamicData | undefined; minify: boolean; plainText?: boolean | undefined };
}

export type RenderOutcome = { id: number; ok: true; output: string } | { id: number; ok: false; kind: "render" | "internal"; message: string; issues: Issue[] };

/** Why a render did not produce output; the route maps each kind to an HTTP answer. */
export class RenderFailure extends Error {
  constructor(
    readonly kind: "render" | "timeout" | "memory" | "overloaded" | "internal",
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
  }
}

export interface RenderPoolOptions {
  /** Worker threads; each renders one template at a time. */
  size: number;
  /** A render running longer is stopped (its thread is replaced). */
  timeoutMs: number;
  /** Jobs waiting for a thread beyond this are refused at once. */
  maxQueue: number;
  /** Heap limit of one thread, so one template cannot take the process's memory. */
  maxHeapMb: number;
}

interface Slot {
  worker: Worker;
  /** Resolves once the thread has loaded the engine. */
  ready: Promise<void>;
  job?: { job: RenderJob; resolve: (output: string) => void; reject: (err: Error) => void; timer: NodeJS.Timeout | undefined } | undefined;
}

/** The compiled worker; run from the TypeScript sources (tests, `tsx`), it loads tsx first. */
function newWorker(resourceLimits: ResourceLimits): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./worker.js", import.meta.url), { resourceLimits });
  const tsx = import.meta.resolve("tsx/esm/api");
  const worker = new URL("./worker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(worker)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}

/**
 * Renders on worker threads, so a huge template blocks neither health checks nor other requests,
 * and a render that runs past its time budget is stopped by terminating its thread.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: { job: RenderJob; resolve: (output: string) => void; reject: (err: Error) => void }[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {}

  render(template: string, options: RenderJob["options"]): Promise<string> {
    if (this.closed) return Promise.reject(new RenderFailure("overloaded", "The server is shutting down"));
    return new Promise((resolve, reject) => {
      const job: RenderJob = { id: this.nextId++, template, options };
      const slot = this.freeSlot();
      if (slot !== undefined) this.start(slot, job, resolve, reject);
      else if (this.queue.length >= this.options.maxQueue) reject(new RenderFailure("overloaded", "Too many renders waiting; retry later"));
      else this.queue.push({ job, resolve, reject });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new RenderFailure("overloaded", "The server is shutting down"));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
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
    const slot: Slot = { worker, ready: new Promise((resolve) => (markReady = resolve)) };
    worker.on("message", (outcome: RenderOutcome | "ready") => {
      if (outcome === "ready") return markReady();
      const current = slot.job;
      if (current === undefined || current.job.id !== outcome.id) return;
      this.finish(slot);
      if (outcome.ok) current.resolve(outcome.output);
      else current.reject(new RenderFailure(outcome.kind, outcome.message, outcome.issues));
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

  private start(slot: Slot, job: RenderJob, resolve: (output: string) => void, reject: (err: Error) => void): void {
    const current: NonNullable<Slot["job"]> = { job, resolve, reject, timer: undefined };
    slot.job = current;
    void slot.ready.then(() => {
      if (slot.job !== current) return; // the thread died while starting
      current.timer = setTimeout(() => {
        this.fail(slot, new RenderFailure("timeout", `Rendering this template took longer than the ${this.options.timeoutMs} ms budget`));
      }, this.options.timeoutMs);
      slot.worker.postMessage(job);
    });
  }

  /** The slot's job is done: take the next waiting job, if any. */
  private finish(slot: Slot): void {
    if (slot.job !== undefined) clearTimeout(slot.job.timer);
    slot.job = undefined;
    const next = this.queue.shift();
    if (next !== undefined) this.start(slot, next.job, next.resolve, next.reject);
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
      slot.job.reject(error);
    }
    const next = this.queue.shift();
    if (next !== undefined && !this.closed) {
      const fresh = this.spawn();
      this.slots.push(fresh);
      this.start(fresh, next.job, next.resolve, next.reject);
    }
  }
}
