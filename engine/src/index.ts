/**
 * @mailrender/engine — renders template JSON (v1) to `html`, `react-email` or `mjml`.
 *
 *   const { output, warnings } = await render(template, { target: "html", dynamicData });
 */

export { RenderError, type RenderWarning, type ValidationIssue, type WarningCode } from "./base/diagnostics.js";
export { nearestName } from "./base/nearest.js";
export {
  type DynamicData,
  type MergeTagValues,
  RENDER_TARGETS,
  type RenderLimits,
  type RenderOptions,
  type RenderResult,
  type RenderTarget,
} from "./base/types.js";
export { ENGINE_VERSION } from "./base/version.js";
export type { Finding, Severity } from "./document/checks/index.js";
export { type TemplateJson, templateDocumentSchema } from "./document/document-schema.js";
export { type JsonSchema, TEMPLATE_SCHEMA_ID, templateJsonSchema } from "./document/json-schema.js";
export { DEFAULT_LIMITS } from "./document/limits.js";
export { explainVisibility, type RuleOutcome, type VisibilityDecision } from "./engine/explain-visibility.js";
export { type InspectedMergeTag, type InspectResult, inspectTemplate } from "./engine/inspect.js";
export { type PreparedTemplate, prepareTemplate, render } from "./engine/pipeline.js";
export { type ValidateOptions, type ValidationResult, validateTemplate } from "./engine/validate.js";
