import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";
import type { FastifyServerFactory } from "fastify";
import { cachedUsableKey, mayRender } from "../auth/authenticate.js";
import type { RateLimiter } from "../auth/rate-limit.js";
import type { CachedLookups } from "../cache/lookups.js";
import { loggedUserAgent, type RequestLog } from "../http/request-log.js";
import { templateAnswer } from "./sdk-template.js";

const PATH = "/v1/sdk/template/";
const TARGET_QUERY = "target=";

export interface HotPathContext {
  readonly lookups: CachedLookups;
  readonly limiter: RateLimiter;
  /** Undefined when the log is off (tests). */
  readonly requestLog: RequestLog | undefined;
  readonly nextRequestId: () => string;
  /** What Fastify's `request.ip` would say (http/client-address.ts). */
  readonly clientAddress: (request: IncomingMessage) => string | undefined;
  readonly lifecycle: { readonly closing: boolean };
}

/**
 * GET /v1/sdk/template/{id}, the clients' hot path, answered before Fastify routes the request when
 * memory holds all it needs: the key and the template in the lookup cache, the key usable and within
 * its rate limit, no query but `?target=` naming a target the key may render. Returns false, having
 * done nothing, for every other request: Fastify's route then answers it as the contract says (a
 * cache miss from the store, a refusal with its error). What this answers is what that route
 * answers, from the same pieces: the key's checks (cachedUsableKey), the limiter, the answer's
 * status, headers and body (templateAnswer), the request's log line (RequestLog); the server tests
 * compare the two byte for byte.
 *
 * Why: with everything cached, Fastify's own work for a request (its request and reply objects, the
 * route's hooks and validations, a child logger) cost more than the route's; answered here, the route
 * serves about a third more requests a second idle, a quarter more under load (bench/RESULTS.md). A
 * server shutting down leaves every request to Fastify, which adds `Connection: close`.
 */
export function sdkTemplateHotPath(context: HotPathContext): (request: IncomingMessage, response: ServerResponse) => boolean {
  const { lookups, limiter, requestLog, nextRequestId, clientAddress, lifecycle } = context;
  return (request, response) => {
    const url = request.url;
    if (request.method !== "GET" || url === undefined || !url.startsWith(PATH) || lifecycle.closing) return false;
    const query = url.indexOf("?", PATH.length);
    const id = url.slice(PATH.length, query < 0 ? undefined : query);
    const start = performance.now();
    const key = cachedUsableKey(request.headers.authorization, lookups, Date.now());
    if (key === undefined) return false;
    if (query >= 0) {
      const target = url.slice(query + 1);
      if (!target.startsWith(TARGET_QUERY) || !mayRender(key, target.slice(TARGET_QUERY.length))) return false;
    }
    // Only a checked id is ever cached (the route validates it before it looks it up): one that is
    // malformed, percent-encoded or followed by more path finds nothing here.
    const template = lookups.cachedTemplate(id);
    if (template == null || !limiter.admits(key.id, key.role)) return false;
    limiter.hit(key.id, key.role);
    const { status, headers, body } = templateAnswer(key, template, request.headers["if-none-match"]);
    response.writeHead(status, headers);
    response.end(body);
    if (requestLog !== undefined) {
      const reqId = nextRequestId();
      response.once("finish", () => {
        requestLog.write(
          reqId,
          {
            method: "GET",
            // Nothing to redact: the path and a cached (checked) id, at most `?target=` and a target's name.
            url,
            statusCode: status,
            responseTime: performance.now() - start,
            remoteAddress: clientAddress(request),
            userAgent: loggedUserAgent(request.headers["user-agent"]),
          },
          "request completed",
        );
      });
    }
    return true;
  };
}

interface FastifyTimeouts {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket?: number;
}

/**
 * The HTTP server Fastify would make itself (its lib/server.js: the `http` options, the keep-alive,
 * request and connection timeouts), with the hot path in front of Fastify's routing.
 */
export function serverWithHotPath(hotPath: (request: IncomingMessage, response: ServerResponse) => boolean): FastifyServerFactory {
  return (route, options) => {
    // Fastify hands its options with its defaults filled in.
    const { http = {}, keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket = 0 } = options as unknown as FastifyTimeouts;
    const server: Server = createServer(http, (request, response) => {
      let answered: boolean;
      try {
        answered = hotPath(request, response);
      } catch (error) {
        // A fault of the hot path's own never takes the server down: before the answer began, the
        // route answers instead (and reports what fails, as it would); after, the connection is cut.
        if (response.headersSent) response.destroy(error instanceof Error ? error : undefined);
        answered = response.headersSent;
      }
      if (!answered) route(request, response);
    });
    server.keepAliveTimeout = keepAliveTimeout;
    server.requestTimeout = requestTimeout;
    server.setTimeout(connectionTimeout);
    if (maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };
}
