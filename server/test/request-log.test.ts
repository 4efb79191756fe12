import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { loggerOptions } from "../src/app.js";
import { type RequestLine, requestLineText } from "../src/http/request-log.js";

/**
 * A request's line is written as text rather than through pino (http/request-log.ts); it must be
 * the very line pino writes for it with the service's options, byte for byte.
 */
describe("the request line", () => {
  const TIME = 1_764_400_000_123;
  /** What pino writes for `child({ reqId }).info(line, msg)`, its clock fixed at TIME. */
  function pinoLine(reqId: string, line: RequestLine, msg: string): string {
    let out = "";
    // Fastify hands pino the options' `stream` as its destination.
    const capture = {
      write(text: string) {
        out += text;
      },
    };
    const { stream, ...options } = loggerOptions({ logLevel: "info" }, capture);
    const logger = pino({ ...options, timestamp: () => `,"time":${TIME}` }, stream);
    logger.child({ reqId }).info(line, msg);
    return out;
  }

  const lines: [string, RequestLine, string][] = [
    [
      "req-1",
      {
        method: "GET",
        url: "/v1/sdk/template/7d0c8f5e-0000-4000-8000-000000000000?target=html",
        statusCode: 200,
        responseTime: 0.12345678901234,
        remoteAddress: "127.0.0.1",
        userAgent: "mailrender-js/2.0 (node 20)",
      },
      "request completed",
    ],
    [
      "req-zz",
      { method: "POST", url: "/api/v1/templates", statusCode: 201, responseTime: 12, remoteAddress: "::1", userAgent: undefined },
      "request completed",
    ],
    // What a client may put in its user agent and URL: quotes, backslashes, control and Latin-1 characters.
    [
      "req-2",
      {
        method: "GET",
        url: '/healthz?q="a\\b"&x=\u00e9',
        statusCode: 404,
        responseTime: 3.5,
        remoteAddress: "203.0.113.7",
        userAgent: 'tool "x"\\ \u0001\u001f\u007f\u00ff ' + "long ".repeat(40),
      },
      "request completed",
    ],
    // Aborted: no status, no time, the address gone with the connection.
    [
      "req-3",
      { method: "PUT", url: "/api/v1/templates/x", statusCode: undefined, responseTime: undefined, remoteAddress: undefined, userAgent: "probe" },
      "request aborted",
    ],
  ];

  it.each(lines)("%s: written as pino writes it", (reqId, line, msg) => {
    const text = requestLineText(reqId, line, msg, TIME);
    expect(text).toBe(pinoLine(reqId, line, msg));
    expect(text.endsWith("}\n")).toBe(true);
  });
});
