/**
 * One request's bytes → one response envelope and the exit status it implies. Never throws: every
 * failure becomes an error envelope, so the one-shot and --serve loops only move bytes.
 */
import type * as z from "zod/mini";
import { RenderError } from "../base/diagnostics.js";
import type { DynamicData, RenderLimits, RenderOptions } from "../base/types.js";
import { REQUEST_ID_MAX_LENGTH } from "../protocol/constants.js";
import { decodeRequest } from "../protocol/decode.js";
import { errorEnvelope, type OkExtras, okEnvelope, okEnvelopeWire, okLayoutEnvelope, type RequestId } from "../protocol/envelope.js";
import { ERROR_CODES, EXIT, type ExitCode, type Issue, ProtocolError } from "../protocol/errors.js";
import { LayoutRegistry } from "../protocol/layouts.js";
import { wellFormedRequest } from "../protocol/read-request.js";
import type { Response } from "../protocol/response-schema.js";
import { decodeSavedLayout, encodeSavedLayout, type LayoutBinding } from "../protocol/saved-layout.js";
import { type RenderRequest, renderRequestSchema, toDynamicData } from "../protocol/schema.js";
import { componentOptionConflicts } from "../targets/component/options.js";
import type { EnginePort, EngineRender } from "./engine-port.js";
import type { MemoryPolicy } from "./memory.js";
import type { TemplateStore } from "./template-store.js";

export interface Handled {
  readonly response: Response;
  readonly exitCode: ExitCode;
  /** The response's wire bytes (no newline) when cheaper than `JSON.stringify(response)`; the same bytes. */
  readonly wire?: readonly Uint8Array[];
  /** Called once the response is written: frees what a large request left (memory.ts). */
  readonly written?: (() => void) | undefined;
}

export interface HandlerDeps {
  readonly engine: EnginePort;
  readonly store: TemplateStore;
  /** Where an engine bug's stack goes (stderr in the binary); stdout only ever gets envelopes. */
  readonly reportBug?: (error: unknown) => void;
  /** The process's memory: releases after large requests, the --max-memory ceiling (memory.ts). */
  readonly memory?: MemoryPolicy;
}

export type Handler = (bytes: Uint8Array) => Promise<Handled>;

export function createHandler(deps: HandlerDeps): Handler {
  const layouts = new LayoutRegistry();
  return async (bytes) => {
    let id: RequestId | undefined;
    try {
      const raw = decodeRequest(bytes, deps.engine.host);
      id = readableId(raw);
      const request = parseRequest(raw);
      keyFromBytes(request, bytes, deps.engine);
      // zod hands `template` through by reference: a kept template keeps its identity across requests.
      const asked = { maxNodes: request.options?.max_nodes, maxOutputBytes: request.options?.max_output_bytes };
      const limits = deps.memory?.limitsFor(asked) ?? asked;
      const template = resolveTemplate(request, bytes.byteLength, deps, limits);
      const dynamicData = request.dynamic_data === undefined ? undefined : toDynamicData(request.dynamic_data);
      const options = renderOptions(request, dynamicData, limits);
      const { result, savedLayout } = await renderWithSavedLayout(request, bytes, template, options, deps);
      // Checked after the render: a template that cannot render answers with its error alone.
      const findings = request.options?.checks
        ? deps.engine.validate(request.template, { targets: [request.target], dynamicData, limits }).findings
        : undefined;
      const extras: OkExtras = { findings, savedLayout };
      if (request.output_format === "layout") {
        const { layout, parts, values } = layoutOf(result);
        const ref = layouts.describe(layout, parts, request.layout_parts === true);
        const units = textUnits(values) + (ref.parts === undefined ? 0 : textUnits(parts));
        return { response: okLayoutEnvelope(result, ref, values, deps.engine.version, id, extras), exitCode: EXIT.OK, written: settle(bytes, units) };
      }
      const wire = result.jsonOutput ? okEnvelopeWire(result, result.jsonOutput(), deps.engine.version, id, deps.engine.host.encodeUtf8, extras) : undefined;
      const units = wire === undefined ? result.output.length : wire.reduce((sum, piece) => sum + piece.byteLength, 0);
      return { response: okEnvelope(result, deps.engine.version, id, extras), exitCode: EXIT.OK, ...(wire ? { wire } : {}), written: settle(bytes, units) };
    } catch (error) {
      return { ...failure(deps.memory?.refusal(error) ?? error, deps, id), written: settle(bytes, 0) };
    }
  };

  function settle(request: Uint8Array, outputUnits: number): (() => void) | undefined {
    const { memory } = deps;
    const requestBytes = request.byteLength;
    return memory === undefined ? undefined : () => memory.settle(requestBytes, outputUnits);
  }
}

