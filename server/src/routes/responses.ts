import { ErrorSchema } from "../schemas.js";

const DESCRIPTIONS: Record<number, string> = {
  400: "Bad request",
  401: "Missing, malformed, unknown, revoked or expired API key (`INVALID_API_KEY`)",
  403: "The key lacks the scope or role for this request (`FORBIDDEN`)",
  404: "Not found",
  409: "Conflict with the resource's state",
  413: "Body larger than the configured limit (`PAYLOAD_TOO_LARGE`)",
  415: "Body is not JSON (`UNSUPPORTED_MEDIA_TYPE`)",
  422: "Validation failed; `issues` says where (`RENDER_ERROR`)",
  429: "Per-key rate limit exceeded; see `Retry-After` (`RATE_LIMITED`)",
  500: "Internal error (`INTERNAL_ERROR`)",
  503: "Database unavailable (`UNAVAILABLE`)",
};

type JsonResponse = { description: string; content: { "application/json": { schema: typeof ErrorSchema } } };

/** The error responses of a route, all with the one error body, for the OpenAPI document and serialisation. */
export function errors(...codes: number[]): Record<number, JsonResponse> {
  const out: Record<number, JsonResponse> = {};
  for (const code of [...codes, 500, 503]) {
    out[code] = { description: DESCRIPTIONS[code] ?? "Error", content: { "application/json": { schema: ErrorSchema } } };
  }
  return out;
}

export const SECURED = [{ bearerAuth: [] }];
