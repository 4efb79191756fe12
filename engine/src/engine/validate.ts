/** Checks a template without rendering it; every problem is reported, with its path. */
import { RenderError, type RenderWarning, type ValidationIssue } from "../base/diagnostics.js";
import type { RenderLimits } from "../base/types.js";
import { resolveLimits } from "../document/limits.js";
import { readTemplate } from "./pipeline.js";
import { type EngineRuntime, LIBRARY_RUNTIME } from "./runtime.js";

export interface ValidationResult {
  readonly valid: boolean;
  /** Errors: the template cannot be rendered. */
  readonly issues: readonly ValidationIssue[];
  /** Problems that do not stop a render (unknown block types, dropped spacers). */
  readonly warnings: readonly RenderWarning[];
}

export function validateTemplate(json: unknown, limits?: RenderLimits): ValidationResult {
  return validateWith(json, limits, LIBRARY_RUNTIME);
}

/** `validateTemplate` with a given runtime (src/engine/runtime.ts): the executable's engine port. */
export function validateWith(json: unknown, limits: RenderLimits | undefined, runtime: EngineRuntime): ValidationResult {
  try {
    const { result } = readTemplate(json, resolveLimits(limits), runtime);
    return { valid: result.template !== undefined, issues: result.issues, warnings: result.warnings };
  } catch (error) {
    if (error instanceof RenderError) return { valid: false, issues: error.issues, warnings: [] };
    throw error;
  }
}
