import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";

/**
 * Requests Node's HTTP parser refuses never reach Fastify's handlers; they are answered here, on the
 * raw socket, with the same `{code, message, detail}` body as every other error, then closed.
 */
function parserError(code: string | undefined): ApiError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(431, "HEADERS_TOO_LARGE", "Request headers are larger than the server accepts");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError(408, "REQUEST_TIMEOUT", "The request was not received completely in time");
    case "HPE_INVALID_METHOD":
      return new ApiError(501, "NOT_IMPLEMENTED", "Unknown HTTP method");
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return new ApiError(400, "BAD_REQUEST", "Invalid Transfer-Encoding, or Transfer-Encoding sent together with Content-Length");
    default:
      return new ApiError(400, "BAD_REQUEST", "Malformed HTTP request");
  }
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
  socket.end(rawErrorResponse(parserError(err.code)));
}

/** The service is not a proxy: CONNECT gets a 405 instead of a silently closed socket. */
export function refuseConnect(app: FastifyInstance): void {
  app.server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    const allow = "GET, HEAD, POST, PUT, DELETE";
    socket.end(rawErrorResponse(new ApiError(405, "METHOD_NOT_ALLOWED", "CONNECT is not supported: this is not a proxy", undefined, { allow })));
  });
}
