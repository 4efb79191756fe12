/** Builds the two envelope shapes; every response goes through here so versions are never missing. */
import type { RenderResult } from "../base/types.js";
import type { Finding } from "../document/checks/index.js";
import { PROTOCOL_VERSION } from "./constants.js";
import type { ErrorCode, Issue } from "./errors.js";
import type { LayoutRef } from "./layouts.js";
import type { ErrorResponse, OkLayoutResponse, OkResponse } from "./response-schema.js";

export type RequestId = string | number;

/** The template checks' findings, when the request asked for them (`options.checks`). */
export type Findings = readonly Finding[] | undefined;

export function okEnvelope(result: RenderResult, engineVersion: string, id: RequestId | undefined, findings?: Findings): OkResponse {
  return {
    ...(id === undefined ? {} : { id }),
    ok: true,
    output: result.output,
    ...okFields(result, engineVersion, findings),
  };
}

export function okLayoutEnvelope(
  result: RenderResult,
  layout: LayoutRef,
  values: readonly string[],
  engineVersion: string,
  id: RequestId | undefined,
  findings?: Findings,
): OkLayoutResponse {
  return {
    ...(id === undefined ? {} : { id }),
    ok: true,
    layout: layout.parts === undefined ? { id: layout.id } : { id: layout.id, parts: [...layout.parts] },
    values: [...values],
    ...okFields(result, engineVersion, findings),
  };
}

function okFields(result: RenderResult, engineVersion: string, findings: Findings) {
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
  findings?: Findings,
): Uint8Array[] {
  const head = `{${id === undefined ? "" : `"id":${JSON.stringify(id)},`}"ok":true,"output":"`;
  const tail = `",${JSON.stringify(okFields(result, engineVersion, findings)).slice(1)}`;
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
