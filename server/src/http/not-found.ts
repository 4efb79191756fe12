import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";
import { type RouteMiss, sendError } from "./error-handler.js";

/**
 * Fastify answers an unknown method on a known path with 404; HTTP says 405 with `Allow`. We keep a
 * table of route patterns (filled by the onRoute hook) to tell the two apart.
 */
export function registerNotFound(app: FastifyInstance): RouteMiss {
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  app.addHook("onRoute", (route) => {
    const source =
      "^" +
      route.url
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/:[^/]+/g, "[^/]+")
        .replace(/\*/g, ".*") +
      "/?$";
    let entry = routes.find((r) => r.pattern.source === source);
    if (entry === undefined) {
      entry = { pattern: new RegExp(source), methods: new Set() };
      routes.push(entry);
    }
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) entry.methods.add(m);
  });

  const miss: RouteMiss = (request) => {
    const path = request.url.split("?")[0] ?? "/";
    const allowed = new Set<string>();
    for (const r of routes) if (r.pattern.test(path)) for (const m of r.methods) allowed.add(m);
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(", ");
      return new ApiError(405, "METHOD_NOT_ALLOWED", `Method ${request.method} is not allowed here; allowed: ${allow}`, undefined, { allow });
    }
    return new ApiError(404, "NOT_FOUND", `No route for ${request.method} ${path}`);
  };
  app.setNotFoundHandler((request, reply) => sendError(reply, miss(request)));
  return miss;
}