/**
 * The render, from the request's saved layout when it is intact, this engine's, this template's and
 * holds this render; else from the template, and then a new layout when the request asked for one
 * (spec/README.md, "Saved layouts"). The request carries the template whenever it names either.
 */
async function renderWithSavedLayout(
  request: RenderRequest,
  bytes: Uint8Array,
  template: unknown,
  options: RenderOptions,
  { engine }: HandlerDeps,
): Promise<{ result: EngineRender; savedLayout: OkExtras["savedLayout"] }> {
  const { sha256, crc32 } = engine.host;
  // A component is one for every recipient: nothing to save per template beside it.
  if ((request.saved_layout === undefined && request.save_layout !== true) || sha256 === undefined || crc32 === undefined || options.componentProps === true) {
    return { result: await engine.render(template, options), savedLayout: undefined };
  }
  // The template's bytes as the request writes them, hashed where the host finds them (as a
  // long-lived process keys its templates): no JSON.stringify of the template, else its compact
  // JSON text (docs/design/saved-layouts.md).
  const templateSha256 = engine.host.requestTemplateDigest?.(bytes) ?? sha256(JSON.stringify(request.template));
  const binding: LayoutBinding = { engineVersion: engine.version, templateSha256 };
  const check = request.saved_layout === undefined ? undefined : decodeSavedLayout(request.saved_layout, binding, crc32);
  const known = check?.ok === true ? check.layout : undefined;
  const fromLayout = known === undefined ? undefined : engine.renderFromLayout?.(known, template, options);
  if (fromLayout !== undefined) return { result: fromLayout, savedLayout: { status: "used", text: undefined } };
  const result = await engine.render(template, options);
  const entry = request.save_layout === true ? result.compiledLayout : undefined;
  return {
    result,
    savedLayout: {
      status: known === undefined ? "ignored" : "extended",
      text: entry === undefined ? undefined : encodeSavedLayout(entry, known, binding, crc32),
    },
  };
}

function textUnits(texts: readonly string[]): number {
  let units = 0;
  for (const text of texts) units += text.length;
  return units;
}

/** An engine that cannot split its output gives it whole: a one-part layout, new each time. */
function layoutOf(result: EngineRender): { layout: object; parts: readonly string[]; values: readonly string[] } {
  return result.layout?.() ?? { layout: {}, parts: [result.output], values: [] };
}

function parseRequest(raw: unknown): RenderRequest {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ProtocolError("BAD_REQUEST", "The request must be a JSON object", [{ loc: [], msg: "Expected an object", type: "invalid_type" }]);
  }
  const request = wellFormedRequest(raw) ?? schemaParse(raw);
  if (request.options?.checks === true && request.template === undefined) {
    // A kept template is kept read, without its JSON: the checks read the JSON as written.
    throw new ProtocolError("BAD_REQUEST", "options.checks needs the template in the request: send it with its template_ref", [
      { loc: ["options", "checks"], msg: "Needs `template` in the same request", type: "checks_need_template" },
    ]);
  }
  return request;
}

/** A request the reader did not accept, judged by its schema: zod's issues are the error. */
function schemaParse(raw: unknown): RenderRequest {
  const parsed = renderRequestSchema().safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.flatMap(toIssues);
  throw new ProtocolError("BAD_REQUEST", `The request is malformed: ${summarise(issues)}`, issues);
}

