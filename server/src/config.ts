import { readFileSync } from "node:fs";
import net from "node:net";
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
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed, as Fastify's `trustProxy` reads them
   * (addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`); unset: none, the client is
   * the peer of the TCP connection.
   */
  trustProxy?: string;
  /** How the log is written; unset: readable lines on a terminal, JSON otherwise. */
  logFormat?: LogFormat;
}

export type LogFormat = "pretty" | "json";

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
  const sqlitePath = env["MAILRENDER_SQLITE_PATH"];
  if (url === undefined || url === "") {
    return { kind: "sqlite", path: path.resolve(sqlitePath ?? DEFAULTS.sqlitePath) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", url };
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length).replace(/^\/\//, "");
    if (file === "") throw new ConfigError("DATABASE_URL 'sqlite:' needs a file path, e.g. sqlite:./data/mailrender.db");
    return { kind: "sqlite", path: file === ":memory:" ? file : path.resolve(file) };
  }
  throw new ConfigError("DATABASE_URL must start with postgres://, postgresql:// or sqlite:");
}

const PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** MAILRENDER_TRUST_PROXY: a comma-separated list of addresses, CIDR ranges or proxy-addr's names. */
export function parseTrustProxy(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const entries = raw.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = "", prefix, ...rest] = entry.split("/");
    const version = net.isIP(address);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32));
    if (PROXY_NAMES.includes(entry) || (version !== 0 && prefixOk && rest.length === 0)) continue;
    throw new ConfigError(
      `MAILRENDER_TRUST_PROXY: '${entry}' is not an IP address, a CIDR range (10.0.0.0/8) or one of ${PROXY_NAMES.join(", ")}; list your proxies' addresses, separated by commas`,
    );
  }
  return entries.join(",");
}

function parseLogFormat(raw: string | undefined): LogFormat | undefined {
  const value = raw?.trim() ?? "";
  if (value === "") return undefined;
  if (value === "pretty" || value === "json") return value;
  throw new ConfigError(`MAILRENDER_LOG_FORMAT must be 'pretty' or 'json', got '${value}'`);
}

/** Reads the whole configuration from the environment; throws ConfigError with a readable message. */
export function loadConfig(env: Env = process.env): ServerConfig {
  const cacheTtlMs = intVar(env, "MAILRENDER_CACHE_TTL_MS", DEFAULTS.cacheTtlMs, 0, 5_000);
  const adminKey = env["MAILRENDER_ADMIN_KEY"]?.trim();
  const trustProxy = parseTrustProxy(env["MAILRENDER_TRUST_PROXY"]);
  const logFormat = parseLogFormat(env["MAILRENDER_LOG_FORMAT"]);
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
    ...(trustProxy === undefined ? {} : { trustProxy }),
    ...(logFormat === undefined ? {} : { logFormat }),
  };
}

/**
 * A settings file: `KEY=value` lines, `#` comments, blank lines, an optional `export ` and optional
 * quotes around the value — the format systemd's EnvironmentFile= and shells read, so one file can
 * serve both.
 */
export function readSettingsFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read the settings file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const settings: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(trimmed);
    if (match === null) throw new ConfigError(`${file}:${index + 1}: expected KEY=value, got '${trimmed}'`);
    const [, key = "", value = ""] = match;
    const quoted = /^(["'])(.*)\1$/.exec(value);
    settings[key] = quoted === null ? value : (quoted[2] ?? "");
  });
  return settings;
}

/**
 * The configuration from a settings file and the environment; the environment wins, so one run can
 * override a file. A setting in the file that the server does not read is an error (a misspelt
 * name would otherwise be ignored silently).
 */
export function loadConfigWithFile(file: string | undefined, env: Env = process.env): ServerConfig {
  if (file === undefined) return loadConfig(env);
  const settings = readSettingsFile(file);
  const read = new Set<string>();
  const merged = new Proxy(
    { ...settings, ...env },
    {
      get(target, name) {
        if (typeof name === "string") read.add(name);
        return Reflect.get(target, name) as unknown;
      },
    },
  );
  const config = loadConfig(merged);
  const unknown = Object.keys(settings).filter((key) => !read.has(key));
  if (unknown.length > 0) {
    throw new ConfigError(
      `${file}: unknown setting${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; the settings are listed in the server's README (Configuration)`,
    );
  }
  return config;
}
