/**
 * @mailrender/engine — renders template JSON (v1) to `html`, `react-email` or `mjml`.
 *
 *   const { output, warnings } = await render(template, { target: "html", dynamicData });
 */

import { RenderError, type RenderWarning, type ValidationIssue } from "./diagnostics.js";
import { readTemplate } from "./render/pipeline.js";
import { resolveLimits } from "./template/limits.js";
import type { RenderLimits } from "./types.js";

export { RenderError, type RenderWarning, type ValidationIssue, type WarningCode } from "./diagnostics.js";
export { explainVisibility, type RuleOutcome, type VisibilityDecision } from "./explain-visibility.js";
export { type InspectedMergeTag, type InspectResult, inspectTemplate } from "./inspect.js";
export { type PreparedTemplate, prepareTemplate, render } from "./render/pipeline.js";
export { type TemplateJson, templateDocumentSchema } from "./template/document-schema.js";
export { type JsonSchema, TEMPLATE_SCHEMA_ID, templateJsonSchema } from "./template/json-schema.js";
export { DEFAULT_LIMITS } from "./template/limits.js";
export { type DynamicData, type MergeTagValues, RENDER_TARGETS, type RenderLimits, type RenderOptions, type RenderResult, type RenderTarget } from "./types.js";
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
