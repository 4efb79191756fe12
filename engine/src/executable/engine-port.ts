/**
 * The slice of the engine the executable needs. The executable passes the real engine
 * (library-engine.ts); tests pass it too and substitute a fake only to provoke faults (an engine
 * that throws a bug).
 */

import type { RenderLimits, RenderOptions, RenderResult } from "../base/types.js";
import type { EngineHost } from "../engine/host.js";
import type { KnownLayout, LayoutEntry, TemplateKey } from "../engine/pipeline.js";
import type { ValidateOptions, ValidationResult } from "../engine/validate.js";

/** A render result that may also give its output already encoded for the wire. */
export interface EngineRender extends RenderResult {
  /** The output as UTF-8 pieces of a JSON string's body, without building or re-escaping the whole string. */
  readonly jsonOutput?: () => readonly Uint8Array[];
  /**
   * The output as `parts[0] values[0] parts[1] …`, with `layout` the object that owns `parts`: its
   * identity says "same parts" across renders (output_format "layout").
   */
  readonly layout?: () => { readonly layout: object; readonly parts: readonly string[]; readonly values: readonly string[] };
  /** What was compiled, for a saved layout (save_layout). */
  readonly compiledLayout?: LayoutEntry;
}

export interface EnginePort {
  readonly version: string;
  /** Its host, whose UTF-8 the executable reads requests and writes envelopes with. */
  readonly host: EngineHost;
  render(template: unknown, options: RenderOptions): Promise<EngineRender>;
  /** A render from a saved layout of `template` read back, or undefined when it cannot give this one (src/engine/pipeline.ts). */
  renderFromLayout?(layout: KnownLayout, template: unknown, options: RenderOptions): EngineRender | undefined;
  /** The cache key of a request's template object, from the request's bytes (src/engine/engine.ts). */
  keyTemplate?(template: object, key: TemplateKey): void;
  /** A template read once, to be rendered by this engine many times (`template_ref`). */
  prepare(template: unknown, limits: RenderLimits): unknown;
  /** The template checks (spec/checks.md) with its validity. */
  validate(template: unknown, options?: ValidateOptions): ValidationResult;
  inspect(template: unknown): unknown;
  /** Empties the engine's caches (a process over its memory ceiling). */
  clearCaches(): void;
}
