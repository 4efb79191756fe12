/**
 * The slice of the engine library the protocol needs. The executable passes the real library;
 * tests pass it too and substitute a fake only to provoke faults (an engine that throws a bug).
 */
import type { RenderOptions, RenderResult } from "../types.js";

/** A render result that may also give its output already encoded for the wire. */
export interface EngineRender extends RenderResult {
  /** The output as UTF-8 pieces of a JSON string's body, without building or re-escaping the whole string. */
  readonly jsonOutput?: () => readonly Uint8Array[];
}

export interface EnginePort {
  readonly version: string;
  render(template: unknown, options: RenderOptions): Promise<EngineRender>;
  validate(template: unknown): unknown;
  inspect(template: unknown): unknown;
}
