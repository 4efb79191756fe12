/**
 * Errors as data. A validation issue uses the `{loc, msg, type}` shape the service's 422 bodies use
 * (FastAPI/pydantic style), so an engine failure can be passed through unchanged. A warning is a
 * diagnostic that does not stop the render.
 */

export interface ValidationIssue {
  /** Path into the document, e.g. `["rows","0","columns","1","children","2","props","level"]`. */
  readonly loc: readonly string[];
  readonly msg: string;
  /** Machine-readable kind, e.g. `missing`, `string_type`, `literal_error`, `missing_merge_tag`. */
  readonly type: string;
}

export type WarningCode =
  | "UNKNOWN_BLOCK_TYPE"
  | "MISSING_MERGE_TAG"
  | "UNSAFE_URL"
  | "MALFORMED_MERGE_TAG_VALUE"
  | "UNSAFE_CONTENT"
  | "EMPTY_ROW_SPACER"
  | "MEANINGLESS_VISIBILITY_RULE"
  | "VISIBILITY_OPERATOR_ALIAS"
  | "VISIBILITY_SPELLING";

export interface RenderWarning {
  readonly code: WarningCode;
  readonly message: string;
  /** Path into the document when the warning is about a node, else empty. */
  readonly path: readonly string[];
}

/** The one error the engine throws for a template or a render it cannot complete. */
export class RenderError extends Error {
  readonly code = "RENDER_ERROR" as const;
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, issues: readonly ValidationIssue[] = []) {
    super(message);
    this.name = "RenderError";
    this.issues = issues;
  }
}

export function describeIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => `${issue.loc.join(".") || "(root)"}: ${issue.msg}`);
  const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : "";
  return shown.join("; ") + more;
}
