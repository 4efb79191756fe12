import type { ValidationIssue } from "@mailrender/engine";

/**
 * The codes a MailrenderError carries: the service's codes for 401/403/404/422, NETWORK_ERROR and
 * TIMEOUT when no answer came (status 0), UNKNOWN for any other status (429, 5xx, ...).
 */
export type ErrorCode = "INVALID_API_KEY" | "FORBIDDEN" | "TEMPLATE_NOT_FOUND" | "RENDER_ERROR" | "NETWORK_ERROR" | "TIMEOUT" | "UNKNOWN";

/** The one error type of the client. `status` is the HTTP status, or 0 when there was no answer. */
export class MailrenderError extends Error {
  override readonly name = "MailrenderError";
  readonly code: ErrorCode;
  readonly status: number;
  /** Validation issues (`{loc, msg, type}`) for RENDER_ERROR; empty otherwise. */
  readonly issues: readonly ValidationIssue[];

  constructor(code: ErrorCode, status: number, message: string, issues: readonly ValidationIssue[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = status;
    this.issues = issues;
  }
}

/** The code for an HTTP error status, as the service spec maps them. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return "INVALID_API_KEY";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "TEMPLATE_NOT_FOUND";
    case 422:
      return "RENDER_ERROR";
    default:
      return "UNKNOWN";
  }
}

/** The exact wording the service uses for a target outside the key's scope, so both paths read alike. */
export function forbiddenTarget(keyTargets: readonly string[], requested: string): MailrenderError {
  return new MailrenderError("FORBIDDEN", 403, `API key is limited to targets [${keyTargets.join(", ")}]; requested '${requested}'`);
}

/** A bad argument to a render call: shaped like the service's 422 for a bad request body. */
export function invalidRequest(issues: readonly ValidationIssue[]): MailrenderError {
  const described = issues.map((i) => `${i.loc.join(".") || "(root)"}: ${i.msg}`).join("; ");
  return new MailrenderError("RENDER_ERROR", 422, `Invalid render request: ${described}`, issues);
}

/**
 * An outage rather than an answer: no connection, a timeout, 429 or a 5xx. Only these let an expired
 * cached copy be used (stale-on-error); a 401/403/404 must stop a revoked key or a deleted template.
 */
export function isOutage(error: MailrenderError): boolean {
  return error.code === "NETWORK_ERROR" || error.code === "TIMEOUT" || error.status === 429 || error.status >= 500;
}

/**
 * Whether a failed fetch may fall back to the expired cached copy: only for an outage, and only when
 * the cached scope allows the target for this key (a scope verdict, see scope.ts).
 */
export function mayServeStale(error: MailrenderError, verdict: "allowed" | "forbidden" | "unknown"): boolean {
  return isOutage(error) && verdict === "allowed";
}
