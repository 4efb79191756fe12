import os from "node:os";
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
 * The other lines Fastify writes (a failed serializer, a broken stream) are kept.
 *
 * A completed or aborted request's line is written here as the text pino would write (`requestLineText`),
 * straight to the log's destination: once the SDK fetch was answered before Fastify, pino's
 * formatting of its line (its keys walked, its serializers and redaction looked up) was worth about
 * five points of a bare route's requests/s (bench/RESULTS.md). A failed request's line, which
 * carries the error, goes through pino and its error serializer.
 */
export class RequestLog extends LogController {
  readonly #enabled: boolean;

  /** `level`: the log's level, at `warn` and above no request line is built; `destination`: where pino writes (logging.ts). */
  constructor(
    level: string,
    private readonly destination: { write(line: string): void },
  ) {
    super();
    this.#enabled = (levels.values[level] ?? 0) <= levels.values["info"]!;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error != null) reply.log.error({ ...requestLine(request, reply), err: error }, "request errored");
    else this.write(request.id, requestLine(request, reply), "request completed");
  }

  /** The onRequestAbort hook: the client closed the connection before the answer was sent. */
  readonly requestAborted = (request: FastifyRequest, done: () => void): void => {
    this.write(request.id, requestLine(request, undefined), "request aborted");
    done();
  };

  /** A request's line at `info`, unless the log's level is above it. */
  write(reqId: string, line: RequestLine, msg: string): void {
    if (this.#enabled) this.destination.write(requestLineText(reqId, line, msg));
  }
}

/** What pino writes of every line after its level and time: its `base`, the process id and host name. */
const BASE = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())}`;

/**
 * The line pino writes for `logger.child({ reqId }).info(line, msg)` with the service's options
 * (test/request-log.test.ts compares the two): the level, time and base first, the bindings, the
 * line's fields in order (an undefined one left out), the message last. Strings as JSON.stringify
 * writes them, which is how pino writes strings that hold no lone surrogate; a request's URL and
 * headers are read as Latin-1 and hold none.
 */
export function requestLineText(reqId: string, line: RequestLine, msg: string, time: number = Date.now()): string {
  let text = `{"level":30,"time":${time}${BASE},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(line.method)},"url":${JSON.stringify(line.url)}`;
  if (line.statusCode !== undefined) text += `,"statusCode":${line.statusCode}`;
  if (line.responseTime !== undefined) text += `,"responseTime":${line.responseTime}`;
  if (line.remoteAddress !== undefined) text += `,"remoteAddress":${JSON.stringify(line.remoteAddress)}`;
  if (line.userAgent !== undefined) text += `,"userAgent":${JSON.stringify(line.userAgent)}`;
  return `${text},"msg":${JSON.stringify(msg)}}\n`;
}

function requestLine(request: FastifyRequest, reply: FastifyReply | undefined): RequestLine {
  return {
    method: request.method,
    url: redactUrl(request.url),
    statusCode: reply?.statusCode,
    responseTime: reply?.elapsedTime,
    remoteAddress: request.ip,
    userAgent: loggedUserAgent(request.headers["user-agent"]),
  };
}

/** A request's User-Agent as its line shows it: redacted, or absent (left out of the line) when it sent none. */
export function loggedUserAgent(header: string | undefined): string | undefined {
  return header === undefined ? undefined : redactText(header);
}
