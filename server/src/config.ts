import os from "node:os";
import path from "node:path";

/** Where the data lives: an embedded SQLite file (default) or a PostgreSQL server. */
export type DatabaseConfig = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

export interface RateLimitConfig {
  /** Requests allowed per render key per window; 0 disables the limit for render keys. */
  max: number;
  /** The same for admin keys; 0 (default) means unlimited, so load can never lock the operator out. */
  adminMax: number;
  windowMs: number;
}

export interface ServerConfig {
  host: string;
  port: number;
  database: DatabaseConfig;
  /** Upper bound on how long a cached key/template lookup may be served after a change elsewhere. */
  cacheTtlMs: number;
  bodyLimitBytes: number;
  rateLimit: RateLimitConfig;
  /** Longest time a client may take to send a whole request (headers and body); then 408. */
  requestTimeoutMs: number;
  /** After SIGTERM: how long requests in flight may take before the remaining connections are cut. */
  shutdownGraceMs: number;
  /** The deprecated render endpoint renders on this many worker threads, each within this budget. */
  render: { workers: number; timeoutMs: number };
  adminKey: string | undefined;
  logLevel: string;
}

/** A configuration mistake the operator must fix; the message is shown as-is at start-up. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export const DEFAULTS = {
  host: "127.0.0.1",
  port: 8787,
  sqlitePath: "./data/mailrender.db",
  cacheTtlMs: 2_000,
  bodyLimitBytes: 1024 * 1024,
  // Generous: a busy client fetching one template per render never sees it; tests lower it.
  rateLimitMax: 6_000,
  adminRateLimitMax: 0,
  rateLimitWindowMs: 60_000,
  requestTimeoutMs: 30_000,
  shutdownGraceMs: 10_000,
  renderWorkers: Math.max(1, Math.min(4, os.availableParallelism())),
  renderTimeoutMs: 10_000,
  logLevel: "info",
} as const;

type Env = Readonly<Record<string, string | undefined>>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(`${name} must be a whole number, got '${raw}'`);
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

export function parseDatabase(env: Env): DatabaseConfig {
  const url = env["DATABASE_URL"]?.trim();
  if (url === undefined || url === "") {
    return { kind: "sqlite", path: path.resolve(env["MAILRENDER_SQLITE_PATH"] ?? DEFAULTS.sqlitePath) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", url };
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length).replace(/^\/\//, "");
    if (file === "") throw new ConfigError("DATABASE_URL 'sqlite:' needs a file path, e.g. sqlite:./data/mailrender.db");
    return { kind: "sqlite", path: file === ":memory:" ? file : path.resolve(file) };
  }
  throw new ConfigError("DATABASE_URL must start with postgres://, postgresql:// or sqlite:");
}

/** Reads the whole configuration from the environment; throws ConfigError with a readable message. */
export function loadConfig(env: Env = process.env): ServerConfig {
  const cacheTtlMs = intVar(env, "MAILRENDER_CACHE_TTL_MS", DEFAULTS.cacheTtlMs, 0, 5_000);
  const adminKey = env["MAILRENDER_ADMIN_KEY"]?.trim();
  return {
    host: env["HOST"]?.trim() || DEFAULTS.host,
    port: intVar(env, "PORT", DEFAULTS.port, 0, 65_535),
    database: parseDatabase(env),
    cacheTtlMs,
    bodyLimitBytes: intVar(env, "MAILRENDER_BODY_LIMIT_BYTES", DEFAULTS.bodyLimitBytes, 1_024, 100 * 1024 * 1024),
    rateLimit: {
      max: intVar(env, "MAILRENDER_RATE_LIMIT_MAX", DEFAULTS.rateLimitMax, 0, 1_000_000_000),
      adminMax: intVar(env, "MAILRENDER_ADMIN_RATE_LIMIT_MAX", DEFAULTS.adminRateLimitMax, 0, 1_000_000_000),
      windowMs: intVar(env, "MAILRENDER_RATE_LIMIT_WINDOW_MS", DEFAULTS.rateLimitWindowMs, 100, 86_400_000),
    },
    requestTimeoutMs: intVar(env, "MAILRENDER_REQUEST_TIMEOUT_MS", DEFAULTS.requestTimeoutMs, 1_000, 600_000),
    shutdownGraceMs: intVar(env, "MAILRENDER_SHUTDOWN_GRACE_MS", DEFAULTS.shutdownGraceMs, 0, 600_000),
    render: {
      workers: intVar(env, "MAILRENDER_RENDER_WORKERS", DEFAULTS.renderWorkers, 1, 64),
      timeoutMs: intVar(env, "MAILRENDER_RENDER_TIMEOUT_MS", DEFAULTS.renderTimeoutMs, 100, 600_000),
    },
    adminKey: adminKey === "" ? undefined : adminKey,
    logLevel: env["LOG_LEVEL"]?.trim() || DEFAULTS.logLevel,
  };
}
