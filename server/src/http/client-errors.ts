import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";

/**
 * Requests Node's HTTP parser refuses never reach Fastify's handlers; they are answered here, on the
 * raw socket, with the same `{code, message, detail}` body as every other error, then closed.
 */
function parserError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): ApiError {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(431, "HEADERS_TOO_LARGE", "Request headers are larger than the server accepts");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError(408, "REQUEST_TIMEOUT", "The request was not received completely in time");
    case "HPE_INVALID_METHOD":
      // llhttp says "invalid method" for any request line that does not start with a method it knows,
      // garbage and TLS handshakes included: only a well-formed request with an unknown method is 501.
      return isRequestLine(err.rawPacket)
        ? new ApiError(501, "NOT_IMPLEMENTED", "Unknown HTTP method")
        : new ApiError(400, "BAD_REQUEST", "Malformed HTTP request line");
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return new ApiError(400, "BAD_REQUEST", "Invalid Transfer-Encoding, or Transfer-Encoding sent together with Content-Length");
    default:
      return new ApiError(400, "BAD_REQUEST", "Malformed HTTP request");
  }
}

/** `method SP request-target SP HTTP-version` (RFC 9112), the method a token (RFC 9110). */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [\x21-\x7e]+ HTTP\/\d\.\d\r?$/;
const METHOD_THEN_SPACE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [\x21-\x7e]*$/;

/** Whether the bytes the parser refused start with a well-formed request line (or its start, when the line is not complete yet). */
function isRequestLine(packet: Buffer | undefined): boolean {
  if (packet === undefined) return false;
  const text = packet.subarray(0, 8_192).toString("latin1");
  const end = text.indexOf("\n");
  return end < 0 ? METHOD_THEN_SPACE.test(text) : REQUEST_LINE.test(text.slice(0, end));
}

/** A complete HTTP/1.1 error response that closes the connection. */
export function rawErrorResponse(error: ApiError): string {
  const body = JSON.stringify(error.body());
  const headers: Record<string, string> = {
    ...error.headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}\r\n${lines.join("")}\r\n${body}`;
}

/** Fastify's `clientErrorHandler`: answer what can be answered, drop what cannot. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inProgress = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === "ECONNRESET" || !socket.writable || inProgress) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(parserError(err)));
}

/** The service is not a proxy: CONNECT gets a 405 instead of a silently closed socket. */
export function refuseConnect(app: FastifyInstance): void {
  app.server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    const allow = "GET, HEAD, POST, PUT, DELETE";
    socket.end(rawErrorResponse(new ApiError(405, "METHOD_NOT_ALLOWED", "CONNECT is not supported: this is not a proxy", undefined, { allow })));
  });
}
