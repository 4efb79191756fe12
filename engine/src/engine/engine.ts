/**
 * The engine as an object: made with a host (hashing and UTF-8, host.ts), a block registry and a
 * cache policy (caches.ts), it owns its caches, and two engines in one process share nothing. The
 * library's functions (`render`, `validateTemplate`, …) are a default engine's on Node's host.
 */

import type { RenderLimits, RenderOptions, RenderResult } from "../base/types.js";
import { ENGINE_VERSION } from "../base/version.js";
import { BLOCKS, type BlockRegistry } from "../blocks/registry.js";
import type { Context } from "../data/visibility.js";
import { ContentHtml } from "../markup/content.js";
import { type CachePolicy, EngineCaches, MANY_RENDERS } from "./caches.js";
import { type BlockCheckResult, checkBlocks } from "./check.js";
import { explainVisibility, type VisibilityDecision } from "./explain-visibility.js";
import type { EngineHost } from "./host.js";
import { type InspectResult, inspect } from "./inspect.js";
import {
  CACHE_WEIGHTS,
  type EngineCore,
  type KnownLayout,
  keyTemplate,
  outputOf,
  type PreparedTemplate,
  prepare,
  type RenderedParts,
  renderFromLayout,
  renderParts,
  type TemplateKey,
} from "./pipeline.js";
import { type ValidateOptions, type ValidationResult, validate } from "./validate.js";

export interface EngineOptions {
  readonly host: EngineHost;
  /** The blocks it knows (default: this version's, `BLOCKS`). */
  readonly registry?: BlockRegistry;
  /** How much it keeps between renders (default: `MANY_RENDERS`). */
  readonly cache?: CachePolicy;
}

export interface Engine {
  readonly version: string;
  readonly registry: BlockRegistry;
  render(template: unknown, options: RenderOptions): Promise<RenderResult>;
  /** A render before its output is joined: for writers that send it in parts (the executable). */
  renderParts(template: unknown, options: RenderOptions): Promise<RenderedParts>;
  /**
   * A render from a layout of `template` compiled earlier (a saved layout read back and checked to be
   * this template's), or undefined when it cannot give this one. Its outputs join the engine's cache
   * as if compiled here.
   */
  renderFromLayout(layout: KnownLayout, template: unknown, options: RenderOptions): RenderedParts | undefined;
  /** A template read once, to be rendered by this engine many times. */
  prepare(template: unknown, options?: { readonly limits?: RenderLimits | undefined }): PreparedTemplate;
  /** Whether it can render, and what the template checks find (spec/checks.md); the limits alone are still taken. */
  validate(template: unknown, options?: ValidateOptions | RenderLimits): ValidationResult;
  inspect(template: unknown): InspectResult;
  explainVisibility(template: unknown, context: Context | undefined): VisibilityDecision[];
  checkBlocks(template: unknown): BlockCheckResult;
  /** Empties its caches: later renders recompute what they need. */
  clearCaches(): void;
}

/**
 * The executable's engine: it also takes the cache keys of templates it read from a request's bytes
 * (docs/design/template-cache-key.md). Not the library's API: a key given to the wrong object would
 * answer for another template.
 */
export interface ExecutableEngine extends Engine {
  /**
   * Gives a template object, as JSON.parse made it, the cache key its JSON text would have: the
   * host's `digest` of that text, which a reader of the bytes has without building the text.
   */
  keyTemplate(template: object, key: TemplateKey): void;
}

export function createEngine(options: EngineOptions): Engine {
  const { keyTemplate: _, ...engine } = createExecutableEngine(options);
  return engine;
}

export function createExecutableEngine(options: EngineOptions): ExecutableEngine {
  const caches: EngineCore["caches"] = new EngineCaches(options.cache ?? MANY_RENDERS, CACHE_WEIGHTS);
  const core: EngineCore = {
    host: options.host,
    registry: options.registry ?? BLOCKS,
    caches,
    content: new ContentHtml(caches.contentHtml),
    templateKeys: new WeakMap(),
  };
  return {
    version: ENGINE_VERSION,
    registry: core.registry,
    render: async (template, renderOptions) => {
      const parts = await renderParts(core, template, renderOptions);
      const { target, templateId, text, warnings } = parts;
      return { output: outputOf(parts), target, templateId, ...(text === undefined ? {} : { text }), warnings };
    },
    renderParts: (template, renderOptions) => renderParts(core, template, renderOptions),
    renderFromLayout: (layout, template, renderOptions) => renderFromLayout(core, layout, template, renderOptions),
    keyTemplate: (template, key) => keyTemplate(core, template, key),
    prepare: (template, prepareOptions = {}) => prepare(core, template, prepareOptions.limits),
    validate: (template, options) => validate(core, template, options),
    inspect: (template) => inspect(core, template),
    explainVisibility: (template, context) => explainVisibility(core, template, context),
    checkBlocks: (template) => checkBlocks(core, template),
    clearCaches: () => caches.clear(),
  };
}
