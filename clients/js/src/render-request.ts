/**
 * Checks the arguments of a render call. A bad one fails like the service's 422 for a bad request
 * body (RENDER_ERROR with issues), and unknown keys are refused: `dynamic_data` instead of
 * `dynamicData` must not render silently without the recipient's data.
 */
import type { DynamicData, RenderTarget, ValidationIssue } from "@mailrender/engine";
import { DEFAULT_TARGET, RENDER_TARGETS } from "./constants.js";
import { invalidRequest } from "./errors.js";
import type { RenderOptions } from "./types.js";

export interface RenderRequest {
  readonly templateId: string;
  readonly target: RenderTarget;
  readonly dynamicData: DynamicData | undefined;
  readonly minify: boolean | undefined;
  readonly strict: boolean | undefined;
  readonly plainText: boolean | undefined;
  readonly componentProps: boolean | undefined;
}

const KEYS = ["templateId", "target", "dynamicData", "minify", "strict", "plainText", "componentProps"] as const satisfies readonly (keyof RenderOptions)[];

function isTarget(value: unknown): value is RenderTarget {
  return RENDER_TARGETS.some((t) => t === value);
}

export function checkRenderRequest(options: unknown): RenderRequest {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw invalidRequest([{ loc: [], msg: "Input should be an object: { templateId, target, dynamicData }", type: "dict_type" }]);
  }
  const o = options as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(o)) {
    if (!(KEYS as readonly string[]).includes(key)) issues.push({ loc: [key], msg: "Extra inputs are not permitted", type: "extra_forbidden" });
  }
  const { templateId, target = DEFAULT_TARGET, dynamicData, minify, strict, plainText, componentProps } = o;
  if (templateId === undefined) issues.push({ loc: ["templateId"], msg: "Field required", type: "missing" });
  else if (typeof templateId !== "string" || templateId.trim() === "")
    issues.push({ loc: ["templateId"], msg: "Input should be a non-empty string", type: "string_type" });
  if (!isTarget(target)) issues.push({ loc: ["target"], msg: `Input should be ${RENDER_TARGETS.map((t) => `'${t}'`).join(", ")}`, type: "literal_error" });
  if (dynamicData !== undefined && (typeof dynamicData !== "object" || dynamicData === null || Array.isArray(dynamicData))) {
    issues.push({ loc: ["dynamicData"], msg: "Input should be an object: { merge_tags, context }", type: "dict_type" });
  }
  for (const [name, value] of [
    ["minify", minify],
    ["strict", strict],
    ["plainText", plainText],
    ["componentProps", componentProps],
  ] as const) {
    if (value !== undefined && typeof value !== "boolean") issues.push({ loc: [name], msg: "Input should be a valid boolean", type: "bool_type" });
  }
  if (issues.length > 0) throw invalidRequest(issues);
  return {
    templateId: templateId as string,
    target: target as RenderTarget,
    dynamicData: dynamicData as DynamicData | undefined,
    minify: minify as boolean | undefined,
    strict: strict as boolean | undefined,
    plainText: plainText as boolean | undefined,
    componentProps: componentProps as boolean | undefined,
  };
}
