/**
 * template JSON → parse (cached by content) → visible set (per recipient) → target source with slot
 * tokens (cached by template, target, minify and visible set) → substitution (per recipient).
 * A repeated render of an unchanged template therefore pays no MJML compile and no re-parse.
 */

import { describeIssues, RenderError, type RenderWarning } from "../base/diagnostics.js";
import { jsonParts } from "../base/json-parts.js";
import type { DynamicData, RenderLimits, RenderOptions, RenderTarget } from "../base/types.js";
import { RENDER_TARGETS } from "../base/types.js";
import type { BlockRegistry } from "../blocks/registry.js";
import { isVisible, normalizeContext } from "../data/visibility.js";
import { countNodes, resolveLimits, tooManyNodes } from "../document/limits.js";
import type { Condition, Shown, Template } from "../document/model.js";
import { type ParseResult, parseTemplate } from "../document/parse.js";
import type { ContentHtml, ParsedContent } from "../markup/content.js";
import { Emitter } from "../markup/emitter.js";
import { type CompiledOutput, compileOutput, joinOutput, lookupIn, substitute } from "../markup/substitute.js";
import { type CompileHost, compileMjmlToHtmlParts } from "../mjml-to-html/index.js";
import { checkComponentSize } from "../targets/component/module.js";
import { componentOptionConflicts } from "../targets/component/options.js";
import { DocumentContext } from "../targets/context.js";
import { removeHtmlWaste } from "../targets/html-waste.js";
import { minifyJsx, minifyMarkup } from "../targets/minify.js";
import { renderMjmlDocument } from "../targets/mjml.js";
import { renderReactEmailDocument } from "../targets/react-email.js";
import type { CacheWeights, EngineCaches } from "./caches.js";
import type { EngineHost } from "./host.js";
import { checkOutputSize, plainTextWithin } from "./output-bound.js";

/** What a render of an output already compiled needs of its template: its id and its visibility rules. */
export interface TemplateOutline {
  readonly id: string;
  readonly conditions: readonly Condition[];
}

/**
 * A template as the template cache keeps it. Its whole parse (`result`) is kept once a second read
 * has needed it; a render keeps the outline alone. A parse is a graph of thousands of small objects
 * (~100 KB for the newsletter) that V8's collector works on for as long as it is kept: a new
 * template's render cost 5–8% more CPU with it kept (bench/RESULTS.md). A render whose compiled
 * output is cached needs only the outline; a later render that needs more (its plain text, a
 * visible set or a target not compiled yet) reads the template again, once, and keeps the parse
 * from then on.
 */
export interface ParsedTemplate {
  /** Undefined where the template is invalid: `result` then says why. */
  readonly outline: TemplateOutline | undefined;
  readonly warnings: readonly RenderWarning[];
  /** The template's node count, which later renders check against their own limit. */
  readonly nodes: number;
  /** The template's JSON length: what it weighs in the cache. */
  readonly chars: number;
  result: ParseResult | undefined;
}

/** A compiled output as the cache keeps it, with its static parts JSON-encoded once (evicted with it). */
export interface CompiledEntry {
  readonly compiled: CompiledOutput;
  jsonParts?: readonly Uint8Array[];
}

/** What a cached entry weighs: its template's JSON length, its compiled output's length. */
export const CACHE_WEIGHTS: CacheWeights<ParsedTemplate, CompiledEntry> = {
  template: (parsed) => parsed.chars,
  output: (entry) => entry.compiled.parts.reduce((units, part) => units + part.length, 0),
};

