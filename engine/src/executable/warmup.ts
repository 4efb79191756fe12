/**
 * One render of every target over a template that touches every block, run while the V8 startup
 * snapshot is built: the snapshot then holds compiled, warmed engine code and a cold render skips
 * most of the module loading and first-call work.
 */

import { RENDER_TARGETS } from "../base/types.js";
import { BLOCKS } from "../blocks/registry.js";
import { EXIT } from "../protocol/errors.js";
import type { EnginePort } from "./engine-port.js";
import { createHandler } from "./handler.js";
import type { Sink } from "./io.js";
import { runOneShot } from "./loops.js";
import { Output } from "./output.js";
import { TemplateStore } from "./template-store.js";

/** Every block's example (blocks/*), in two columns of a conditional row, and a row spacer. */
export function warmupTemplate() {
  const blocks = Object.values(BLOCKS).map((block, index) => ({ id: `b${index}`, type: "component", componentType: block.type, props: block.example }));
  const half = Math.ceil(blocks.length / 2);
  return {
    template_id: "warmup",
    template_name: "Warm-up {{ first_name }}",
    schema_version: "1.0",
    canvas: {},
    rows: [
      {
        id: "r1",
        type: "row",
        columns: [
          { id: "c1", width: 50, children: blocks.slice(0, half) },
          { id: "c2", width: 50, children: blocks.slice(half) },
        ],
        visibility: { enabled: true, match: "all", rules: [{ tag: "plan", operator: "==", value: "pro" }] },
      },
      { id: "sp", type: "row-spacer", height: 12 },
    ],
  };
}

/**
 * Never fails: a warm-up that cannot render only makes the snapshot less warm, so it just says so on stderr.
 * Each render goes through the one-shot protocol path a launched binary takes (decode, the request
 * schema, the envelope, the output stream), not only the library: code first run in a launched
 * process is interpreted cold. `sink` takes the envelopes (the Node entry passes a stream of its
 * own kind, so that its stream code is warm too).
 */
export async function warmUp(engine: EnginePort, log: (line: string) => void, sink: Sink): Promise<void> {
  const handler = createHandler({ engine, store: new TemplateStore(), reportBug: (error) => log(`warm-up bug: ${String(error)}`) });
  const output = new Output(sink);
  const template = warmupTemplate();
  for (const target of RENDER_TARGETS) {
    for (const minify of [true, false]) {
      const request = {
        template,
        target,
        dynamic_data: { merge_tags: { text: { first_name: "Ada", order_id: "1042" }, url: { link: "https://example.com" } }, context: { plan: "pro" } },
        options: { minify, strict: false },
      };
      const input = [engine.host.encodeUtf8(JSON.stringify(request))];
      const exit = await runOneShot({
        handler,
        engineVersion: engine.version,
        input: (async function* () {
          yield* input;
        })(),
        output,
      });
      if (exit !== EXIT.OK) log(`warm-up render (${target}) failed with exit ${exit}`);
    }
  }
}
