import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { type Bindings, type ChildLoggerOptions, levels } from "pino";
import { redactText, redactUrl } from "./redact.js";

/** What the log says of one answered request (besides the `reqId`, `time` and `msg` every line has). */
export interface RequestLine {
  /** Undefined when the logger that writes the line carries it in its bindings (pino leaves it out). */
  reqId: string | undefined;
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
  #lines: FastifyBaseLogger | undefined;

  /** `level`: the log's level; at `warn` and above no request line is built. */
  constructor(level: string) {
    super();
    this.#enabled = (levels.values[level] ?? 0) <= levels.values["info"]!;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error != null) this.#lineLogger(reply.log).error({ ...requestLine(request, reply), err: error }, "request errored");
    else if (this.#enabled) this.#lineLogger(reply.log).info(requestLine(request, reply), "request completed");
  }

  /** The onRequestAbort hook: the client closed the connection before the answer was sent. */
  readonly requestAborted = (request: FastifyRequest, done: () => void): void => {
    if (this.#enabled) this.#lineLogger(request.log).info(requestLine(request, undefined), "request aborted");
    done();
  };

  /**
   * What a request's line is written with when its logger is a lazy one: a child of the parent
   * without bindings, made once. Not the parent itself: pino makes children with `Object.create`
   * of their parent, and V8 keeps an object used as a prototype in a slower form, where pino's
   * reads of its symbol-keyed fields cost several thousand instructions more a line.
   */
  #lineLogger(log: FastifyBaseLogger): FastifyBaseLogger {
    if (!(log instanceof RequestLogger)) return log;
    this.#lines ??= log.parent.child({});
    return this.#lines;
  }
}

/**
 * A request's logger (Fastify's `childLoggerFactory`): pino's child logger, bound to the request's
 * `reqId`, made the first time something logs through it. Most requests log nothing but their
 * request line, which RequestLog writes through the parent with the `reqId` in its object — the
 * same JSON line, field for field — so they make no child: a child costs an object, its formatters
 * and its serialised bindings on every request. A route with its own log level or serializers gets
 * its child at once, and its request line through it.
 */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return options.level === undefined && options.serializers === undefined ? new RequestLogger(parent, bindings, options) : parent.child(bindings, options);
}

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    readonly parent: FastifyBaseLogger,
    readonly bindings: Bindings,
    readonly options: ChildLoggerOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  #log(level: Level, args: unknown[]): void {
    const logger = this.#logger;
    (logger[level] as (...args: unknown[]) => void).apply(logger, args);
  }

  get level(): string {
    return this.#logger.level;
  }
  set level(level: string) {
    this.#logger.level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
  fatal(...args: unknown[]): void {
    this.#log("fatal", args);
  }
  error(...args: unknown[]): void {
    this.#log("error", args);
  }
  warn(...args: unknown[]): void {
    this.#log("warn", args);
  }
  info(...args: unknown[]): void {
    this.#log("info", args);
  }
  debug(...args: unknown[]): void {
    this.#log("debug", args);
  }
  trace(...args: unknown[]): void {
    this.#log("trace", args);
  }
  silent(...args: unknown[]): void {
    this.#log("silent", args);
  }
}

function requestLine(request: FastifyRequest, reply: FastifyReply | undefined): RequestLine {
  const userAgent = request.headers["user-agent"];
  return {
    reqId: request.log instanceof RequestLogger ? request.id : undefined,
    method: request.method,
    url: redactUrl(request.url),
    statusCode: reply?.statusCode,
    responseTime: reply?.elapsedTime,
    remoteAddress: request.ip,
    userAgent: userAgent === undefined ? undefined : redactText(userAgent), // pino leaves undefined out
  };
}
