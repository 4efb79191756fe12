/**
 * @mailrender/engine — renders template JSON (v1) to `html`, `react-email` or `mjml`.
 *
 *   const { output, warnings } = await render(template, { target: "html", dynamicData });
 */

export { RenderError, type RenderWarning, type ValidationIssue, type WarningCode } from "./diagnostics.js";
export { explainVisibility, type RuleOutcome, type VisibilityDecision } from "./explain-visibility.js";
export { type InspectedMergeTag, type InspectResult, inspectTemplate } from "./inspect.js";
export { type PreparedTemplate, prepareTemplate, render } from "./render/pipeline.js";
export { type TemplateJson, templateDocumentSchema } from "./template/document-schema.js";
export { type JsonSchema, TEMPLATE_SCHEMA_ID, templateJsonSchema } from "./template/json-schema.js";
export { DEFAULT_LIMITS } from "./template/limits.js";
export { type DynamicData, type MergeTagValues, RENDER_TARGETS, type RenderLimits, type RenderOptions, type RenderResult, type RenderTarget } from "./types.js";
export { type ValidationResult, validateTemplate } from "./validate.js";
export { ENGINE_VERSION } from "./version.js";
