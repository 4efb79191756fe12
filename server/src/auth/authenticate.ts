import type { FastifyRequest, onRequestHookHandler } from "fastify";
import type { CachedLookups, KeyHit } from "../cache/lookups.js";
import { ApiError, invalidApiKey } from "../errors.js";
import { PERMISSION_MEANING, PERMISSIONS, type Permission, permissionsOf, rolesWith } from "../roles.js";
import type { ApiKeyRecord } from "../store/types.js";
import { effectiveTargets, type RenderTarget } from "../targets.js";
import { hashApiKey, hashesEqual, isWellFormedApiKey } from "./keys.js";
import type { RateLimiter } from "./rate-limit.js";

/** Who may call a route: anyone (health, docs), any valid key (the SDK routes), or a key whose role has a permission. */
export type AuthLevel = "public" | "key" | Permission;

const AUTH_LEVELS: readonly AuthLevel[] = ["public", "key", ...PERMISSIONS];

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

/**
 * Resolves the Authorization header to a usable key, or throws the 401 naming the cause. The key
 * comes from the lookup cache while its entry is fresh (no query, no wait for the event loop), so
 * the answer is a value then and a promise otherwise.
 */
export function resolveKey(header: string | undefined, lookups: CachedLookups, now: number): ApiKeyRecord | Promise<ApiKeyRecord> {
  const hash = hashApiKey(bearerToken(header));
  const hit = lookups.keyBySecretHash(hash);
  return hit instanceof Promise ? hit.then((found) => usableKey(found, hash, now)) : usableKey(hit, hash, now);
}

/**
 * The Authorization header's key when the cache alone vouches for it: found, usable. Undefined for
 * anything else (not cached yet, or a key to refuse), which `resolveKey` then answers: from the
 * store, or with the 401 that names the cause.
 */
export function cachedUsableKey(header: string | undefined, lookups: CachedLookups, now: number): ApiKeyRecord | undefined {
  try {
    const hash = hashApiKey(bearerToken(header));
    const hit = lookups.cachedKey(hash);
    return hit === undefined ? undefined : usableKey(hit, hash, now);
  } catch {
    return undefined;
  }
}

const BEARER_PREFIX = "Bearer ";

function bearerToken(header: string | undefined): string {
  // The form every client sends, read without a regular expression; any other spelling below.
  const usual = header?.startsWith(BEARER_PREFIX) === true ? header.slice(BEARER_PREFIX.length) : undefined;
  if (usual !== undefined && isWellFormedApiKey(usual)) return usual;
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
  return token;
}

function usableKey(hit: KeyHit, hash: string, now: number): ApiKeyRecord {
  if (hit === null || !hashesEqual(hit.secret.hash, hash)) throw invalidApiKey("API key is not recognised");
  if (hit.key.revokedAt !== null) throw invalidApiKey("API key has been revoked");
  if (past(hit.key.expiresAt, now)) throw invalidApiKey("API key has expired");
  if (past(hit.secret.expiresAt, now)) {
    throw invalidApiKey("API key has been rotated; use its new secret");
  }
  return hit.key;
}

/** Whether a stored expiry is past; most keys never expire, and the clock is formatted only for those that do. */
function past(at: string | null, now: number): boolean {
  return at !== null && at <= new Date(now).toISOString();
}

/** Who may call a route, as its OpenAPI description says it. */
export function accessNote(level: AuthLevel): string | undefined {
  if (level === "public") return undefined;
  if (level === "key") return "Any valid API key, whatever its role.";
  const roles = rolesWith(level);
  return `Needs a key with the role ${roles.length === 1 ? roles[0] : `${roles.slice(0, -1).join(", ")} or ${roles.at(-1)}`} (\`${level}\`).`;
}

/** The 403 for a key whose role lacks the permission; it names what the route needs and what the key is. */
export function forbidden(permission: Permission, role: string): ApiError {
  const roles = rolesWith(permission);
  const needed = roles.length === 1 ? `an ${roles[0]} key` : `a key with the role ${roles.slice(0, -1).join(", ")} or ${roles.at(-1)}`;
  return new ApiError(403, "FORBIDDEN", `This endpoint needs ${needed} (to ${PERMISSION_MEANING[permission]}); this key's role is ${role}`);
}

/**
 * onRequest hook: authenticate, authorise the role, then count the request against the key's limit.
 * The role comes with the cached key lookup: authorising costs no query. A callback hook, not an
 * async one: a key found in the cache admits the request in the same turn.
 */
export function authHook(lookups: CachedLookups, limiter: RateLimiter): onRequestHookHandler {
  return (request, _reply, done) => {
    const level = routeAuth(request.routeOptions.config);
    if (level === "public") return done();
    let key: ApiKeyRecord | Promise<ApiKeyRecord>;
    try {
      key = resolveKey(request.headers.authorization, lookups, Date.now());
    } catch (err) {
      return done(err as Error);
    }
    if (key instanceof Promise) key.then((found) => done(admit(request, found, level, limiter)), done);
    else done(admit(request, key, level, limiter));
  };
}

/** Attaches the key to the request, or returns the 403 or 429 that refuses it. */
function admit(request: FastifyRequest, key: ApiKeyRecord, level: Exclude<AuthLevel, "public">, limiter: RateLimiter): ApiError | undefined {
  if (level !== "key" && !permissionsOf(key.role).includes(level)) return forbidden(level, key.role);
  const retryAfter = limiter.hit(key.id, key.role);
  if (retryAfter > 0) {
    return new ApiError(429, "RATE_LIMITED", `Rate limit exceeded for this API key; retry in ${retryAfter} s`, undefined, {
      "retry-after": String(retryAfter),
    });
  }
  request.apiKey = key;
  return undefined;
}

/** Whether the key's scope covers `target` (any text: one that names no target is covered by no scope). */
export function mayRender(key: ApiKeyRecord, target: string): boolean {
  return effectiveTargets(key.targets).includes(target as RenderTarget);
}

/** 403 unless the key's scope covers the requested target; the message names both. */
export function requireTarget(key: ApiKeyRecord, target: RenderTarget): void {
  if (!mayRender(key, target)) {
    throw new ApiError(403, "FORBIDDEN", `API key is limited to targets [${key.targets.join(", ")}]; requested '${target}'`);
  }
}
