import type { FastifyRequest } from "fastify";
import type { CachedLookups } from "../cache/lookups.js";
import type { ServerConfig } from "../config.js";
import { invalidApiKey } from "../errors.js";
import type { RenderPool } from "../render/pool.js";
import type { ApiKeyRecord, Store } from "../store/types.js";

/** What route plugins need; passed explicitly instead of decorating the instance. */
export interface RouteContext {
  config: ServerConfig;
  store: Store;
  lookups: CachedLookups;
  renderPool: RenderPool;
  /** Set when shutdown begins, so /readyz takes this instance out of the load balancer first. */
  lifecycle: { closing: boolean };
}

/** The key the auth hook attached; a route marked `auth: "key" | "admin"` always has one. */
export function currentKey(request: FastifyRequest): ApiKeyRecord {
  if (request.apiKey === null) throw invalidApiKey("Missing Authorization header");
  return request.apiKey;
}
