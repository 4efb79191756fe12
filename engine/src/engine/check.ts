/** The content checks of a template's blocks (document/checks/blocks.ts), for a template given as JSON. */
import { RenderError, type ValidationIssue } from "../base/diagnostics.js";
import { blockFindings } from "../document/checks/blocks.js";
import type { Finding } from "../document/checks/index.js";
import { DEFAULT_LIMITS } from "../document/limits.js";
import { type EngineCore, readTemplate } from "./pipeline.js";

export interface BlockCheckResult {
  /** Whether the template is valid: its blocks are checked only then. */
  readonly valid: boolean;
  /** Why it is not valid. */
  readonly issues: readonly ValidationIssue[];
  /** What the blocks' own checks found, in document order. */
  readonly findings: readonly Finding[];
}

export function checkBlocks(core: EngineCore, json: unknown): BlockCheckResult {
  try {
    const { result } = readTemplate(core, json, DEFAULT_LIMITS);
    if (!result.template) return { valid: false, issues: result.issues, findings: [] };
    return { valid: true, issues: [], findings: blockFindings(result.template) };
  } catch (error) {
    if (error instanceof RenderError) return { valid: false, issues: error.issues, findings: [] };
    throw error;
  }
}
