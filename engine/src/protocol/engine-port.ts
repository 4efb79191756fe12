/**
 * The slice of the engine library the protocol needs. The executable passes the real library;
 * tests pass it too and substitute a fake only to provoke faults (an engine that throws a bug).
 */
import type { RenderOptions, RenderResult } from "../types.js";

export interface EnginePort {
  readonly version: string;
  render(template: unknown, options: RenderOptions): Promise<RenderResult>;
  validate(template: unknown): unknown;
  inspect(template: unknown): unknown;
}
