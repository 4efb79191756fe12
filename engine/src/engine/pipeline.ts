/**
 * template JSON → parse (cached by content) → visible set (per recipient) → target source with slot
 * tokens (cached by template, target, minify and visible set) → substitution (per recipient).
 * A repeated render of an unchanged template therefore pays no MJML compile and no re-parse.
 */

import { describeIssues, RenderError, type RenderWarning } from "../base/diagnostics.js";
import type { DynamicData, RenderLimits, RenderOptions, RenderResult, RenderTarget } from "../base/types.js";
import { RENDER_TARGETS } from "../base/types.js";
import { isVisible, normalizeContext } from "../data/visibility.js";
import { countNodes, resolveLimits, tooManyNodes } from "../document/limits.js";
import type { Shown, Template } from "../document/model.js";
import { type ParseResult, parseTemplate } from "../document/parse.js";
import { Emitter } from "../markup/emitter.js";
import { type CompiledOutput, compileOutput, joinOutput, lookupIn, substitute } from "../markup/substitute.js";
import { compileMjmlToHtml } from "../mjml-to-html/index.js";
import { DocumentContext } from "../targets/context.js";
import { removeHtmlWaste } from "../targets/html-waste.js";
import { minifyJsx, minifyMarkup } from "../targets/minify.js";
import { renderMjmlDocument } from "../targets/mjml.js";
import { renderReactEmailDocument } from "../targets/react-email.js";
import { LruCache } from "./lru.js";
import { checkOutputSize, plainTextWithin } from "./output-bound.js";
import { type EngineRuntime, LIBRARY_RUNTIME } from "./runtime.js";

/** A parse and the template's node count, which later renders check against their own limit. */
interface ParsedTemplate {
  readonly result: ParseResult;
  readonly nodes: number;
  /** The template's JSON length: what it weighs in the cache. */
  readonly chars?: number;
}

// Bounded by size as well as count (src/base/caches.ts): 32 Mi code units of template JSON, 64 Mi of compiled output.
const parsedTemplates = new LruCache<string, ParsedTemplate>(64, 32 * 1024 * 1024, (parsed) => parsed.chars ?? 0);
const compiledOutputs = new LruCache<string, CompiledOutput>(512, 64 * 1024 * 1024, (compiled) =>
  compiled.parts.reduce((units, part) => units + part.length, 0),
);

/** node:crypto on first use only, so that it stays out of the binary's startup snapshot (above). */
function sha1Base64(text: string): string {
  const crypto = process.getBuiltinModule("node:crypto");
  return crypto.createHash("sha1").update(text).digest("base64");
}

/** The template's JSON text (its cache identity); a value JSON cannot carry is a template error. */
function jsonText(json: unknown): string {
  try {
    return JSON.stringify(json) ?? "undefined";
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RenderError(`Invalid template: not representable as JSON (${reason})`, [
      { loc: [], msg: `Input should be JSON data: ${reason}`, type: "json_invalid" },
    ]);
  }
}

/** Parses a template within the node limit; over it, a RenderError before any parsing. */
function parseWithin(json: unknown, maxNodes: number): ParsedTemplate {
  const { count, over } = countNodes(json, maxNodes);
  if (over !== undefined) throw tooManyNodes(over, maxNodes);
  return { result: parseTemplate(json), nodes: count };
}

/**
 * Parses a template once per distinct content (its node count is checked on every render); without
 * `cacheRenders`, every time, and the key is "" (nothing is cached under it).
 */
function parseCached(json: unknown, maxNodes: number, runtime: EngineRuntime): { result: ParseResult; key: string } {
  // Off only in the binary's one-shot mode, whose template comes from JSON.parse: no jsonText check needed.
  if (!runtime.cacheRenders) return { result: parseWithin(json, maxNodes).result, key: "" };
  // Too many rows alone: refused before the document is hashed (a 600 KB one takes milliseconds).
  const rows = (json as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows) && rows.length > maxNodes) parseWithin(json, maxNodes);
  const text = jsonText(json);
  const key = sha1Base64(text);
  let parsed = parsedTemplates.get(key);
  if (parsed === undefined || parsed.nodes > maxNodes) {
    parsed = { ...parseWithin(json, maxNodes), chars: text.length };
    parsedTemplates.set(key, parsed);
  }
  return { result: parsed.result, key };
}

/** Whether each conditional node is shown, in document order: what a recipient sees. */
function visibleSet(template: Template, data: DynamicData | undefined): boolean[] {
  if (template.conditions.length === 0) return [];
  const shown: boolean[] = [];
  const context = normalizeContext(data?.context);
  for (const { rules, slot } of template.conditions) shown[slot] = isVisible(rules, context);
  return shown;
}

/** The cache key of a visible set: one character per conditional node. */
function visibleSetKey(shown: readonly boolean[]): string {
  let key = "";
  for (const visible of shown) key += visible ? "1" : "0";
  return key;
}

function shownIn(visible: readonly boolean[]): Shown {
  return (node) => !node.condition || visible[node.condition.slot] === true;
}

async function compileTarget(template: Template, target: RenderTarget, minify: boolean, visible: readonly boolean[]): Promise<CompiledOutput> {
  const shown = shownIn(visible);
  const out = new Emitter(target === "react-email" ? "jsx" : "markup");
  const doc = new DocumentContext(template, out, shown);
  if (target === "react-email") {
    const source = renderReactEmailDocument(doc);
    return compileOutput(minify ? minifyJsx(source) : source, out.slots, "jsx");
  }
  const mjml = renderMjmlDocument(doc);
  if (target === "mjml") return compileOutput(minify ? minifyMarkup(mjml) : mjml, out.slots, "markup");
  const html = removeHtmlWaste(compileMjml(mjml));
  return compileOutput(minify ? minifyMarkup(html) : html, out.slots, "markup");
}