/** What an engine renders with: its host, its blocks, its caches. */
export interface EngineCore {
  readonly host: EngineHost;
  readonly registry: BlockRegistry;
  readonly caches: EngineCaches<ParsedTemplate, CompiledEntry, ParsedContent>;
  readonly content: ContentHtml;
  /**
   * Keys given to template objects by whoever read them from JSON bytes (`keyTemplate`): the host's
   * `digest` of the text they were parsed from, so the text is not built again to be hashed.
   */
  readonly templateKeys: WeakMap<object, TemplateKey>;
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
function parseWithin(core: EngineCore, json: unknown, maxNodes: number): { result: ParseResult; nodes: number } {
  const { count, over } = countNodes(json, maxNodes);
  if (over !== undefined) throw tooManyNodes(over, maxNodes);
  return { result: parseTemplate(json, core.registry, core.content), nodes: count };
}

/**
 * A template's cache entry and key (its node count checked on every read), the template parsed here
 * (`parsed`) when the cache had no entry for it, which is then kept: whole, or its outline alone
 * (`whole` false: see ParsedTemplate). When templates are not cached, parsed every time, with the
 * key "" (nothing is cached under it).
 */
function cachedRead(
  core: EngineCore,
  json: unknown,
  maxNodes: number,
  whole: boolean,
): { entry: ParsedTemplate; key: string; parsed: ParseResult | undefined } {
  // Off in the executable's one-shot mode, whose template comes from JSON.parse: no jsonText check needed.
  if (core.caches.policy.templates === 0) {
    const { result, nodes } = parseWithin(core, json, maxNodes);
    return { entry: cacheEntry(result, nodes, 0, whole), key: "", parsed: result };
  }
  // Too many rows alone: refused before the document is hashed (a 600 KB one takes milliseconds).
  const rows = (json as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows) && rows.length > maxNodes) parseWithin(core, json, maxNodes);
  const { key, chars } = keyOf(core, json);
  const entry = core.caches.templates.get(key);
  if (entry !== undefined && entry.nodes <= maxNodes) return { entry, key, parsed: undefined };
  const { result, nodes } = parseWithin(core, json, maxNodes);
  const kept = cacheEntry(result, nodes, chars, whole);
  core.caches.templates.set(key, kept);
  return { entry: kept, key, parsed: result };
}

/** An invalid template's parse is kept whole: it holds no template, only what is wrong. */
function cacheEntry(result: ParseResult, nodes: number, chars: number, whole: boolean): ParsedTemplate {
  const { template, warnings } = result;
  const outline = template && { id: template.id, conditions: template.conditions };
  return { outline, warnings, nodes, chars, result: whole || template === undefined ? result : undefined };
}

/** A template's whole parse, once per distinct content: read again where the cache kept only its outline. */
function parseCached(core: EngineCore, json: unknown, maxNodes: number): TemplateRead {
  const { entry, key, parsed } = cachedRead(core, json, maxNodes, true);
  return { result: wholeParse(core, json, maxNodes, entry, parsed), key, nodes: entry.nodes };
}

/**
 * The whole parse of the template `entry` is kept for: `parsed` where this read made it, else the
 * entry's, read again and kept on it where the entry held only the outline.
 */
function wholeParse(core: EngineCore, json: unknown, maxNodes: number, entry: ParsedTemplate, parsed: ParseResult | undefined): ParseResult {
  if (parsed !== undefined) return parsed;
  entry.result ??= parseWithin(core, json, maxNodes).result;
  return entry.result;
}

/** A template's cache key and its JSON length (what its parse weighs in the cache). */
export interface TemplateKey {
  readonly key: string;
  readonly chars: number;
}

/**
 * The key a template was given when read from bytes (`keyTemplate`), else the host's digest of its
 * JSON text: of the text's pieces where the host hashes pieces (the same digest, without the whole
 * text built: base/json-parts.ts).
 */
function keyOf(core: EngineCore, json: unknown): TemplateKey {
  const given = typeof json === "object" && json !== null ? core.templateKeys.get(json) : undefined;
  if (given !== undefined) return given;
  if (core.host.digestParts !== undefined) {
    const parts = jsonPartsOf(json);
    if (parts !== undefined) return { key: core.host.digestParts(parts), chars: lengthOf(parts) };
  }
  const text = jsonText(json);
  return { key: core.host.digest(text), chars: text.length };
}

/** `jsonParts`, or undefined where JSON.stringify fails on the template: the whole text's error says why. */
function jsonPartsOf(json: unknown): string[] | undefined {
  try {
    return jsonParts(json);
  } catch {
    return undefined;
  }
}

function lengthOf(parts: readonly string[]): number {
  let length = 0;
  for (const part of parts) length += part.length;
  return length;
}

/**
 * Gives a template object the key `digest` would give the JSON text it was parsed from (the host's
 * `requestTemplateDigest` of a request's bytes; `chars` at least that text's length): every later
 * read of the object in this engine — render, saved layout, `template_ref`, checks — uses it
 * instead of building and hashing the text.
 */
export function keyTemplate(core: EngineCore, template: object, key: TemplateKey): void {
  core.templateKeys.set(template, key);
}

/** A template read: its parse, its cache key ("" when not cached) and its node count. */
export interface TemplateRead {
  readonly result: ParseResult;
  readonly key: string;
  readonly nodes: number;
}

