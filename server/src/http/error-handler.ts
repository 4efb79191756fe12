import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, type ErrorBody, validationError } from "../errors.js";
import { isUnavailable } from "../store/unavailable.js";
import { RequestValidationError } from "./validation.js";

/** Fastify's own request errors we answer with a specific status; anything else is a 500. */
const FRAMEWORK_ERRORS: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError(413, "PAYLOAD_TOO_LARGE", "Request body is larger than the configured limit"),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported Content-Type; send 'Content-Type: application/json'"),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError(400, "BAD_REQUEST", "Content-Length does not match the body"),
  FST_ERR_CTP_INVALID_TYPE: () => new ApiError(400, "BAD_REQUEST", "Malformed Content-Type header"),
  FST_ERR_CTP_EMPTY_TYPE: () => new ApiError(400, "BAD_REQUEST", "Empty Content-Type header"),
  FST_ERR_BAD_URL: () => new ApiError(400, "BAD_REQUEST", "Malformed URL"),
  FST_ERR_ASYNC_CONSTRAINT: () => new ApiError(400, "BAD_REQUEST", "Bad request"),
};

/** The answer for a request no route matched (not-found.ts): 405 with `Allow` when the path exists, else 404. */
export type RouteMiss = (request: FastifyRequest) => ApiError;

/** Maps any error to the public `{code, message, issues?}` body; never exposes internals. */
export function toApiError(err: unknown, request: FastifyRequest, routeMiss?: RouteMiss): ApiError {
  if (err instanceof ApiError) return err;
  // No route matched, and Fastify failed before the not-found handler (e.g. a QUERY request without
  // Content-Type): the answer is still 404/405, not a parsing error about a route that does not exist.
  if (routeMiss !== undefined && request.is404) return routeMiss(request);
  if (err instanceof RequestValidationError) return validationError(err.issues);
  // Before the database's checks: a client that leaves mid-body fails the body's read with the
  // connection's ECONNRESET, the code a lost database connection has too. The onRequestAbort hook
  // logs it (`request aborted`); the answer has nobody to go to.
  if (clientLeft(err, request)) return new ApiError(400, "BAD_REQUEST", "The client closed the connection before its request arrived");
  if (isUnavailable(err)) {
    request.log.error({ err }, "database unavailable");
    return new ApiError(503, "UNAVAILABLE", "The service is temporarily unavailable; retry later", undefined, { "retry-after": "5" });
  }
  const code = (err as Partial<FastifyError>).code;
  const known = code === undefined ? undefined : FRAMEWORK_ERRORS[code];
  if (known !== undefined) return known();
  const status = (err as Partial<FastifyError>).statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError(400, "BAD_REQUEST", "Bad request");
  }
  request.log.error({ err }, "unhandled error");
  return new ApiError(500, "INTERNAL_ERROR", "Internal server error");
}

/** The error is the request stream's own: its connection closed before the body was read. */
function clientLeft(err: unknown, request: FastifyRequest): boolean {
  return err != null && request.raw.errored === err;
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  const body: ErrorBody = error.body();
  // Refused before its body arrived (e.g. 401): close afterwards, so a slow or endless body does not
  // keep the connection busy after the answer.
  if (!reply.request.raw.complete) reply.header("connection", "close");
  return reply.code(error.status).headers(error.headers).type("application/json; charset=utf-8").send(body);
}

export function registerErrorHandler(app: FastifyInstance, routeMiss?: RouteMiss): void {
  app.setErrorHandler((err, request, reply) => sendError(reply, toApiError(err, request, routeMiss)));
}
