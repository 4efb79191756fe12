import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { levels } from "pino";
import { redactText, redactUrl } from "./redact.js";

/** What the log says of one answered request (besides the `reqId`, `time` and `msg` every line has). */
export interface RequestLine {
  method: string;
  /** Credentials removed by name and shape (redact.ts). */
  url: string;
  /** Absent when the client went away before the answer (`request aborted`). */
  statusCode: number | undefined;
  /** Milliseconds from the request's arrival to the end of the answer; absent like `statusCode`. */
  responseTime: number | undefined;
  /**
   * The client's address: the connection's peer, or from X-Forwarded-For behind a trusted proxy.
   * Absent from most aborted requests' lines: the address goes with the closed connection.
   */
  remoteAddress: string | undefined;
  /** Absent when the request had no User-Agent. */
  userAgent: string | undefined;
}

/**
 * One log line per request, written when it has been answered (`request completed`, or `request
 * errored` with the error when the answer failed) or when its client went away first (`request
 * aborted`, from an onRequestAbort hook), instead of Fastify's two (`incoming request` with the
 * whole headers object, then `request completed`), which cost more than the SDK route's own work.
 * The line is a small plain object, so the logger has no headers to walk or redact; the other lines
 * Fastify writes (a failed serializer, a broken stream) are kept.
 */
export class RequestLog extends LogController {
  readonly #enabled: boolean;

  /** `level`: the log's level; at `warn` and above no request line is built. */
  constructor(level: string) {
    super();
    this.#enabled = (levels.values[level] ?? 0) <= levels.values["info"]!;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error != null) reply.log.error({ ...requestLine(request, reply), err: error }, "request errored");
    else if (this.#enabled) reply.log.info(requestLine(request, reply), "request completed");
  }

  /** The onRequestAbort hook: the client closed the connection before the answer was sent. */
  readonly requestAborted = (request: FastifyRequest, done: () => void): void => {
    if (this.#enabled) request.log.info(requestLine(request, undefined), "request aborted");
    done();
  };
}

function requestLine(request: FastifyRequest, reply: FastifyReply | undefined): RequestLine {
  const userAgent = request.headers["user-agent"];
  return {
    method: request.method,
    url: redactUrl(request.url),
    statusCode: reply?.statusCode,
    responseTime: reply?.elapsedTime,
    remoteAddress: request.ip,
    userAgent: userAgent === undefined ? undefined : redactText(userAgent), // pino leaves undefined out
  };
}
