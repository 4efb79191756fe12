import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { RenderError, render } from "@mailrender/engine";
import type { FromThread, ToThread } from "./pool.js";
import { type RenderRequest, readRenderRequest, toDynamicData } from "./request.js";
import { linuxThreadId } from "./thread-cpu.js";
import { WARM_UP_BODY, WARM_UP_TEMPLATE } from "./warm-up.js";

/** One render pool thread: reads one render request at a time, then renders it with the engine library (see `ToThread`). */
const port = parentPort;
if (port === null) throw new Error("render worker must run in a worker thread");

const encoder = new TextEncoder();
/** The request read but not rendered yet: waiting for its template. */
let pending: { id: number; request: RenderRequest; plainText: boolean } | undefined;

function send(message: FromThread): void {
  port?.postMessage(message, typeof message === "object" && message.kind === "rendered" ? [message.output.buffer as ArrayBuffer] : []);
}

port.on("message", (message: ToThread) => {
  switch (message.kind) {
    case "read": {
      const read = readRenderRequest(message.body);
      if ("issues" in read) return send({ kind: "invalid", id: message.id, issues: read.issues });
      pending = { id: message.id, request: read.request, plainText: message.plainText };
      return send({ kind: "read", id: message.id, templateId: read.request.template_id, target: read.request.target });
    }
    case "render": {
      const job = pending;
      pending = undefined;
      if (job?.id === message.id) void renderJob(job, message.template).then(send);
      return;
    }
    case "drop":
      if (pending?.id === message.id) pending = undefined;
  }
});

async function renderJob({ id, request, plainText }: NonNullable<typeof pending>, template: string): Promise<FromThread> {
  try {
    const options = { target: request.target, dynamicData: toDynamicData(request.dynamic_data), minify: true, plainText };
    const result = await render(JSON.parse(template) as unknown, options);
    // Encoded here and transferred: the event loop neither copies the string nor encodes it for the socket.
    return { kind: "rendered", id, output: encoder.encode(plainText ? (result.text ?? "") : result.output) };
  } catch (err) {
    if (err instanceof RenderError) {
      return { kind: "failed", id, failure: "render", message: err.message, issues: err.issues.map((i) => ({ loc: [...i.loc], msg: i.msg, type: i.type })) };
    }
    return { kind: "failed", id, failure: "internal", message: err instanceof Error ? err.message : String(err), issues: [] };
  }
}

/**
 * Render threads run at a lower CPU priority (nice 10) than the event loop, so that on a machine
 * whose cores are busy the thread answering health checks and template fetches is scheduled before
 * them the moment it has work. Linux only; elsewhere, or if refused, renders run at the process's
 * priority. (The time budget counts the thread's CPU time, so a render slowed this way is not stopped.)
 */
const threadId = linuxThreadId();
try {
  if (threadId !== undefined) setPriority(threadId, 10);
} catch {
  // not allowed: keep the process's priority
}

const warmUp = readRenderRequest(encoder.encode(WARM_UP_BODY));
if ("request" in warmUp) await renderJob({ id: 0, request: warmUp.request, plainText: false }, JSON.stringify(WARM_UP_TEMPLATE));

// The engine is loaded and has run: from now on the time budget measures rendering, not start-up.
port.postMessage({ kind: "ready", threadId } satisfies FromThread);
