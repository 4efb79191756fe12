/** The real engine library behind the EnginePort seam: what the binary and the tests run. */
import { ENGINE_VERSION, inspectTemplate, render, validateTemplate } from "../index.js";
import type { EnginePort } from "./engine-port.js";

export const libraryEngine: EnginePort = {
  version: ENGINE_VERSION,
  render: (template, options) => render(template, options),
  validate: (template) => validateTemplate(template),
  inspect: (template) => inspectTemplate(template),
};