/**
 * Compiles our own MJML to HTML with the engine's port of mjml (src/mjml-to-html): the same HTML
 * mjml 5 makes of it, without loading mjml. A failure here is an engine bug, reported as a
 * RENDER_ERROR without internals.
 */
function compileMjml(mjml: string): string {
  try {
    return compileMjmlToHtml(mjml);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new RenderError(`MJML compilation failed: ${message}`, [{ loc: [], msg: message, type: "mjml_error" }]);
  }
}

const PREPARED = Symbol("mailrender.preparedTemplate");

/**
 * A template read once: parsed, validated and keyed. Rendering it skips even the hash of its JSON,
 * which is most of a cached render's cost for a 30 KB template. Later changes to the JSON object it
 * was made from have no effect on it.
 */
export interface PreparedTemplate {
  readonly [PREPARED]: { readonly key: string; readonly result: ParseResult };
}

/** `limits.maxNodes` is checked here, once: a prepared template is not re-counted when rendered. */
export function prepareTemplate(json: unknown, options: { readonly limits?: RenderLimits | undefined } = {}): PreparedTemplate {
  return prepareWith(json, options.limits, LIBRARY_RUNTIME);
}

/** `prepareTemplate` with a given runtime (src/engine/runtime.ts): the executable's engine port. */
export function prepareWith(json: unknown, limits: RenderLimits | undefined, runtime: EngineRuntime): PreparedTemplate {
  if (isPrepared(json)) return json;
  return Object.freeze({ [PREPARED]: readTemplate(json, resolveLimits(limits), runtime) });
}

function isPrepared(value: unknown): value is PreparedTemplate {
  return typeof value === "object" && value !== null && PREPARED in value;
}

/** A template given as JSON or prepared: its parse result and cache key. Over the node limit, a RenderError. */
export function readTemplate(
  json: unknown,
  limits: { readonly maxNodes: number },
  runtime: EngineRuntime = LIBRARY_RUNTIME,
): { result: ParseResult; key: string } {
  return isPrepared(json) ? json[PREPARED] : parseCached(json, limits.maxNodes, runtime);
}

function requireTemplate(
  json: unknown,
  limits: { readonly maxNodes: number },
  runtime: EngineRuntime,
): { template: Template; warnings: RenderWarning[]; key: string } {
  const { result, key } = readTemplate(json, limits, runtime);
  if (!result.template) throw new RenderError(`Invalid template: ${describeIssues(result.issues)}`, result.issues);
  return { template: result.template, warnings: result.warnings, key };
}

/** A render before its output is assembled: the compiled output and the recipient's values. */
export interface RenderedParts {
  readonly target: RenderTarget;
  readonly templateId: string;
  readonly warnings: readonly RenderWarning[];
  readonly compiled: CompiledOutput;
  readonly values: readonly string[];
  /** With `plainText` only. */
  readonly text?: string;
}

export async function renderParts(json: unknown, options: RenderOptions, runtime: EngineRuntime = LIBRARY_RUNTIME): Promise<RenderedParts> {
  // `json` is the template JSON or a PreparedTemplate.
  const target = options?.target;
  if (!RENDER_TARGETS.includes(target)) {
    throw new RenderError(`Unknown target ${JSON.stringify(target)}: expected one of ${RENDER_TARGETS.join(", ")}`, [
      { loc: ["target"], msg: `Input should be ${RENDER_TARGETS.map((t) => `'${t}'`).join(", ")}`, type: "literal_error" },
    ]);
  }
  const minify = options.minify ?? true;
  const limits = resolveLimits(options.limits);
  const { template, warnings, key } = requireTemplate(json, limits, runtime);
  const visible = visibleSet(template, options.dynamicData);
  // A template prepared without caching has no key: never cached, whoever renders it.
  const cacheKey = runtime.cacheRenders && key !== "" ? `${key}|${target}|${minify ? 1 : 0}|${visibleSetKey(visible)}` : undefined;
  let compiled = cacheKey === undefined ? undefined : compiledOutputs.get(cacheKey);
  if (!compiled) {
    compiled = await compileTarget(template, target, minify, visible);
    if (cacheKey !== undefined) compiledOutputs.set(cacheKey, compiled);
  }
  const substitution = substitute(compiled, options.dynamicData);
  if (options.strict && substitution.missing.length > 0) {
    throw new RenderError(
      `Missing merge tags: ${substitution.missing.join(", ")}`,
      substitution.missing.map((name) => ({
        loc: ["dynamic_data", "merge_tags", name],
        msg: `Merge tag "${name}" has no value and no default`,
        type: "missing_merge_tag",
      })),
    );
  }
  // Before any value is escaped or joined: an output over the limit is refused here (output-bound.ts).
  checkOutputSize(compiled, substitution, limits.maxOutputBytes);
  const text = options.plainText === true ? plainTextWithin(template, shownIn(visible), lookupIn(options.dynamicData), limits.maxOutputBytes) : undefined;
  return {
    target,
    templateId: template.id,
    ...(text === undefined ? {} : { text }),
    warnings: [...warnings, ...substitution.warnings],
    compiled,
    values: substitution.values(),
  };
}

export async function render(json: unknown, options: RenderOptions): Promise<RenderResult> {
  const { compiled, values, target, templateId, text, warnings } = await renderParts(json, options);
  return { output: joinOutput(compiled, values), target, templateId, ...(text === undefined ? {} : { text }), warnings };
}
