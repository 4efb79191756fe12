/** The real engine library behind the EnginePort seam: what the binary and the tests run. */
import { ENGINE_VERSION, inspectTemplate, validateTemplate } from "../index.js";
import { renderParts } from "../render/pipeline.js";
import { joinOutput, jsonOutputPieces } from "../render/substitute.js";
import type { EnginePort, EngineRender } from "./engine-port.js";

async function render(template: unknown, options: Parameters<EnginePort["render"]>[1]): Promise<EngineRender> {
  const { compiled, values, target, templateId, text, warnings } = await renderParts(template, options);
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

export const libraryEngine: EnginePort = {
  version: ENGINE_VERSION,
  render,
  validate: (template) => validateTemplate(template),
  inspect: (template) => inspectTemplate(template),
};
