import type { FastifyRequest } from "fastify";
import type { CachedLookups } from "../cache/lookups.js";
import { ApiError, invalidApiKey } from "../errors.js";
import type { ApiKeyRecord } from "../store/types.js";
import { effectiveTargets, type RenderTarget } from "../targets.js";
import { hashApiKey, hashesEqual, isWellFormedApiKey } from "./keys.js";
import type { RateLimiter } from "./rate-limit.js";

/** Who may call a route: anyone (health, docs), any valid key, or an admin key. */
export type AuthLevel = "public" | "key" | "admin";

const AUTH_LEVELS: readonly AuthLevel[] = ["public", "key", "admin"];

/**
 * A route is private unless it says otherwise: no `config.auth` means any valid key. Failing closed
 * means a route added without thinking about auth is protected, not exposed.
 */
export function routeAuth(config: { auth?: unknown } | undefined): AuthLevel {
  const auth = config?.auth;
  if (auth === undefined) return "key";
  if (!AUTH_LEVELS.includes(auth as AuthLevel)) throw new Error(`unknown auth level '${String(auth)}'`);
  return auth as AuthLevel;
}

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
  }
}

const BEARER = /^([^\s]+)\s+(.*)$/;

/** Resolves the Authorization header to a usable key, or throws the 401 naming the cause. */
export async function resolveKey(header: string | undefined, lookups: CachedLookups, now: number): Promise<ApiKeyRecord> {
  if (header === undefined || header.trim() === "") {
    throw invalidApiKey("Missing Authorization header; send 'Authorization: Bearer <API_KEY>'");
  }
  const match = BEARER.exec(header.trim());
  if (match === null || match[1]?.toLowerCase() !== "bearer") {
    throw invalidApiKey("Authorization header must use the Bearer scheme");
  }
  const token = (match[2] ?? "").trim();
  // Cheap format check first: malformed tokens never reach the database.
  if (!isWellFormedApiKey(token)) throw invalidApiKey("API key is malformed");
  const hash = hashApiKey(token);
  const hit = await lookups.keyBySecretHash(hash);
  if (hit === null || !hashesEqual(hit.secret.hash, hash)) throw invalidApiKey("API key is not recognised");
  const nowIso = new Date(now).toISOString();
  if (hit.key.revokedAt !== null) throw invalidApiKey("API key has been revoked");
  if (hit.key.expiresAt !== null && hit.key.expiresAt <= nowIso) throw invalidApiKey("API key has expired");
  if (hit.secret.expiresAt !== null && hit.secret.expiresAt <= nowIso) {
    throw invalidApiKey("API key has been rotated; use its new secret");
  }
  return hit.key;
}

/** onRequest hook: authenticate, authorise the role, then count the request against the key's limit. */
export function authHook(lookups: CachedLookups, limiter: RateLimiter) {
  return async (request: FastifyRequest): Promise<void> => {
    const level = routeAuth(request.routeOptions.config);
    if (level === "public") return;
    const key = await resolveKey(request.headers.authorization, lookups, Date.now());
    if (level === "admin" && key.role !== "admin") {
      throw new ApiError(403, "FORBIDDEN", "This endpoint needs an admin API key");
    }
    const retryAfter = limiter.hit(key.id, key.role);
    if (retryAfter > 0) {
      throw new ApiError(429, "RATE_LIMITED", `Rate limit exceeded for this API key; retry in ${retryAfter} s`, undefined, {
        "retry-after": String(retryAfter),
      });
    }
    request.apiKey = key;
  };
}

/** 403 unless the key's scope covers the requested target; the message names both. */
export function requireTarget(key: ApiKeyRecord, target: RenderTarget): void {
  if (!effectiveTargets(key.targets).includes(target)) {
    throw new ApiError(403, "FORBIDDEN", `API key is limited to targets [${key.targets.join(", ")}]; requested '${target}'`);
  }
}
