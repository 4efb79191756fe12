/**
 * One GET /v1/sdk/template/{id} attempt: conditional when a cached ETag exists, bounded by an
 * AbortController timeout that also covers reading the body. Every failure comes back as a
 * MailrenderError value (never thrown) so the retry loop can decide what to do with it.
 */
import type { RenderTarget, ValidationIssue } from "@mailrender/engine";
import { RENDER_TARGETS, TEMPLATE_PATH, USER_AGENT } from "../constants.js";
import { codeForStatus, MailrenderError } from "../errors.js";
import { type Attempt, parseRetryAfter } from "./retry.js";

export interface FetchSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeout: number;
  readonly fetch: typeof globalThis.fetch;
}

export interface FetchRequest {
  readonly templateId: string;
  readonly target: RenderTarget;
  readonly etag: string | null;
}

export type FetchOutcome =
  | { readonly kind: "ok"; readonly template: Record<string, unknown>; readonly etag: string | null; readonly keyTargets: RenderTarget[] | null }
  | { readonly kind: "not-modified"; readonly etag: string | null; readonly keyTargets: RenderTarget[] | null };

/** X-Key-Targets (`html,mjml`) as known targets; null when the header is absent. */
export function parseKeyTargets(header: string | null): RenderTarget[] | null {
  if (header === null) return null;
  const listed = header.split(",").map((t) => t.trim());
  return RENDER_TARGETS.filter((t) => listed.includes(t));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIssue(value: unknown): value is ValidationIssue {
  return isRecord(value) && Array.isArray(value["loc"]) && typeof value["msg"] === "string" && typeof value["type"] === "string";
}

/** The service's error body `{code, message, issues}` mapped to the client's codes by status. */
function errorFromResponse(status: number, text: string): MailrenderError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const message = isRecord(body) && typeof body["message"] === "string" ? body["message"] : `The service answered HTTP ${status}`;
  const issues =
    isRecord(body) && Array.isArray(body["issues"]) ? body["issues"].filter(isIssue).map((i) => ({ loc: i.loc.map(String), msg: i.msg, type: i.type })) : [];
  return new MailrenderError(codeForStatus(status), status, message, issues);
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause !== undefined && typeof cause.code === "string") return cause.code;
  if (cause !== undefined && typeof cause.message === "string") return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export async function fetchTemplateOnce(settings: FetchSettings, request: FetchRequest): Promise<Attempt<FetchOutcome>> {
  const url = `${settings.baseUrl}${TEMPLATE_PATH}${encodeURIComponent(request.templateId)}?target=${encodeURIComponent(request.target)}`;
  const headers: Record<string, string> = {
    authorization: `Bearer ${settings.apiKey}`,
    accept: "application/json",
    "user-agent": USER_AGENT,
  };
  if (request.etag !== null) headers["if-none-match"] = request.etag;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeout);
  const fail = (error: MailrenderError, retryAfterMs?: number): Attempt<FetchOutcome> => ({ ok: false, error, retryAfterMs });
  try {
    const fetchImpl = settings.fetch;
    const response = await fetchImpl(url, { method: "GET", headers, signal: controller.signal });
    const keyTargets = parseKeyTargets(response.headers.get("x-key-targets"));
    const etag = response.headers.get("etag");
    if (response.status === 304) {
      // A 304 has no body. Aborting drops the connection should the server still announce one
      // (a Content-Length on a 304), which would otherwise keep a socket, and the process, waiting.
      controller.abort();
      return { ok: true, value: { kind: "not-modified", etag, keyTargets } };
    }
    const text = await response.text();
    if (response.status === 200) {
      let template: unknown;
      try {
        template = JSON.parse(text);
      } catch {
        template = undefined;
      }
      if (!isRecord(template)) return fail(new MailrenderError("UNKNOWN", 200, "The service answered 200 with a body that is not a template JSON object"));
      return { ok: true, value: { kind: "ok", template, etag, keyTargets } };
    }
    return fail(errorFromResponse(response.status, text), parseRetryAfter(response.headers.get("retry-after")));
  } catch (error) {
    // Messages name the service address, never the key.
    if (controller.signal.aborted) {
      return fail(new MailrenderError("TIMEOUT", 0, `No answer from ${settings.baseUrl} within ${settings.timeout} ms`, [], { cause: error }));
    }
    return fail(new MailrenderError("NETWORK_ERROR", 0, `Could not reach ${settings.baseUrl}: ${describeCause(error)}`, [], { cause: error }));
  } finally {
    clearTimeout(timer);
  }
}
