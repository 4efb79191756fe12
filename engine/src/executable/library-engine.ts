/** The real engine library behind the EnginePort seam: what the binary and the tests run. */

import { ENGINE_VERSION } from "../base/version.js";
import { inspectWith } from "../engine/inspect.js";
import { prepareWith, renderParts } from "../engine/pipeline.js";
import { type EngineRuntime, LIBRARY_RUNTIME } from "../engine/runtime.js";
import { validateWith } from "../engine/validate.js";
import { joinOutput, jsonOutputPieces } from "../markup/substitute.js";
import type { EnginePort, EngineRender } from "./engine-port.js";

/** The library with the given runtime choices, for this engine's callers only (no global state). */
export function createLibraryEngine(runtime: EngineRuntime): EnginePort {
  return {
    version: ENGINE_VERSION,
    runtime,
    render: (template, options) => render(template, options, runtime),
    prepare: (template, limits) => prepareWith(template, limits, runtime),
    validate: (template, options) => validateWith(template, options ?? {}, runtime),
    inspect: (template) => inspectWith(template, runtime),
  };
}

/** The library as its own callers get it: renders cached, zod's parsers compiled. */
export const libraryEngine: EnginePort = createLibraryEngine(LIBRARY_RUNTIME);

async function render(template: unknown, options: Parameters<EnginePort["render"]>[1], runtime: EngineRuntime): Promise<EngineRender> {
  const { compiled, values, target, templateId, text, warnings } = await renderParts(template, options, runtime);
  let output: string | undefined;
  return {
    target,
    templateId,
    ...(text === undefined ? {} : { text }),
    warnings,
    // Built only if someone reads it: the --serve loop writes `jsonOutput` instead.
    get output() {
      output ??= joinOutput(compiled, values);
      return output;
    },
    jsonOutput: () => jsonOutputPieces(compiled, values),
    layout: () => ({ layout: compiled, parts: compiled.parts, values }),
  };
}
