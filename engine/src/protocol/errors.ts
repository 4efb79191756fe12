/**
 * Error codes and exit codes of the protocol. One table so the envelope, the exit status and the
 * generated JSON Schema cannot disagree.
 */

export interface Issue {
  readonly loc: readonly string[];
  readonly msg: string;
  readonly type: string;
}

/** Exit status of a one-shot run and of the human CLI. */
export const EXIT = {
  /** Rendered (or the command succeeded). */
  OK: 0,
  /** The request was well formed but the engine could not render it (invalid template, strict mode, engine fault). */
  RENDER_FAILED: 1,
  /** The request itself was unusable (not JSON, wrong shape, too large, unknown template_ref), or bad CLI usage / closed stdout. */
  BAD_REQUEST: 2,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Every `error.code` an envelope can carry, with the exit status a one-shot run ends with. */
export const ERROR_CODES = {
  /** The template failed validation or could not be rendered; `issues` say where. */
  RENDER_ERROR: EXIT.RENDER_FAILED,
  /** An unexpected fault inside the engine (a bug); the message is for the bug report. */
  INTERNAL_ERROR: EXIT.RENDER_FAILED,
  /** The bytes are not UTF-8 or not JSON. */
  INVALID_JSON: EXIT.BAD_REQUEST,
  /** The request is larger than MAX_REQUEST_BYTES. */
  REQUEST_TOO_LARGE: EXIT.BAD_REQUEST,
  /** JSON of the wrong shape (missing or unknown keys, unknown target, nesting too deep); `issues` say where. */
  BAD_REQUEST: EXIT.BAD_REQUEST,
  /** `template_ref` names no template this process holds: resend the request with the full template. */
  TEMPLATE_REF_UNKNOWN: EXIT.BAD_REQUEST,
} as const satisfies Record<string, ExitCode>;
export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** A failure the protocol layer reports as an error envelope (never thrown out of the handler). */
export class ProtocolError extends Error {
  readonly code: ErrorCode;
  readonly issues: readonly Issue[];

  constructor(code: ErrorCode, message: string, issues: readonly Issue[] = []) {
    super(message);
    this.name = "ProtocolError";
    this.code = code;
    this.issues = issues;
  }
}
