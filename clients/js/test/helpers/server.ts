/**
 * The real mailrender server as a child process (`node server/lib/cli.js serve`), on a free loopback
 * port (PORT=0, the address is read from its "Server listening" log line) with SQLite in a temp dir.
 *
 * Requests are counted on the server side from its own request log (pino JSON on stdout): each
 * answered request's "request completed" line gives its method, URL and the status the server
 * answered. `requests()` first sends a marker request and waits for its log line, so every earlier
 * request has been logged by the time it counts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { SERVER_CLI } from "./paths.js";

export interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly status: number;
}

export interface RealServer {
  readonly url: string;
  readonly adminKey: string;
  /** Every request the server answered so far, in the order of its answers (marker requests excluded). */
  requests(): Promise<LoggedRequest[]>;
  /** SDK template fetches (GET /v1/sdk/template/...) the server has answered so far. */
  templateFetches(): Promise<LoggedRequest[]>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Extra environment, e.g. MAILRENDER_RATE_LIMIT_MAX. */
  readonly env?: Readonly<Record<string, string>>;
}

const MARKER = "/healthz?client-test-marker=";

export function newAdminKey(): string {
  return `sk_live_${randomBytes(32).toString("hex")}`;
}

export async function startServer(options: ServerOptions = {}): Promise<RealServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mailrender-client-test-"));
  const adminKey = newAdminKey();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    PORT: "0",
    MAILRENDER_SQLITE_PATH: path.join(dir, "test.db"),
    MAILRENDER_ADMIN_KEY: adminKey,
    MAILRENDER_RATE_LIMIT_MAX: "0",
    LOG_LEVEL: "info",
    ...options.env,
  };
  delete env["DATABASE_URL"]; // never pick up a developer's PostgreSQL by accident
  const child = spawn(process.execPath, [SERVER_CLI, "serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
  // A test process that ends without stop() (a timeout, a crash) must not leave its server running.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));

  const logged: LoggedRequest[] = [];
  let markersSeen = 0;
  const waiters = new Set<() => void>();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    // A bound for a broken start, not a speed check (a healthy start has taken over 20 s on a loaded
    // 2-core machine); below the suite's 60 s hook timeout, so the server's stderr is still reported.
    const timer = setTimeout(() => reject(new Error(`server did not start within 50 s\n${stderr}`)), 50_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)} before listening\n${stderr}`));
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      let rec: { msg?: string; method?: string; url?: string; statusCode?: number };
      try {
        rec = JSON.parse(line) as typeof rec;
      } catch {
        return;
      }
      const listening = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/.exec(rec.msg ?? "");
      if (listening?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
      if (rec.msg === "request completed" && rec.url !== undefined && rec.statusCode !== undefined) {
        if (rec.url.startsWith(MARKER)) markersSeen++;
        else logged.push({ method: rec.method ?? "?", url: rec.url, status: rec.statusCode });
        for (const wake of waiters) wake();
      }
    });
  });

  let markerCount = 0;
  /** Sends a marker request and waits until the server has logged its completion. */
  async function settle(): Promise<void> {
    const before = markersSeen;
    await fetch(`${url}${MARKER}${markerCount++}`);
    const deadline = Date.now() + 5_000;
    while (markersSeen <= before) {
      if (Date.now() > deadline) throw new Error("the server's log did not show the marker request");
      await new Promise<void>((resolve) => {
        waiters.add(resolve);
        setTimeout(resolve, 50);
      });
    }
    waiters.clear();
  }

  let stopped: Promise<void> | undefined;
  return {
    url,
    adminKey,
    async requests() {
      await settle();
      return [...logged];
    },
    async templateFetches() {
      await settle();
      return logged.filter((r) => r.method === "GET" && r.url.startsWith("/v1/sdk/template/"));
    },
    stop() {
      stopped ??= stopChild(child).then(() => rmSync(dir, { recursive: true, force: true }));
      return stopped;
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
