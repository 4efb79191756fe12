/**
 * Every default and fixed number of the client, in one place (the service spec's "Clients" section).
 * Nothing else in src/ hard-codes a default.
 */
import type { RenderTarget } from "@mailrender/engine";

export const CLIENT_VERSION = "2.1.4";
/** spec/clients.md: mailrender-<language>/<version> <runtime>/<runtime version>. */
export const USER_AGENT = `mailrender-js/${CLIENT_VERSION} node/${process.versions.node}`;

export const DEFAULT_BASE_URL = "http://localhost:8787";
export const ENV_BASE_URL = "MAILRENDER_BASE_URL";
export const ENV_API_KEY = "MAILRENDER_API_KEY";

/** Per HTTP attempt, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export const DEFAULT_CACHE_TYPE = "memory";
export const DEFAULT_CACHE_TTL_MS = 300_000;
export const DEFAULT_CACHE_MAX_ENTRIES = 50;
export const DEFAULT_DISK_CACHE_PATH = ".mailrender-cache";

export const DEFAULT_TARGET: RenderTarget = "html";

/**
 * The engine's targets, kept here as a literal because the engine is ESM-only and the CommonJS build
 * may only load it with a dynamic import(): option checks must not wait for it. A test compares this
 * list with the engine's RENDER_TARGETS.
 */
export const RENDER_TARGETS = ["html", "react-email", "mjml"] as const satisfies readonly RenderTarget[];

/** The engine major this client is written against; another major is refused with a clear message. */
export const ENGINE_MAJOR = 2;

/** Template fetch retries (connection errors, 429, 5xx only): 2 retries after the first attempt. */
export const MAX_RETRIES = 2;
/** Backoff before retry n (0-based) is BASE * 2^n, scaled by a random factor in [0.5, 1) (jitter). */
export const RETRY_BASE_DELAY_MS = 250;
/** A Retry-After longer than this is not waited for: the error is raised (or the stale copy used). */
export const MAX_RETRY_AFTER_MS = 30_000;

export const TEMPLATE_PATH = "/v1/sdk/template/";
