/** Checks a template without rendering it for anyone: every problem is reported, with its path. */
import { RenderError, type RenderWarning, type ValidationIssue } from "../base/diagnostics.js";
import type { RenderLimits } from "../base/types.js";
import type { Finding } from "../document/checks/index.js";
import { resolveLimits } from "../document/limits.js";
import { type CheckOptions, templateFindings } from "./checks.js";
import { type EngineCore, readTemplate } from "./pipeline.js";

export interface ValidateOptions extends CheckOptions {
  readonly limits?: RenderLimits | undefined;
  /** Warnings fail the checks too: `passed` is false when there is any (default false). */
  readonly strict?: boolean | undefined;
}

export interface ValidationResult {
  /** Whether the template can be rendered. */
  readonly valid: boolean;
  /** Errors: the template cannot be rendered. */
  readonly issues: readonly ValidationIssue[];
  /** Problems that do not stop a render (unknown block types, dropped spacers). */
  readonly warnings: readonly RenderWarning[];
  /** What the template checks found (spec/checks.md), in document order. */
  readonly findings: readonly Finding[];
  /** Valid, without an `error` finding, and with `strict` without a `warning` either. */
  readonly passed: boolean;
}

/** The limits alone, as `validateTemplate` took them before it took options (still accepted). */
function isLimits(value: ValidateOptions | RenderLimits | undefined): value is RenderLimits {
  return value !== undefined && Object.keys(value).length > 0 && Object.keys(value).every((key) => key === "maxNodes" || key === "maxOutputBytes");
}

/** Whether findings pass: no error, and with `strict` no warning. */
export function passes(findings: readonly Finding[], strict: boolean | undefined): boolean {
  return !findings.some((f) => f.severity === "error" || (strict === true && f.severity === "warning"));
}

export function validate(core: EngineCore, json: unknown, given?: ValidateOptions | RenderLimits): ValidationResult {
  const options: ValidateOptions = isLimits(given) ? { limits: given } : (given ?? {});
  try {
    const { result } = readTemplate(core, json, resolveLimits(options.limits));
    const findings = templateFindings(core, json, result, options);
    const valid = result.template !== undefined;
    return { valid, issues: result.issues, warnings: result.warnings, findings, passed: valid && passes(findings, options.strict) };
  } catch (error) {
    if (error instanceof RenderError) return { valid: false, issues: error.issues, warnings: [], findings: [], passed: false };
    throw error;
  }
}
