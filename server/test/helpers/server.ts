import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { generateApiKey } from "../../src/auth/keys.js";
import { type DatabaseConfig, DEFAULTS, type ServerConfig } from "../../src/config.js";
import { type RunningServer, startServer } from "../../src/server.js";

export interface TestServer extends RunningServer {
  adminKey: string;
}

export interface TestServerOptions {
  database: DatabaseConfig;
  adminKey?: string;
  cacheTtlMs?: number;
  bodyLimitBytes?: number;
  rateLimit?: ServerConfig["rateLimit"];
  requestTimeoutMs?: number;
  renderTimeoutMs?: number;
  logger?: false | NodeJS.WritableStream;
}

/** A real server on a free loopback port, with a bootstrap admin key registered from config. */
export async function startTestServer(opts: TestServerOptions): Promise<TestServer> {
  const adminKey = opts.adminKey ?? generateApiKey();
  const config: ServerConfig = {
    host: "127.0.0.1",
    port: 0,
    database: opts.database,
    cacheTtlMs: opts.cacheTtlMs ?? 1_000,
    bodyLimitBytes: opts.bodyLimitBytes ?? DEFAULTS.bodyLimitBytes,
    rateLimit: opts.rateLimit ?? { max: 0, adminMax: 0, windowMs: 60_000 },
    requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    shutdownGraceMs: DEFAULTS.shutdownGraceMs,
    render: { workers: DEFAULTS.renderWorkers, timeoutMs: opts.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs },
    adminKey,
    logLevel: opts.logger ? "info" : "warn",
  };
  const server = await startServer(config, opts.logger ?? false);
  return Object.assign(server, { adminKey });
}

/** What a test server in its own process is started with: the options that travel as JSON. */
export type ServerProcessOptions = Pick<TestServerOptions, "database" | "renderTimeoutMs">;

/** A test server in its own process: its address, its admin key, its process id, and how to stop it. */
export interface ServerProcess {
  url: string;
  adminKey: string;
  pid: number;
  close(): Promise<void>;
}

const SERVER_PROCESS = fileURLToPath(new URL("./server-process.ts", import.meta.url));

/**
 * `startTestServer` in a process of its own (server-process.ts), for a test that must measure a server
 * from outside it: a server in the test's own process shares its event loop with the test's clients.
 */
export function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER_PROCESS, JSON.stringify(options)], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    child.stdin.end();
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the server's process exited with ${code} before it listened`)));
    createInterface({ input: child.stdout }).once("line", (line) =>
      resolve({ ...(JSON.parse(line) as { url: string; adminKey: string }), pid: child.pid ?? 0, close }),
    );
  });
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  json: any;
}

export interface RequestOptions {
  key?: string | undefined;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** One HTTP request over the real socket; JSON bodies are parsed when the response is JSON. */
export async function call(baseUrl: string, method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers["authorization"] = `Bearer ${opts.key}`;
  // A copy as a plain Uint8Array: what fetch accepts with both Node's and the DOM's typings.
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (opts.rawBody !== undefined) body = typeof opts.rawBody === "string" ? opts.rawBody : new Uint8Array(opts.rawBody);
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(baseUrl + path, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  const isJson = (res.headers.get("content-type") ?? "").includes("json");
  return { status: res.status, headers: res.headers, text, json: isJson && text !== "" ? JSON.parse(text) : undefined };
}

/** Polls until `check` passes; returns the elapsed milliseconds, or throws after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, stepMs = 50): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
