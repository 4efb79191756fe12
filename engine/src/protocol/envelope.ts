/** Builds the two envelope shapes; every response goes through here so versions are never missing. */
import type { RenderResult } from "../base/types.js";
import type { Finding } from "../document/checks/index.js";
import { PROTOCOL_VERSION } from "./constants.js";
import type { ErrorCode, Issue } from "./errors.js";
import type { LayoutRef } from "./layouts.js";
import type { ErrorResponse, OkLayoutResponse, OkResponse, SavedLayoutStatus } from "./response-schema.js";

export type RequestId = string | number;

/** What an ok response carries besides the render, when the request asked for it. */
export interface OkExtras {
  /** The template checks' findings (`options.checks`). */
  readonly findings?: readonly Finding[] | undefined;
  /** What became of the request's saved layout, and the layout to keep (spec/README.md, "Saved layouts"). */
  readonly savedLayout?: { readonly status: SavedLayoutStatus; readonly text: string | undefined } | undefined;
}

export function okEnvelope(result: RenderResult, engineVersion: string, id: RequestId | undefined, extras: OkExtras = {}): OkResponse {
  return {
    ...(id === undefined ? {} : { id }),
    ok: true,
    output: result.output,
    ...okFields(result, engineVersion, extras),
  };
}

export function okLayoutEnvelope(
  result: RenderResult,
  layout: LayoutRef,
  values: readonly string[],
  engineVersion: string,
  id: RequestId | undefined,
  extras: OkExtras = {},
): OkLayoutResponse {
  return {
    ...(id === undefined ? {} : { id }),
    ok: true,
    layout: layout.parts === undefined ? { id: layout.id } : { id: layout.id, parts: [...layout.parts] },
    values: [...values],
    ...okFields(result, engineVersion, extras),
  };
}

function okFields(result: RenderResult, engineVersion: string, { findings, savedLayout }: OkExtras) {
  return {
    ...(result.text === undefined ? {} : { text: result.text }),
    target: result.target,
    template_id: result.templateId,
    warnings: result.warnings.map((w) => ({ code: w.code, message: w.message, path: [...w.path] })),
    ...(findings === undefined
      ? {}
      : {
          findings: findings.map((f) => ({
            severity: f.severity,
            code: f.code,
            path: [...f.path],
            value: f.value,
            message: f.message,
            hint: f.hint,
            ...(f.target === undefined ? {} : { target: f.target }),
          })),
        }),
    ...(savedLayout === undefined
      ? {}
      : { saved_layout_status: savedLayout.status, ...(savedLayout.text === undefined ? {} : { saved_layout: savedLayout.text }) }),
    engine_version: engineVersion,
    protocol_version: PROTOCOL_VERSION as typeof PROTOCOL_VERSION,
  };
}

/**
 * The ok envelope as wire bytes — byte for byte `JSON.stringify(okEnvelope(...))` — with the output
 * spliced in from pre-encoded pieces, so a 60 KB output is neither re-escaped nor re-encoded per render.
 */
export function okEnvelopeWire(
  result: RenderResult,
  jsonOutput: readonly Uint8Array[],
  engineVersion: string,
  id: RequestId | undefined,
  encodeUtf8: (text: string) => Uint8Array,
  extras: OkExtras = {},
): Uint8Array[] {
  const head = `{${id === undefined ? "" : `"id":${JSON.stringify(id)},`}"ok":true,"output":"`;
  const tail = `",${JSON.stringify(okFields(result, engineVersion, extras)).slice(1)}`;
  return [encodeUtf8(head), ...jsonOutput, encodeUtf8(tail)];
}

export function errorEnvelope(code: ErrorCode, message: string, issues: readonly Issue[], engineVersion: string, id: RequestId | undefined): ErrorResponse {
  return {
    ...(id === undefined ? {} : { id }),
    ok: false,
    error: { code, message, issues: issues.map((i) => ({ loc: [...i.loc], msg: i.msg, type: i.type })) },
    engine_version: engineVersion,
    protocol_version: PROTOCOL_VERSION,
  };
}
