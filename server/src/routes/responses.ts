import { ErrorSchema } from "../schemas.js";

/** A response header as the OpenAPI document describes it. */
export interface HeaderDoc {
  readonly description: string;
  readonly schema: { readonly type: "string" | "integer" };
}

/**
 * The headers a route sends, by status, for the OpenAPI document: a route schema's
 * `x-response-headers`, moved into the responses by `documentResponseHeaders`.
 */
export type ResponseHeaders = Readonly<Record<number, Readonly<Record<string, HeaderDoc>>>>;

declare module "fastify" {
  interface FastifySchema {
    "x-response-headers"?: ResponseHeaders;
  }
}

const text = (description: string): HeaderDoc => ({ description, schema: { type: "string" } });

export const HEADERS = {
  etag: text("The template's version (a strong ETag); `If-None-Match` with it answers 304 while it is current"),
  location: text("The URL of the created resource"),
  cacheControl: text("`private, no-cache`: a cache must revalidate (with `If-None-Match`) before reusing the copy"),
  keyTargets: text("The targets the calling key may render, comma-separated (`html,mjml,react-email` for `all`)"),
} as const;

/** Headers every answer with this status carries (added to each operation by `documentResponseHeaders`). */
const STATUS_HEADERS: ResponseHeaders = {
  401: { "WWW-Authenticate": text('`Bearer realm="mailrender"`') },
  429: { "Retry-After": { description: "Seconds until the key's rate-limit window ends", schema: { type: "integer" } } },
  503: {
    "Retry-After": {
      description: "Seconds to wait before retrying, when the condition is temporary (absent while the server shuts down)",
      schema: { type: "integer" },
    },
  },
};

/** The deprecation announcement on every answer of a deprecated operation (RFC 9745, RFC 8594). */
const DEPRECATED_HEADERS: Readonly<Record<string, HeaderDoc>> = {
  Deprecation: text("When the operation was deprecated, as `@<unix seconds>`"),
  Sunset: text("When the operation stops working (HTTP date)"),
  Link: text('Where to read about the replacement (`rel="deprecation"`)'),
};

type Operation = { deprecated?: boolean; "x-response-headers"?: ResponseHeaders; responses?: Record<string, { headers?: Record<string, unknown> }> };

/** Moves each operation's `x-response-headers` into its responses and adds the headers of error statuses and deprecation. */
export function documentResponseHeaders(paths: Record<string, Record<string, object>>): void {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations) as Operation[]) {
      const own = operation["x-response-headers"] ?? {};
      delete operation["x-response-headers"];
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const headers = { ...STATUS_HEADERS[Number(status)], ...own[Number(status)], ...(operation.deprecated && DEPRECATED_HEADERS) };
        if (Object.keys(headers).length > 0) response.headers = { ...response.headers, ...headers };
      }
    }
  }
}

const DESCRIPTIONS: Record<number, string> = {
  400: "Malformed request: URL, Content-Type or Content-Length (`BAD_REQUEST`)",
  401: "Missing, malformed, unknown, revoked or expired API key (`INVALID_API_KEY`)",
  403: "The key lacks the scope or role for this request (`FORBIDDEN`)",
  404: "Not found",
  409: "Conflict with the resource's state",
  412: "The template changed since the ETag in `If-Match` (`TEMPLATE_CHANGED`)",
  413: "Body larger than the configured limit (`PAYLOAD_TOO_LARGE`)",
  415: "Body is not JSON (`UNSUPPORTED_MEDIA_TYPE`)",
  422: "Validation failed; `issues` says where (`RENDER_ERROR`)",
  429: "Per-key rate limit exceeded; see `Retry-After` (`RATE_LIMITED`)",
  500: "Internal error (`INTERNAL_ERROR`)",
  503: "Database unavailable, too many renders waiting, or shutting down (`UNAVAILABLE`)",
};

type JsonResponse = { description: string; content: { "application/json": { schema: typeof ErrorSchema } } };

/**
 * The error responses of a route, all with the one error body, for the OpenAPI document and
 * serialisation. 400 (a malformed URL, header or body framing), 500 and 503 can answer any request.
 */
export function errors(...codes: number[]): Record<number, JsonResponse> {
  const out: Record<number, JsonResponse> = {};
  for (const code of [400, ...codes, 500, 503]) {
    out[code] = { description: DESCRIPTIONS[code] ?? "Error", content: { "application/json": { schema: ErrorSchema } } };
  }
  return out;
}

export const SECURED = [{ bearerAuth: [] }];
