/**
 * Turns a MailrenderConfig (plus the environment) into a complete, checked configuration.
 * Unknown options are rejected rather than ignored: a typo must not silently fall back to a default.
 */
import * as C from "./constants.js";
import { MailrenderError } from "./errors.js";
import type { CacheConfig, MailrenderConfig } from "./types.js";

export interface ResolvedConfig {
  readonly apiKey: string;
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly timeout: number;
  readonly cache: {
    readonly type: "memory" | "disk";
    readonly path: string;
    readonly ttl: number;
    readonly maxEntries: number;
  };
  readonly fetch: typeof globalThis.fetch;
}

const TOP_LEVEL = ["apiKey", "baseUrl", "timeout", "cache", "fetch"] as const satisfies readonly (keyof MailrenderConfig)[];
const CACHE_KEYS = ["type", "path", "ttl", "maxEntries"] as const satisfies readonly (keyof CacheConfig)[];

/** Options removed in 2.1.0, with what replaces them. */
const REMOVED: Readonly<Record<string, string>> = {
  cacheTtl: "cache: { ttl }",
  cacheMaxEntries: "cache: { maxEntries }",
};

type Env = Readonly<Record<string, string | undefined>>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function rejectUnknown(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const replacement = where === "" ? REMOVED[key] : undefined;
    if (replacement !== undefined) {
      throw new TypeError(
        `MailrenderClient: option '${key}' was removed in 2.1.0; cache options now live under ` + `cache: { ttl, maxEntries } (use ${replacement}).`,
      );
    }
    throw new TypeError(`MailrenderClient: unknown option '${where}${key}'; known options: ${allowed.map((k) => where + k).join(", ")}`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function checkNumber(value: unknown, name: string, min: number, integer: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new TypeError(`MailrenderClient: ${name} must be ${integer ? "an integer" : "a number"} >= ${min}, got ${String(value)}`);
  }
  return value;
}

function resolveBaseUrl(raw: unknown, env: Env): string {
  const value = raw === undefined ? (nonEmpty(env[C.ENV_BASE_URL]) ?? C.DEFAULT_BASE_URL) : raw;
  if (typeof value !== "string" || value.trim() === "") throw new TypeError("MailrenderClient: baseUrl must be a non-empty URL string");
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new TypeError(`MailrenderClient: baseUrl is not a valid URL: '${value}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`MailrenderClient: baseUrl must use http or https, got '${url.protocol}'`);
  }
  if (url.search !== "" || url.hash !== "") throw new TypeError("MailrenderClient: baseUrl must not carry a query or fragment");
  return url.toString().replace(/\/+$/, "");
}

function resolveApiKey(raw: unknown, env: Env): string {
  if (raw !== undefined && typeof raw !== "string") throw new TypeError("MailrenderClient: apiKey must be a string");
  const key = raw === undefined ? nonEmpty(env[C.ENV_API_KEY]) : nonEmpty(raw);
  if (key === undefined) {
    // The message names where a key comes from, never a key's value.
    throw new MailrenderError("INVALID_API_KEY", 0, `An API key is required: pass apiKey or set ${C.ENV_API_KEY}`);
  }
  if (!/^[\x20-\x7e]+$/.test(key)) {
    // fetch() would refuse the header with a TypeError; no issued key has such characters.
    throw new MailrenderError(
      "INVALID_API_KEY",
      0,
      "The API key contains characters that cannot be sent in an HTTP header (only printable ASCII can be): check for a copy-paste accident",
    );
  }
  return key;
}

function resolveCache(raw: unknown): ResolvedConfig["cache"] {
  if (raw === undefined) raw = {};
  if (!isPlainObject(raw)) throw new TypeError("MailrenderClient: cache must be an object: cache: { type, path, ttl, maxEntries }");
  rejectUnknown(raw, CACHE_KEYS, "cache.");
  const type = raw["type"] ?? C.DEFAULT_CACHE_TYPE;
  if (type !== "memory" && type !== "disk") throw new TypeError(`MailrenderClient: cache.type must be 'memory' or 'disk', got ${JSON.stringify(type)}`);
  const path = raw["path"] ?? C.DEFAULT_DISK_CACHE_PATH;
  if (typeof path !== "string" || path.trim() === "") throw new TypeError("MailrenderClient: cache.path must be a non-empty string");
  return {
    type,
    path,
    ttl: raw["ttl"] === undefined ? C.DEFAULT_CACHE_TTL_MS : checkNumber(raw["ttl"], "cache.ttl (milliseconds)", 0, false),
    maxEntries: raw["maxEntries"] === undefined ? C.DEFAULT_CACHE_MAX_ENTRIES : checkNumber(raw["maxEntries"], "cache.maxEntries", 1, true),
  };
}

export function resolveConfig(config: MailrenderConfig | undefined, env: Env = process.env): ResolvedConfig {
  const raw: unknown = config ?? {};
  if (!isPlainObject(raw)) throw new TypeError("MailrenderClient: the configuration must be an object");
  rejectUnknown(raw, TOP_LEVEL, "");
  const fetchImpl = raw["fetch"] ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw new TypeError("MailrenderClient: fetch must be a function (no global fetch found: Node >= 20.16 is required)");
  return {
    // The timeout is capped at setTimeout's limit so a huge value cannot fire at once.
    timeout: raw["timeout"] === undefined ? C.DEFAULT_TIMEOUT_MS : Math.min(checkNumber(raw["timeout"], "timeout (milliseconds)", 1, false), 2_147_483_647),
    baseUrl: resolveBaseUrl(raw["baseUrl"], env),
    apiKey: resolveApiKey(raw["apiKey"], env),
    cache: resolveCache(raw["cache"]),
    fetch: fetchImpl as typeof globalThis.fetch,
  };
}
