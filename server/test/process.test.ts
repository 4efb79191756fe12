import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/auth/keys.js";
import { call } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

/** The real executable: `mailrender-server` started as a process, as an operator would. */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const CLI = ["--import", "tsx", "src/cli.ts"];
// Each process compiles TypeScript on start (tsx): seconds on a 2-core machine, far more when it is loaded.
const PROCESS_TIMEOUT_MS = 60_000;
const tmp = mkdtempSync(path.join(os.tmpdir(), "mailrender-proc-"));

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, LOG_LEVEL: "info", ...extra };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = PROCESS_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output: ${seen}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve(seen);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
  });
}

describe("mailrender-server as a process", { timeout: 3 * PROCESS_TIMEOUT_MS }, () => {
  it("refuses to start with a malformed MAILRENDER_ADMIN_KEY, with a clear message", () => {
    const result = spawnSync(process.execPath, CLI, {
      cwd: SERVER_DIR,
      env: env({ MAILRENDER_ADMIN_KEY: "sk_live_not-hex", MAILRENDER_SQLITE_PATH: path.join(tmp, "bad.db"), PORT: "0" }),
      encoding: "utf8",
      timeout: PROCESS_TIMEOUT_MS,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("MAILRENDER_ADMIN_KEY is malformed");
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it(
    "create-admin-key prints a working admin key once; import-templates stores a folder",
    async () => {
      const dbPath = path.join(tmp, "cli.db");
      const created = spawnSync(process.execPath, [...CLI, "create-admin-key", "--name", "ops"], {
        cwd: SERVER_DIR,
        env: env({ MAILRENDER_SQLITE_PATH: dbPath }),
        encoding: "utf8",
        timeout: PROCESS_TIMEOUT_MS,
      });
      expect(created.status, created.stderr).toBe(0);
      const adminKey = created.stdout.trim();
      expect(adminKey).toMatch(/^sk_live_[0-9a-f]{64}$/);

      const dir = path.join(tmp, "templates");
      mkdirSync(dir);
      const fixedId = "0b7e8f1a-2c3d-4e5f-8a9b-0c1d2e3f4a5b";
      writeFileSync(path.join(dir, "a.json"), JSON.stringify(sampleTemplate("Imported A")));
      writeFileSync(path.join(dir, "b.json"), JSON.stringify({ ...sampleTemplate("Imported B"), template_id: fixedId }));
      const imported = spawnSync(process.execPath, [...CLI, "import-templates", dir], {
        cwd: SERVER_DIR,
        env: env({ MAILRENDER_SQLITE_PATH: dbPath }),
        encoding: "utf8",
        timeout: PROCESS_TIMEOUT_MS,
      });
      expect(imported.status, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/created\s+a\.json -> [0-9a-f-]{36}/);
      expect(imported.stdout).toContain(`b.json -> ${fixedId}`);
      const again = spawnSync(process.execPath, [...CLI, "import-templates", dir], {
        cwd: SERVER_DIR,
        env: env({ MAILRENDER_SQLITE_PATH: dbPath }),
        encoding: "utf8",
        timeout: PROCESS_TIMEOUT_MS,
      });
      expect(again.stdout).toContain(`replaced b.json -> ${fixedId} (version 2)`);

      writeFileSync(path.join(dir, "c.json"), JSON.stringify({ template_name: "broken" }));
      const broken = spawnSync(process.execPath, [...CLI, "import-templates", dir], {
        cwd: SERVER_DIR,
        env: env({ MAILRENDER_SQLITE_PATH: dbPath }),
        encoding: "utf8",
        timeout: PROCESS_TIMEOUT_MS,
      });
      expect(broken.status).toBe(1);
      expect(broken.stderr).toMatch(/failed\s+c\.json/);
      expect(broken.stderr).toContain("c.json.rows");

      // The key works against a server on the same database.
      const port = await freePort();
      const child = spawn(process.execPath, CLI, {
        cwd: SERVER_DIR,
        env: env({ MAILRENDER_SQLITE_PATH: dbPath, PORT: String(port) }),
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        await waitForOutput(child, /Server listening/);
        const list = await call(`http://127.0.0.1:${port}`, "GET", "/api/v1/templates", { key: adminKey });
        expect(list.status).toBe(200);
        // a.json has no UUID id, so each import adds a copy; b.json keeps its id and is replaced.
        const names: string[] = list.json.templates.map((t: { name: string }) => t.name);
        expect(names.filter((n) => n === "Imported B")).toHaveLength(1);
        expect(names.filter((n) => n === "Imported A")).toHaveLength(3);
      } finally {
        child.kill("SIGKILL");
      }
    },
    5 * PROCESS_TIMEOUT_MS,
  ); // five CLI processes

  it("SIGTERM lets a request in flight finish, then exits 0", async () => {
    const port = await freePort();
    const adminKey = generateApiKey();
    const child = spawn(process.execPath, CLI, {
      cwd: SERVER_DIR,
      env: env({ MAILRENDER_SQLITE_PATH: path.join(tmp, "sigterm.db"), PORT: String(port), MAILRENDER_ADMIN_KEY: adminKey }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await waitForOutput(child, /Server listening/);

    // Start a request and send only half of its body, so it is in flight when SIGTERM arrives.
    const body = JSON.stringify(sampleTemplate("in flight"));
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/v1/templates",
          headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(20)), 300);
      }, 200);
    });
    const res = await response;
    expect(res.status, res.text).toBe(201);
    expect(await exited).toBe(0);
    // The log is written asynchronously; what was still buffered at exit is written before the process ends.
    const records = log
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg?: string; statusCode?: number });
    expect(records.filter((r) => r.msg === "request completed").map((r) => r.statusCode)).toEqual([201]);
    expect(records.at(-1)?.msg).toBe("stopped");
  });
  it("SIGTERM with the log's writer blocked: every request's line is written, in order, before \"stopped\"", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, CLI, {
      cwd: SERVER_DIR,
      env: env({ MAILRENDER_SQLITE_PATH: path.join(tmp, "sigterm-log.db"), PORT: String(port) }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await waitForOutput(child, /Server listening/);
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
    // Stop reading: the pipe fills, and the log's writer is left with a write it cannot finish.
    child.stdout?.pause();
    const requests = 400;
    for (let i = 0; i < requests; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/v1/sdk/template/00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    child.kill("SIGTERM");
    // The server stops while its writer is blocked; reading resumes only then.
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.stdout?.resume();
    expect(await exited).toBe(0);
    const records = Buffer.concat(chunks)
      .toString("utf8")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg?: string; statusCode?: number });
    expect(records.filter((r) => r.msg === "request completed").length).toBe(requests);
    expect(records.at(-1)?.msg).toBe("stopped");
  });
  it("SIGTERM under keep-alive load: every written request is answered (0 resets), idle connections do not hold the process", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, CLI, {
      cwd: SERVER_DIR,
      env: env({ MAILRENDER_SQLITE_PATH: path.join(tmp, "sigterm-load.db"), PORT: String(port), LOG_LEVEL: "warn", MAILRENDER_SHUTDOWN_GRACE_MS: "8000" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exitedAt = new Promise<number>((resolve) => child.on("exit", () => resolve(Date.now())));
    for (let i = 0; i < 200; i++) {
      try {
        await fetch(`http://127.0.0.1:${port}/healthz`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const outcomes: Record<string, number> = {};
    const count = (k: string) => (outcomes[k] = (outcomes[k] ?? 0) + 1);
    let stop = false;
    // Clients that send one request after another on their kept-alive connection …
    const busy = Array.from({ length: 8 }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (!stop) {
        await new Promise<void>((resolve) => {
          const req = http.get({ host: "127.0.0.1", port, path: "/healthz", agent }, (res) => {
            res.resume();
            res.on("end", () => {
              count(String(res.statusCode));
              resolve();
            });
          });
          req.on("error", (e: NodeJS.ErrnoException) => {
            // Refused: the server no longer listens, nothing was written. Anything else lost a written request.
            count(e.code === "ECONNREFUSED" ? "refused" : `reset ${e.code ?? e.message}`);
            if (e.code === "ECONNREFUSED") stop = true;
            resolve();
          });
        });
      }
      agent.destroy();
    });
    // … and connections that stay open and idle.
    const idle = new http.Agent({ keepAlive: true, maxSockets: 2 });
    for (let i = 0; i < 2; i++)
      await new Promise((r) =>
        http.get({ host: "127.0.0.1", port, path: "/healthz", agent: idle }, (res) => {
          res.resume();
          res.on("end", r);
        }),
      );
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    child.kill("SIGTERM");
    const exitMs = (await exitedAt) - sentAt;
    stop = true;
    await Promise.all(busy);
    idle.destroy();
    expect(
      Object.keys(outcomes).filter((k) => k.startsWith("reset")),
      JSON.stringify(outcomes),
    ).toEqual([]);
    expect(outcomes["200"]).toBeGreaterThan(8);
    expect(exitMs).toBeLessThan(5_000); // well within the 8 s grace: idle connections are closed, not waited for
  });
});

describe("serve --demo (what `make run` starts)", { timeout: 3 * PROCESS_TIMEOUT_MS }, () => {
  it("seeds the starter templates and keys on first start and prints the studio URL and curl commands that work", async () => {
    const port = await freePort();
    const dbPath = path.join(tmp, "demo", "mailrender.db");
    const start = () =>
      spawn(process.execPath, [...CLI, "serve", "--demo"], {
        cwd: SERVER_DIR,
        env: env({ MAILRENDER_SQLITE_PATH: dbPath, PORT: String(port) }),
        stdio: ["ignore", "pipe", "pipe"],
      });
    let child = start();
    try {
      const out = await waitForOutput(child, /Ctrl-C stops the server/);
      const key = /render key\s+(sk_live_[0-9a-f]{64})/.exec(out)?.[1];
      const adminKey = /admin key\s+(sk_live_[0-9a-f]{64})/.exec(out)?.[1];
      const id = /"template_id":"([0-9a-f-]{36})"/.exec(out)?.[1];
      expect(out).toContain(`Studio    http://localhost:${port}/studio`);
      expect(out).not.toContain("no bootstrap admin key");
      // The current endpoints first, the deprecated render last and marked so.
      const order = [`/v1/sdk/template/${id}?target=html`, "Store your own template", "Deprecated:", `http://localhost:${port}/v1/sdk/render`].map((s) =>
        out.indexOf(s),
      );
      expect(
        order.every((at, i) => at > (order[i - 1] ?? 0)),
        JSON.stringify(order),
      ).toBe(true);
      expect((await call(`http://127.0.0.1:${port}`, "GET", "/studio")).status).toBe(200);
      // The printed way to store one's own template works as printed.
      const file = /--data-binary @(\S+)/.exec(out)?.[1] as string;
      const stored = await call(`http://127.0.0.1:${port}`, "POST", "/api/v1/templates", {
        key: adminKey,
        rawBody: readFileSync(file),
        headers: { "content-type": "application/json" },
      });
      expect(stored.status, stored.text).toBe(201);
      const res = await call(`http://127.0.0.1:${port}`, "POST", "/v1/sdk/render", {
        key,
        body: { template_id: id, dynamic_data: { merge_tags: { text: { first_name: "Ada" } } } },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.text).toContain("Hello Ada!");
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      // Second start: same demo, nothing duplicated.
      child = start();
      const again = await waitForOutput(child, /Ctrl-C stops the server/);
      expect(again).toContain(`Bearer ${key}`);
      const list = await call(`http://127.0.0.1:${port}`, "GET", "/api/v1/templates", { key: /admin key\s+(sk_live_[0-9a-f]{64})/.exec(again)?.[1] });
      expect(list.json.templates.map((t: { name: string }) => t.name).sort()).toEqual(["Password reset", "Receipt", "Receipt", "mailrender demo newsletter"]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
