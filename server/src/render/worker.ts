import { parentPort } from "node:worker_threads";
import { RenderError, type RenderOptions, render } from "@mailrender/engine";
import type { RenderJob, RenderOutcome } from "./pool.js";

/** One render pool thread: renders one job at a time with the engine library. */
const port = parentPort;
if (port === null) throw new Error("render worker must run in a worker thread");

port.on("message", (job: RenderJob) => {
  void run(job).then((outcome) => port.postMessage(outcome));
});
// The engine is loaded: from now on the time budget measures rendering, not start-up.
port.postMessage("ready");

async function run({ id, template, options }: RenderJob): Promise<RenderOutcome> {
  try {
    const result = await render(JSON.parse(template) as unknown, options as RenderOptions);
    return { id, ok: true, output: options.plainText === true ? (result.text ?? "") : result.output };
  } catch (err) {
    if (err instanceof RenderError) {
      return { id, ok: false, kind: "render", message: err.message, issues: err.issues.map((i) => ({ loc: [...i.loc], msg: i.msg, type: i.type })) };
    }
    return { id, ok: false, kind: "internal", message: err instanceof Error ? err.message : String(err), issues: [] };
  }
}
