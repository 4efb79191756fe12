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

/** Where the request lines go: pino's stream, and the fields pino puts in each of its lines. */
export interface RequestLogOptions {
  /** The log's level; at `warn` and above no request line is written. */
  level: string;
  /** The stream the logger writes to; the request lines go there, in the same order as its own. */
  stream: { write(line: string): unknown };
  /** The logger's `base` (pid, hostname), which every one of its lines carries after `time`. */
  base: Record<string, string | number>;
}

const INFO = levels.values["info"] ?? 30;

/**
 * One log line per request, written when it has been answered (`request completed`, or `request
 * errored` with the error when the answer failed) or when its client went away first (`request
 * aborted`, from an onRequestAbort hook), instead of Fastify's two (`incoming request` with the
 * whole headers object, then `request completed`), which cost more than the SDK route's own work.
 *
 * The `completed` and `aborted` lines are written straight to the logger's stream, as the text pino
 * would make of them (same fields, same order): on the SDK route, pino's generic formatting of the
 * line cost more than everything else the line needs. They hold only the redacted values below,
 * so nothing in them is for pino's redaction. `request errored` (rare, with an error to serialize)
 * and the other lines Fastify writes (a failed serializer, a broken stream) still go through pino.
 */
export class RequestLog extends LogController {
  readonly #enabled: boolean;
  readonly #stream: RequestLogOptions["stream"];
  /** `,"pid":…,"hostname":…`: pino's text for its base fields. */
  readonly #base: string;

  constructor(options: RequestLogOptions) {
    super();
    this.#enabled = (levels.values[options.level] ?? 0) <= INFO;
    this.#stream = options.stream;
    this.#base = Object.entries(options.base)
      .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`)
      .join("");
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error != null) reply.log.error({ ...requestLine(request, reply), err: error }, "request errored");
    else if (this.#enabled) this.#write(request, reply, "request completed");
  }

  /** The onRequestAbort hook: the client closed the connection before the answer was sent. */
  readonly requestAborted = (request: FastifyRequest, done: () => void): void => {
    if (this.#enabled) this.#write(request, undefined, "request aborted");
    done();
  };

  /** The line pino's `info(requestLine(…), msg)` on the request's child logger would write. */
  #write(request: FastifyRequest, reply: FastifyReply | undefined, msg: string): void {
    const line = requestLine(request, reply);
    this.#stream.write(
      `{"level":${INFO},"time":${Date.now()}${this.#base},"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(line.method)}` +
        `,"url":${JSON.stringify(line.url)}` +
        (line.statusCode === undefined ? "" : `,"statusCode":${JSON.stringify(line.statusCode)}`) +
        (line.responseTime === undefined ? "" : `,"responseTime":${JSON.stringify(line.responseTime)}`) +
        (line.remoteAddress === undefined ? "" : `,"remoteAddress":${JSON.stringify(line.remoteAddress)}`) +
        (line.userAgent === undefined ? "" : `,"userAgent":${JSON.stringify(line.userAgent)}`) +
        `,"msg":${JSON.stringify(msg)}}\n`,
    );
  }
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
