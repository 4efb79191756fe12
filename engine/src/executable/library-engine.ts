/** The engine behind the EnginePort seam: what the executable and the tests run. */

import type { CachePolicy } from "../engine/caches.js";
import { createExecutableEngine, type ExecutableEngine } from "../engine/engine.js";
import type { EngineHost } from "../engine/host.js";
import { outputOf, type RenderedParts } from "../engine/pipeline.js";
import type { EnginePort, EngineRender } from "./engine-port.js";

/** An engine as the executable uses it; `host` is the one it was made with. */
export function enginePort(engine: ExecutableEngine, host: EngineHost): EnginePort {
  return {
    version: engine.version,
    host,
    render: async (template, options) => engineRender(await engine.renderParts(template, options)),
    renderFromLayout: (layout, template, options) => {
      const parts = engine.renderFromLayout(layout, template, options);
      return parts === undefined ? undefined : engineRender(parts);
    },
    keyTemplate: (template, key) => engine.keyTemplate(template, key),
    prepare: (template, limits) => engine.prepare(template, { limits }),
    validate: (template, options) => engine.validate(template, options),
    inspect: (template) => engine.inspect(template),
    clearCaches: () => engine.clearCaches(),
  };
}

function engineRender(parts: RenderedParts): EngineRender {
  const { compiled, values, target, templateId, text, warnings } = parts;
  let output: string | undefined;
  return {
    target,
    templateId,
    ...(text === undefined ? {} : { text }),
    warnings,
    // Built only if someone reads it: the --serve loop writes `jsonOutput` instead.
    get output() {
      output ??= outputOf(parts);
      return output;
    },
    jsonOutput: parts.jsonOutput,
    layout: () => ({ layout: compiled, parts: compiled.parts, values }),
    compiledLayout: parts.layout,
  };
}

/**
 * A new engine on `host` with a cache policy, as the executable's entry makes one per mode. One that
 * keeps no template (one-shot) takes no key: its request's template is not hashed.
 */
export function createEnginePort(host: EngineHost, cache: CachePolicy): EnginePort {
  const port = enginePort(createExecutableEngine({ host, cache }), host);
  if (cache.templates > 0) return port;
  const { keyTemplate: _, ...keyless } = port;
  return keyless;
}
