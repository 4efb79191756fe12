/** One validation problem, in the FastAPI/pydantic shape the clients already understand. */
export interface Issue {
  loc: string[];
  msg: string;
  type: string;
  /** The offending value, as pydantic gives it (text shortened; large objects left out). */
  input?: unknown;
  /** How to fix a common mistake (http/hints.ts). */
  hint?: string;
}

/** Every error code the service answers with (spec/errors.md says what each means). */
export const ERROR_CODES = [
  "BAD_REQUEST",
  "INVALID_API_KEY",
  "FORBIDDEN",
  "NOT_FOUND",
  "TEMPLATE_NOT_FOUND",
  "KEY_NOT_FOUND",
  "KEY_REVOKED",
  "TEMPLATE_EXISTS",
  "LAST_ADMIN_KEY",
  "KEY_HAS_NO_TARGETS",
  "TEMPLATE_CHANGED",
  "METHOD_NOT_ALLOWED",
  "NOT_IMPLEMENTED",
  "REQUEST_TIMEOUT",
  "HEADERS_TOO_LARGE",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RENDER_ERROR",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "UNAVAILABLE",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** The same text as `message`, for clients written against RFC 9457-style `detail`. */
  detail: string;
  issues?: Issue[];
}

/** An error whose status, code and message are safe to show to the caller as they are. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issue[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, detail: this.message };
    return this.issues === undefined ? body : { ...body, issues: this.issues };
  }
}

/**
 * Every 422 uses the seed's code RENDER_ERROR: the seed defines 422 as "request body invalid or the
 * render pipeline failed", and the clients map any 422 to that one code.
 */
export function validationError(issues: Issue[], message = "Request validation failed"): ApiError {
  return new ApiError(422, "RENDER_ERROR", message, issues);
}

export const invalidApiKey = (message: string): ApiError =>
  new ApiError(401, "INVALID_API_KEY", message, undefined, { "www-authenticate": 'Bearer realm="mailrender"' });

export const templateNotFound = (id: string): ApiError => new ApiError(404, "TEMPLATE_NOT_FOUND", `Template '${id}' does not exist`);

export const templateChanged = (id: string): ApiError =>
  new ApiError(412, "TEMPLATE_CHANGED", `Template '${id}' changed since you read it: read it again, or replace it without If-Match to overwrite`);

export const keyNotFound = (id: string): ApiError => new ApiError(404, "KEY_NOT_FOUND", `API key '${id}' does not exist`);
