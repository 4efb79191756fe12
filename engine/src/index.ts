/**
 * @mailrender/engine — renders template JSON (v1) to `html`, `react-email` or `mjml`.
 *
 *   const { output, warnings } = await render(template, { target: "html", dynamicData });
 */
import { readTemplate } from "./render/pipeline.js";
import { RenderError, type RenderWarning, type ValidationIssue } from "./diagnostics.js";
import { resolveLimits } from "./template/limits.js";
import type { RenderLimits } from "./types.js";

export { prepareTemplate, render, type PreparedTemplate } from "./render/pipeline.js";
export { inspectTemplate, type InspectResult, type InspectedMergeTag } from "./inspect.js";
export { explainVisibility, type RuleOutcome, type VisibilityDecision } from "./explain-visibility.js";
export { RenderError, type RenderWarning, type ValidationIssue, type WarningCode } from "./diagnostics.js";
export { RENDER_TARGETS, type DynamicData, type MergeTagValues, type RenderLimits, type RenderOptions, type RenderResult, type RenderTarget } from "./types.js";
export { DEFAULT_LIMITS } from "./template/limits.js";
export { templateDocumentSchema, type TemplateJson } from "./template/document-schema.js";
export { ENGINE_VERSION } from "./version.js";

export interface ValidationResult {
  readonly valid: boolean;
  /** Errors: the template cannot be rendered. */
  readonly issues: readonly ValidationIssue[];
  /** Problems that do not stop a render (unknown block types, dropped spacers). */
  readonly warnings: readonly RenderWarning[];
}

/** Checks a template without rendering it; every problem is reported, with its path. */
export function validateTemplate(json: unknown, limits?: RenderLimits): ValidationResult {
  try {
    const { result } = readTemplate(json, resolveLimits(limits));
    return { valid: result.template !== undefined, issues: result.issues, warnings: result.warnings };
  } catch (error) {
    if (error instanceof RenderError) return { valid: false, issues: error.issues, warnings: [] };
    throw error;
  }
}
