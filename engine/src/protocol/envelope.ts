/** Builds the two envelope shapes; every response goes through here so versions are never missing. */
import type { RenderResult } from "../base/types.js";
import { PROTOCOL_VERSION } from "./constants.js";
import type { ErrorCode, Issue } from "./errors.js";
import type { LayoutRef } from "./layouts.js";
import type { ErrorResponse, OkLayoutResponse, OkResponse } from "./response-schema.js";

export type RequestId = string | number;

export function okEnvelope(result: RenderResult, engineVersion: string, id: RequestId | undefined): OkResponse {
  return {
    ...(id === undefined ? {} : { id }),
    ok: true,
    output: result.output,
    ...okFields(result, engineVersion),
  };
}

export function okLayoutEnvelope(
  result: RenderResult,
  layout: LayoutRef,
  values: readonly string[],
  engineVersion: string,
  id: RequestId | undefined,
): OkLayoutResponse {
  return {
    ...(id === undefined ? {} : { id }),
    ok: true,
    layout: layout.parts === undefined ? { id: layout.id } : { id: layout.id, parts: [...layout.parts] },
    values: [...values],
    ...okFields(result, engineVersion),
  };
}

function okFields(result: RenderResult, engineVersion: string) {
  return {
    ...(result.text === undefined ? {} : { text: result.text }),
    target: result.target,
    template_id: result.templateId,
    warnings: result.warnings.map((w) => ({ code: w.code, message: w.message, path: [...w.path] })),
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
): Uint8Array[] {
  const head = `{${id === undefined ? "" : `"id":${JSON.stringify(id)},`}"ok":true,"output":"`;
  const tail = `",${JSON.stringify(okFields(result, engineVersion)).slice(1)}`;
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