/** Whether each conditional node is shown, in document order: what a recipient sees. */
function visibleSet(template: { readonly conditions: readonly Condition[] }, data: DynamicData | undefined): boolean[] {
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

/** A target's source for a template and a visible set, slot tokens in place of merge tags (the template checks measure it too). */
export function compileTarget(core: EngineCore, template: Template, target: RenderTarget, minify: boolean, visible: readonly boolean[]): CompiledOutput {
  const shown = shownIn(visible);
  const out = new Emitter(target === "react-email" ? "jsx" : "markup");
  const doc = new DocumentContext(template, out, shown, core.content);
  if (target === "react-email") {
    const source = renderReactEmailDocument(doc);
    return compileOutput(minify ? minifyJsx(source) : source, out.slots, "jsx");
  }
  const mjml = renderMjmlDocument(doc);
  if (target === "mjml") return compileOutput(minify ? minifiedMarkup(core, mjml) : mjml, out.slots, "markup");
  return compileOutput(htmlWithoutWaste(core, compileMjml(mjml, core.host), minify), out.slots, "markup");
}

/** `removeHtmlWaste`, then `minifyMarkup` when `minify`, of the document `pieces` make: by the host where it does both itself. */
function htmlWithoutWaste(core: EngineCore, pieces: readonly string[], minify: boolean): string {
  const done = core.host.removeHtmlWaste?.(pieces, minify);
  if (done !== undefined) return done;
  const clean = removeHtmlWaste(pieces.join(""));
  return minify ? minifiedMarkup(core, clean) : clean;
}

/** `minifyMarkup`, by the host where it minifies the document itself. */
function minifiedMarkup(core: EngineCore, markup: string): string {
  return core.host.minifyMarkup?.(markup) ?? minifyMarkup(markup);
}

/**
 * A react-email component that takes the recipient's data as props: every node rendered, each
 * tag and rule set an expression (src/targets/component/). No slots: the output is the same for everyone.
 */
function compileComponent(core: EngineCore, template: Template, minify: boolean, maxNodes: number): CompiledOutput {
  checkComponentSize(template, maxNodes);
  const out = new Emitter("jsx");
  const doc = new DocumentContext(template, out, () => true, core.content);
  doc.deferVisibility = true;
  const source = renderReactEmailDocument(doc);
  return compileOutput(minify ? minifyJsx(source) : source, [], "jsx");
}

/**
 * Compiles our own MJML to HTML with the engine's port of mjml (src/mjml-to-html): the same HTML
 * mjml 5 makes of it, as the pieces whose concatenation it is, without loading mjml. A failure here
 * is an engine bug, reported as a RENDER_ERROR without internals.
 */
function compileMjml(mjml: string, host: CompileHost): string[] {
  try {
    return compileMjmlToHtmlParts(mjml, host);
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
  readonly [PREPARED]: TemplateRead;
}

/** `limits.maxNodes` is checked here, once: a prepared template is not re-counted when rendered. */
export function prepare(core: EngineCore, json: unknown, limits: RenderLimits | undefined): PreparedTemplate {
  if (isPrepared(json)) return json;
  return Object.freeze({ [PREPARED]: readTemplate(core, json, resolveLimits(limits)) });
}

function isPrepared(value: unknown): value is PreparedTemplate {
  return typeof value === "object" && value !== null && PREPARED in value;
}

/** A template given as JSON or prepared: its parse result and cache key. Over the node limit, a RenderError. */
export function readTemplate(core: EngineCore, json: unknown, limits: { readonly maxNodes: number }): TemplateRead {
  return isPrepared(json) ? json[PREPARED] : parseCached(core, json, limits.maxNodes);
}

function invalid(result: ParseResult): never {
  throw new RenderError(`Invalid template: ${describeIssues(result.issues)}`, result.issues);
}

/** What a render reads of a valid template: its outline, and the whole template when it needs more. */
interface RenderRead {
  readonly outline: TemplateOutline;
  readonly warnings: readonly RenderWarning[];
  readonly key: string;
  readonly nodes: number;
  /** The whole template: the one at hand, or read again (not hashed again) where the cache kept only the outline. */
  template(): Template;
}

/**
 * readTemplate for a render, which keeps a new template's outline alone (ParsedTemplate), or whole
 * where each of its renders will need it (`whole`: its plain text); an invalid template throws.
 */
function readForRender(core: EngineCore, json: unknown, limits: { readonly maxNodes: number }, whole: boolean): RenderRead {
  if (isPrepared(json)) {
    const { result, key, nodes } = json[PREPARED];
    const template = result.template ?? invalid(result);
    return { outline: template, warnings: result.warnings, key, nodes, template: () => template };
  }
  const { entry, key, parsed } = cachedRead(core, json, limits.maxNodes, whole);
  if (entry.outline === undefined) invalid((parsed ?? entry.result) as ParseResult);
  return {
    outline: entry.outline,
    warnings: entry.warnings,
    key,
    nodes: entry.nodes,
    // Valid, as its outline says.
    template: () => wholeParse(core, json, limits.maxNodes, entry, parsed).template as Template,
  };
}

/**
 * What a render compiled, as a saved layout keeps it (src/protocol/saved-layout.ts): everything a
 * later render of the same template, target and minification needs before substitution. A layout
 * holds one compiled output per visible set (`visible`, one "0"/"1" per conditional node).
 */
export interface LayoutEntry {
  readonly templateId: string;
  readonly target: RenderTarget;
  readonly minify: boolean;
  /** The template's node count, checked against each render's `maxNodes`. */
  readonly nodes: number;
  /** What reading the template warned of (a render adds its substitution's). */
  readonly warnings: readonly RenderWarning[];
  readonly conditions: readonly Condition[];
  readonly visible: string;
  readonly compiled: CompiledOutput;
}

/** Compiled outputs of one template, target and minification, by visible set: a saved layout read back. */
export interface KnownLayout extends Omit<LayoutEntry, "visible" | "compiled"> {
  readonly outputs: ReadonlyMap<string, CompiledOutput>;
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
  /** What was compiled, to be saved (src/protocol/saved-layout.ts). */
  readonly layout: LayoutEntry;
  /** The output as the body of a JSON string, in UTF-8 pieces (the static ones encoded once per compiled output). */
  jsonOutput(): readonly Uint8Array[];
}

function checkTarget(target: RenderTarget): void {
  if (!RENDER_TARGETS.includes(target)) {
    throw new RenderError(`Unknown target ${JSON.stringify(target)}: expected one of ${RENDER_TARGETS.join(", ")}`, [
      { loc: ["target"], msg: `Input should be ${RENDER_TARGETS.map((t) => `'${t}'`).join(", ")}`, type: "literal_error" },
    ]);
  }
}

/** `json` is the template JSON or a PreparedTemplate. */
export async function renderParts(core: EngineCore, json: unknown, options: RenderOptions): Promise<RenderedParts> {
  const target = options?.target;
  checkTarget(target);
  const minify = options.minify ?? true;
  const component = options.componentProps === true;
  if (component) {
    const conflicts = componentOptionConflicts(options);
    if (conflicts.length > 0) throw new RenderError(`Invalid options: ${conflicts.map((issue) => issue.msg).join("; ")}`, conflicts);
  }
  const limits = resolveLimits(options.limits);
  const read = readForRender(core, json, limits, options.plainText === true);
  const { outline, warnings, key, nodes } = read;
  const visible = component ? [] : visibleSet(outline, options.dynamicData);
  const visibleKey = visibleSetKey(visible);
  // A template prepared without caching has no key: never cached, whoever renders it.
  const variant = component ? "component" : visibleKey;
  const cacheKey = core.caches.policy.outputs > 0 && key !== "" ? outputKey(key, target, minify, variant) : undefined;
  let entry = cacheKey === undefined ? undefined : core.caches.outputs.get(cacheKey);
  if (!entry) {
    entry = {
      compiled: component ? compileComponent(core, read.template(), minify, limits.maxNodes) : compileTarget(core, read.template(), target, minify, visible),
    };
    if (cacheKey !== undefined) core.caches.outputs.set(cacheKey, entry);
  }
  const layout: LayoutEntry = {
    templateId: outline.id,
    target,
    minify,
    nodes,
    warnings,
    conditions: outline.conditions,
    visible: visibleKey,
    compiled: entry.compiled,
  };
  const text =
    options.plainText === true
      ? () => plainTextWithin(read.template(), shownIn(visible), lookupIn(options.dynamicData), limits.maxOutputBytes, core.host.utf8Length)
      : undefined;
  return finishRender(core, layout, entry, options, limits.maxOutputBytes, text);
}

/** Where a compiled output is cached: its template's key, target, minification and visible set (or "component"). */
function outputKey(templateKey: string, target: RenderTarget, minify: boolean, variant: string): string {
  return `${templateKey}|${target}|${minify ? 1 : 0}|${variant}`;
}

/**
 * A render from a saved layout of `template` (its JSON or prepared; the caller has checked the layout
 * is this template's), without compiling or parsing: the cost of substitution alone. The layout's
 * outputs are adopted first (`adoptLayout`), whether or not they give this render. Undefined when the
 * layout cannot give it (another target or minification, plain text or a component asked, the
 * template over this render's node limit, or this recipient's visible set not compiled yet).
 */
export function renderFromLayout(core: EngineCore, known: KnownLayout, template: unknown, options: RenderOptions): RenderedParts | undefined {
  checkTarget(options?.target);
  const entries = adoptLayout(core, known, template);
  const limits = resolveLimits(options.limits);
  if (
    options.target !== known.target ||
    (options.minify ?? true) !== known.minify ||
    options.plainText === true ||
    options.componentProps === true ||
    known.nodes > limits.maxNodes
  )
    return undefined;
  const visibleKey = visibleSetKey(visibleSet(known, options.dynamicData));
  const entry = entries.get(visibleKey);
  if (entry === undefined) return undefined;
  return finishRender(core, { ...known, visible: visibleKey, compiled: entry.compiled }, entry, options, limits.maxOutputBytes, undefined);
}

/**
 * A saved layout's outputs as cache entries, by visible set. An engine that caches outputs keeps each
 * under the key its own compile of the template would use (an entry already there stays, with its
 * encoded parts), so its later renders of the template hit the cache as if it had compiled them; the
 * key comes from the template, never from the layout, so a layout answers for no other template.
 */
function adoptLayout(core: EngineCore, known: KnownLayout, template: unknown): Map<string, CompiledEntry> {
  const templateKey = core.caches.policy.outputs > 0 ? templateKeyOf(core, template) : "";
  const entries = new Map<string, CompiledEntry>();
  for (const [visible, compiled] of known.outputs) {
    if (templateKey === "") {
      entries.set(visible, { compiled });
      continue;
    }
    const key = outputKey(templateKey, known.target, known.minify, visible);
    let entry = core.caches.outputs.get(key);
    if (entry === undefined) {
      entry = { compiled };
      core.caches.outputs.set(key, entry);
    }
    entries.set(visible, entry);
  }
  return entries;
}

/** A template's cache key without parsing it, as `readTemplate` gives it ("" when templates are not cached). */
function templateKeyOf(core: EngineCore, json: unknown): string {
  if (isPrepared(json)) return json[PREPARED].key;
  return core.caches.policy.templates === 0 ? "" : keyOf(core, json).key;
}

/** Substitution, the strict and size checks, and the plain text when asked (`text`). */
function finishRender(
  core: EngineCore,
  layout: LayoutEntry,
  entry: CompiledEntry,
  options: RenderOptions,
  maxOutputBytes: number,
  plainText: (() => string) | undefined,
): RenderedParts {
  const { compiled } = layout;
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
  checkOutputSize(compiled, substitution, maxOutputBytes, core.host.utf8Length);
  const text = plainText?.();
  const values = substitution.values();
  return {
    target: layout.target,
    templateId: layout.templateId,
    ...(text === undefined ? {} : { text }),
    warnings: [...layout.warnings, ...substitution.warnings],
    compiled,
    values,
    layout,
    jsonOutput: () => jsonOutputPieces(core.host, entry, values),
  };
}

/**
 * The output as the body of a JSON string, in UTF-8 pieces. The static parts are encoded once per
 * compiled output and reused, so a long-lived engine process writes a large output without
 * re-escaping or re-encoding what does not change between recipients.
 */
function jsonOutputPieces(host: EngineHost, entry: CompiledEntry, values: readonly string[]): Uint8Array[] {
  const jsonBody = host.jsonStringUtf8 ?? ((text: string): Uint8Array => host.encodeUtf8(JSON.stringify(text).slice(1, -1)));
  entry.jsonParts ??= entry.compiled.parts.map(jsonBody);
  const parts = entry.jsonParts;
  const pieces: Uint8Array[] = [parts[0]!];
  for (let i = 0; i < values.length; i++) pieces.push(jsonBody(values[i]!), parts[i + 1]!);
  return pieces;
}

/** The output text of rendered parts. */
export function outputOf(parts: RenderedParts): string {
  return joinOutput(parts.compiled, parts.values);
}