/** A request's render options; a component's conflicts are the request's fault, named as it names them. */
function renderOptions(request: RenderRequest, dynamicData: DynamicData | undefined, limits: RenderLimits): RenderOptions {
  const options: RenderOptions = {
    target: request.target,
    dynamicData,
    minify: request.options?.minify,
    strict: request.options?.strict,
    limits,
    plainText: request.options?.plain_text,
    componentProps: request.options?.component_props,
  };
  const conflicts = options.componentProps === true ? componentOptionConflicts(options, WIRE_NAMES) : [];
  if (conflicts.length > 0) throw new ProtocolError("BAD_REQUEST", conflicts.map((issue) => issue.msg).join("; "), conflicts);
  return options;
}

const WIRE_NAMES = {
  self: "options.component_props",
  target: ["target"],
  dynamicData: ["dynamic_data"],
  strict: ["options", "strict"],
  plainText: ["options", "plain_text"],
} as const;

/**
 * The template's cache key from its bytes in the request, when the host can find it there: its JSON
 * text is then neither built nor hashed (docs/design/template-cache-key.md). The request's length
 * stands for the template's in the cache's weights (the template is most of it).
 */
function keyFromBytes(request: RenderRequest, bytes: Uint8Array, engine: EnginePort): void {
  const digestOf = engine.host.requestTemplateDigest;
  const { template } = request;
  if (digestOf === undefined || engine.keyTemplate === undefined || typeof template !== "object" || template === null) return;
  const key = digestOf(bytes);
  if (key !== undefined) engine.keyTemplate(template, { key, chars: bytes.byteLength });
}

function resolveTemplate(request: RenderRequest, requestBytes: number, { engine, store }: HandlerDeps, limits: RenderLimits): unknown {
  const ref = request.template_ref;
  if (request.template !== undefined) {
    if (ref === undefined) return request.template;
    // Kept prepared: later requests naming the ref skip parsing and even hashing the template.
    const prepared = engine.prepare(request.template, limits);
    store.set(ref, prepared, requestBytes);
    return prepared;
  }
  const kept = ref === undefined ? undefined : store.get(ref);
  if (kept === undefined) {
    throw new ProtocolError(
      "TEMPLATE_REF_UNKNOWN",
      `No template is kept under template_ref ${JSON.stringify(ref)}; send the request again with the full template`,
      [{ loc: ["template_ref"], msg: "Unknown template_ref", type: "template_ref_unknown" }],
    );
  }
  return kept;
}

function failure(error: unknown, deps: HandlerDeps, id: RequestId | undefined): Handled {
  const version = deps.engine.version;
  if (error instanceof ProtocolError) {
    return { response: errorEnvelope(error.code, error.message, error.issues, version, id), exitCode: ERROR_CODES[error.code] };
  }
  if (error instanceof RenderError) {
    return {
      response: errorEnvelope("RENDER_ERROR", error.message, error.issues, version, id),
      exitCode: ERROR_CODES.RENDER_ERROR,
    };
  }
  deps.reportBug?.(error);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    response: errorEnvelope("INTERNAL_ERROR", `The engine failed unexpectedly (${message})`, [], version, id),
    exitCode: ERROR_CODES.INTERNAL_ERROR,
  };
}

/** The request's id, if it has a usable one, so even a malformed request's error can be matched. */
function readableId(raw: unknown): RequestId | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const id = (raw as { id?: unknown }).id;
  if (typeof id === "string" && id.length <= REQUEST_ID_MAX_LENGTH) return id;
  if (typeof id === "number" && Number.isInteger(id)) return id;
  return undefined;
}

function toIssues(issue: z.core.$ZodIssue): Issue[] {
  const loc = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ loc: [...loc, key], msg: `Unknown key ${JSON.stringify(key)}`, type: "unrecognized_key" }));
  }
  return [{ loc, msg: issue.message, type: issue.code }];
}

function summarise(issues: readonly Issue[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.loc.join(".") || "(root)"}: ${i.msg}`)
    .join("; ");
}
