/** Checks a template without rendering it; every problem is reported, with its path. */
import { RenderError, type RenderWarning, type ValidationIssue } from "../base/diagnostics.js";
import type { RenderLimits } from "../base/types.js";
import { resolveLimits } from "../document/limits.js";
import { type EngineCore, readTemplate } from "./pipeline.js";

export interface ValidationResult {
  readonly valid: boolean;
  /** Errors: the template cannot be rendered. */
  readonly issues: readonly ValidationIssue[];
  /** Problems that do not stop a render (unknown block types, dropped spacers). */
  readonly warnings: readonly RenderWarning[];
}

export function validate(core: EngineCore, json: unknown, limits: RenderLimits | undefined): ValidationResult {
  try {
    const { result } = readTemplate(core, json, resolveLimits(limits));
    return { valid: result.template !== undefined, issues: result.issues, warnings: result.warnings };
  } catch (error) {
    if (error instanceof RenderError) return { valid: false, issues: error.issues, warnings: [] };
    throw error;
  }
}
