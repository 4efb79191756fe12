/**
 * @mailrender/engine — renders template JSON (v1) to `html`, `react-email` or `mjml`.
 *
 *   const { output, warnings } = await render(template, { target: "html", dynamicData });
 *
 * The functions below are those of a default engine on Node's host, which caches parsed templates
 * and compiled outputs (`MANY_RENDERS`). `createEngine` makes another: with other blocks, another
 * cache policy or another host.
 */
import type { RenderLimits, RenderOptions, RenderResult } from "./base/types.js";
import type { BlockRegistry } from "./blocks/registry.js";
import type { Context } from "./data/visibility.js";
import { editorDescriptions as describe, type EditorDescriptionsJson } from "./document/editor.js";
import type { BlockCheckResult } from "./engine/check.js";
import { createEngine } from "./engine/engine.js";
import type { VisibilityDecision } from "./engine/explain-visibility.js";
import type { InspectResult } from "./engine/inspect.js";
import { NODE_HOST } from "./engine/node-host.js";
import type { PreparedTemplate } from "./engine/pipeline.js";
import type { ValidateOptions, ValidationResult } from "./engine/validate.js";

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
export { type BlockDefinition, type BlockFinding, defineBlock } from "./blocks/block.js";
export { BLOCK_LIST, BLOCKS, type BlockRegistry, blockRegistry } from "./blocks/registry.js";
export type { Finding, Severity } from "./document/checks/index.js";
export { type TemplateJson, templateDocumentSchema } from "./document/document-schema.js";
export type { EditorDescriptionJson, EditorDescriptionsJson, FieldJson } from "./document/editor.js";
export { type JsonSchema, TEMPLATE_SCHEMA_ID, templateJsonSchema } from "./document/json-schema.js";
export { DEFAULT_LIMITS } from "./document/limits.js";
export { type CachePolicy, MANY_RENDERS, ONE_RENDER } from "./engine/caches.js";
export type { BlockCheckResult } from "./engine/check.js";
export { createEngine, type Engine, type EngineOptions } from "./engine/engine.js";
export type { RuleOutcome, VisibilityDecision } from "./engine/explain-visibility.js";
export type { EngineHost } from "./engine/host.js";
export type { InspectedMergeTag, InspectResult } from "./engine/inspect.js";
export { NODE_HOST } from "./engine/node-host.js";
export type { PreparedTemplate } from "./engine/pipeline.js";
export type { ValidateOptions, ValidationResult } from "./engine/validate.js";
export type { DarkKey, EditorDescription, Field, FieldGroup, FieldKind } from "./schema/editor.js";

const engine = createEngine({ host: NODE_HOST });

export function render(template: unknown, options: RenderOptions): Promise<RenderResult> {
  return engine.render(template, options);
}

/** `limits.maxNodes` is checked here, once: a prepared template is not re-counted when rendered. */
export function prepareTemplate(template: unknown, options: { readonly limits?: RenderLimits | undefined } = {}): PreparedTemplate {
  return engine.prepare(template, options);
}

/**
 * Checks a template without rendering it for anyone: whether it can render (every problem, with its
 * path) and what the template checks find (spec/checks.md). The limits alone are still taken.
 */
export function validateTemplate(template: unknown, options?: ValidateOptions | RenderLimits): ValidationResult {
  return engine.validate(template, options);
}

/** The merge tags a template uses (with where each lands and its default) and the context keys its visibility rules read. */
export function inspectTemplate(template: unknown): InspectResult {
  return engine.inspect(template);
}

/** Why each row, spacer, column and block is shown or hidden for a context; an invalid template throws its RenderError. */
export function explainVisibility(template: unknown, context: Context | undefined): VisibilityDecision[] {
  return engine.explainVisibility(template, context);
}

/** What each block of a template needs to mean something to a reader (its content checks), with paths. */
export function checkBlocks(template: unknown): BlockCheckResult {
  return engine.checkBlocks(template);
}

/** The editor description of every block of a registry (default: this version's) and of the canvas, rows, columns and row spacers, as JSON. */
export function editorDescriptions(registry?: BlockRegistry): EditorDescriptionsJson {
  return describe(registry);
}
