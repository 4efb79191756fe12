import type { IncomingMessage } from "node:http";
import proxyAddr from "@fastify/proxy-addr";

/**
 * The client's address as Fastify's `request.ip` reads it, for a request answered before Fastify
 * (the SDK route's hot path): the connection's peer, or behind the proxies `MAILRENDER_TRUST_PROXY`
 * names, the first untrusted address from the right of X-Forwarded-For, trusted as Fastify trusts a
 * `trustProxy` string (its lib/request.js: the list split at commas, compiled by the same module).
 */
export function clientAddress(trustProxy: string | undefined): (request: IncomingMessage) => string | undefined {
  if (trustProxy === undefined) return (request) => request.socket.remoteAddress;
  const trusted = proxyAddr.compile(trustProxy.split(",").map((entry) => entry.trim()));
  return (request) => proxyAddr.all(request, trusted).at(-1);
}
