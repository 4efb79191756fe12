/**
 * template JSON → parse (cached by content) → visible set (per recipient) → target source with slot
 * tokens (cached by template, target, minify and visible set) → substitution (per recipient).
 * A repeated render of an unchanged template therefore pays no MJML compile and no re-parse.
 */
import { describeIssues, RenderError, type RenderWarning } from "../diagnostics.js";
import { isVisible, normalizeContext } from "../data/visibility.js";
import { minifyJsx, minifyMarkup } from "../minify.js";
import type { Template } from "../template/model.js";
import { parseTemplate, type ParseResult } from "../template/parse.js";
import { DocumentContext } from "../targets/context.js";
import { renderMjmlDocument } from "../targets/mjml.js";
import { compileMjmlToHtml } from "../mjml-to-html/index.js";
import { renderReactEmailDocument } from "../targets/react-email.js";
import { removeHtmlWaste } from "../targets/html-waste.js";
import type { DynamicData, RenderOptions, RenderResult, RenderTarget } from "../types.js";
import { RENDER_TARGETS } from "../types.js";
import { Emitter } from "./emitter.js";
import { LruCache } from "./lru.js";
import { compileOutput, joinOutput, substitute, type CompiledOutput } from "./substitute.js";

const parsedTemplates = new LruCache<string, ParseResult>(64);
const compiledOutputs = new LruCache<string, CompiledOutput>(512);

/**
 * Whether renders are cached (parsed templates by content, compiled outputs by variant). The
 * binary's one-shot mode renders once and turns them off (src/cli.ts): a cache no request can hit
 * would cost it the template's hash, and node:crypto, which the hash would load into the startup
 * snapshot, adds ~7 ms to every launch (measured: engine/README.md).
 */
export const renderCaching: { enabled: boolean } = { enabled: true };

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
    throw new RenderError(`Invalid template: not representable as JSON (${reason})`, [{ loc: [], msg: `Input should be JSON data: ${reason}`, type: "json_invalid" }]);
  }
}

/** Parses a template once per distinct content. */
export function parseCached(json: unknown): { result: ParseResult; key: string } {
  // Off only in the binary's one-shot mode, whose template comes from JSON.parse: no jsonText check needed.
  if (!renderCaching.enabled) return { result: parseTemplate(json), key: "" };
  const key = sha1Base64(jsonText(json));
  let result = parsedTemplates.get(key);
  if (!result) {
    result = parseTemplate(json);
    parsedTemplates.set(key, result);
  }
  return { result, key };
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

async function compileTarget(template: Template, target: RenderTarget, minify: boolean, visible: readonly boolean[]): Promise<CompiledOutput> {
  const shown = (node: { readonly condition: { readonly slot: number } | undefined }) => !node.condition || visible[node.condition.slot] === true;
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

export function prepareTemplate(json: unknown): PreparedTemplate {
  if (isPrepared(json)) return json;
  return Object.freeze({ [PREPARED]: parseCached(json) });
}

function isPrepared(value: unknown): value is PreparedTemplate {
  return typeof value === "object" && value !== null && PREPARED in value;
}

/** A template given as JSON or prepared: its parse result and cache key. */
export function readTemplate(json: unknown): { result: ParseResult; key: string } {
  return isPrepared(json) ? json[PREPARED] : parseCached(json);
}

export function requireTemplate(json: unknown): { template: Template; warnings: RenderWarning[]; key: string } {
  const { result, key } = readTemplate(json);
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
}

export async function renderParts(json: unknown, options: RenderOptions): Promise<RenderedParts> {
  // `json` is the template JSON or a PreparedTemplate.
  const target = options?.target;
  if (!RENDER_TARGETS.includes(target)) {
    throw new RenderError(`Unknown target ${JSON.stringify(target)}: expected one of ${RENDER_TARGETS.join(", ")}`, [
      { loc: ["target"], msg: `Input should be ${RENDER_TARGETS.map((t) => `'${t}'`).join(", ")}`, type: "literal_error" },
    ]);
  }
  const minify = options.minify ?? true;
  const { template, warnings, key } = requireTemplate(json);
  const visible = visibleSet(template, options.dynamicData);
  const cacheKey = renderCaching.enabled ? `${key}|${target}|${minify ? 1 : 0}|${visibleSetKey(visible)}` : undefined;
  let compiled = cacheKey === undefined ? undefined : compiledOutputs.get(cacheKey);
  if (!compiled) {
    compiled = await compileTarget(template, target, minify, visible);
    if (cacheKey !== undefined) compiledOutputs.set(cacheKey, compiled);
  }
  const substitution = substitute(compiled, options.dynamicData);
  if (options.strict && substitution.missing.length > 0) {
    throw new RenderError(
      `Missing merge tags: ${substitution.missing.join(", ")}`,
      substitution.missing.map((name) => ({ loc: ["dynamic_data", "merge_tags", name], msg: `Merge tag "${name}" has no value and no default`, type: "missing_merge_tag" })),
    );
  }
  return { target, templateId: template.id, warnings: [...warnings, ...substitution.warnings], compiled, values: substitution.values };
}

export async function render(json: unknown, options: RenderOptions): Promise<RenderResult> {
  const { compiled, values, ...result } = await renderParts(json, options);
  return { output: joinOutput(compiled, values), ...result };
}
