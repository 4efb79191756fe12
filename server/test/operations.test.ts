/**
 * What docs/operations.md tells an operator to do, done: backups taken while the server writes and
 * restored (SQLite and PostgreSQL), a settings file, the trusted-proxy setting, a database from a
 * newer release refused, and the command's help.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/auth/keys.js";
import { ConfigError, DEFAULTS, loadConfig, loadConfigWithFile, parseTrustProxy, readSettingsFile, type ServerConfig } from "../src/config.js";
import { logDestination, prettyLog } from "../src/logging.js";
import { startServer } from "../src/server.js";
import { CLI_TIMEOUT_MS, databaseEnv, runCli } from "./helpers/cli.js";
import { BACKENDS, createTestDatabase, rawSql } from "./helpers/databases.js";
import { call, startTestServer, waitUntil } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mailrender-ops-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(BACKENDS)("backup and restore on %s", (backend) => {
  it(
    "a backup taken while writers write holds every write acknowledged before it began; restore brings exactly that back",
    async () => {
      const db = await createTestDatabase(backend);
      const server = await startTestServer({ database: db.config });
      try {
        // Enough data that the copy is not instantaneous: 150 templates of ~20 KB.
        const filler = `<p>${"Lorem ipsum dolor sit amet. ".repeat(700)}</p>`;
        for (let i = 0; i < 150; i++) {
          const body = JSON.parse(JSON.stringify(sampleTemplate(`seed ${i}`)).replace("<p>Body text</p>", filler)) as unknown;
          const res = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body });
          expect(res.status, res.text).toBe(201);
        }
        // SQLite: a reader holding a snapshot keeps every later write in the WAL (no checkpoint can
        // move it into the main file), so a backup that missed the WAL would miss them.
        const reader = db.config.kind === "sqlite" ? new SQLite(db.config.path) : undefined;
        reader?.prepare("BEGIN").run();
        reader?.prepare("SELECT count(*) FROM templates").get();
        const acked: { id: string; name: string }[] = [];
        const failed: string[] = [];
        let stop = false;
        const writers = Array.from({ length: 4 }, async (_, w) => {
          for (let i = 0; !stop; i++) {
            const name = `writer ${w} #${i}`;
            const res = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: sampleTemplate(name) });
            if (res.status === 201) acked.push({ id: res.json.id, name });
            else failed.push(`${res.status} ${res.text}`);
          }
        });
        while (acked.length < 20) await new Promise((r) => setTimeout(r, 20));
        const before = acked.slice(); // acknowledged before the backup command started
        const file = path.join(tmp, `${backend}-under-load.backup`);
        const backup = await runCli(["backup", file], databaseEnv(db.config));
        const duringBackup = acked.length - before.length;
        stop = true;
        await Promise.all(writers);
        reader?.prepare("COMMIT").run();
        reader?.close();
        expect(backup.status, backup.stderr).toBe(0);
        expect(backup.stdout).toMatch(/^backed up .+ to .+ \(\d+ KiB/);
        expect(failed).toEqual([]);
        expect(duringBackup, "the server kept acknowledging writes while the backup ran").toBeGreaterThan(0);

        // A write after the backup, which the restore must take away.
        const after = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: sampleTemplate("after the backup") });
        expect(after.status).toBe(201);
        await server.close();

        const restored = await runCli(["restore", file], databaseEnv(db.config));
        expect(restored.status, restored.stderr).toBe(0);
        expect(restored.stdout).toContain("restored");

        const again = await startTestServer({ database: db.config, adminKey: server.adminKey });
        try {
          const ids = new Set<string>();
          for (let offset = 0; ; offset += 500) {
            const page = await call(again.url, "GET", `/api/v1/templates?limit=500&offset=${offset}`, { key: again.adminKey });
            expect(page.status).toBe(200);
            for (const t of page.json.templates as { id: string }[]) ids.add(t.id);
            if (page.json.templates.length < 500) break;
          }
          expect(before.filter((a) => !ids.has(a.id))).toEqual([]);
          expect(ids.has(after.json.id)).toBe(false);
          // Each restored template is whole: a few of them read back with their names.
          for (const a of [before[0], before[before.length - 1]] as { id: string; name: string }[]) {
            const got = await call(again.url, "GET", `/api/v1/templates/${a.id}`, { key: again.adminKey });
            expect(got.json.name).toBe(a.name);
          }
          // What the restore did not bring back was acknowledged after the backup began.
          const known = new Set(acked.map((a) => a.id));
          expect([...ids].filter((id) => !known.has(id))).toHaveLength(150);
        } finally {
          await again.close();
        }
      } finally {
        await server.close();
        await db.drop();
      }
    },
    6 * CLI_TIMEOUT_MS,
  );
});

describe("backup and restore refuse what they must not do", () => {
  it(
    "a backup never overwrites a file; restore refuses a file that is not a backup, and a backup made by a newer release",
    async () => {
      const db = await createTestDatabase("sqlite");
      const server = await startTestServer({ database: db.config });
      await server.close();
      try {
        const existing = path.join(tmp, "existing.backup");
        writeFileSync(existing, "precious");
        const overwrite = await runCli(["backup", existing], databaseEnv(db.config));
        expect(overwrite.status).toBe(1);
        expect(overwrite.stderr).toContain("exists: choose a new file name");

        const notBackup = await runCli(["restore", existing], databaseEnv(db.config));
        expect(notBackup.status).toBe(1);
        expect(notBackup.stderr).toMatch(/is not a SQLite database mailrender can read/);
        expect(notBackup.stderr).not.toMatch(/\n\s+at /);

        await rawSql(db.config, "INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_a_newer_release', '2099-01-01T00:00:00.000Z')");
        const newer = path.join(tmp, "newer.backup");
        expect((await runCli(["backup", newer], databaseEnv(db.config))).status).toBe(0);
        const refused = await runCli(["restore", newer], databaseEnv(db.config));
        expect(refused.status).toBe(1);
        expect(refused.stderr).toContain("was made by a newer release of mailrender (migrations 9999_from_a_newer_release)");

        // Rolling the software back over a database a newer release migrated: refused, with the way out.
        const migrate = await runCli(["migrate"], databaseEnv(db.config));
        expect(migrate.status).toBe(1);
        expect(migrate.stderr).toContain("the database was migrated by a newer release of mailrender (migration 9999_from_a_newer_release");
        expect(migrate.stderr).toContain("restore the backup taken before the upgrade");
      } finally {
        await db.drop();
      }
    },
    5 * CLI_TIMEOUT_MS,
  );
});

describe("configuration", () => {
  it("reads KEY=value settings files as systemd's EnvironmentFile does; the environment wins; a misspelt setting is an error", () => {
    const file = path.join(tmp, "server.env");
    writeFileSync(
      file,
      [
        "# mailrender",
        "",
        "PORT=9000",
        'HOST="0.0.0.0"',
        "export LOG_LEVEL='warn'",
        "MAILRENDER_TRUST_PROXY=127.0.0.1, 10.0.0.0/8",
        "MAILRENDER_SQLITE_PATH=/var/lib/mailrender/db",
      ].join("\n"),
    );
    expect(readSettingsFile(file)).toEqual({
      PORT: "9000",
      HOST: "0.0.0.0",
      LOG_LEVEL: "warn",
      MAILRENDER_TRUST_PROXY: "127.0.0.1, 10.0.0.0/8",
      MAILRENDER_SQLITE_PATH: "/var/lib/mailrender/db",
    });
    const config = loadConfigWithFile(file, { PORT: "9001" });
    expect(config.port).toBe(9001);
    expect(config.host).toBe("0.0.0.0");
    expect(config.logLevel).toBe("warn");
    expect(config.trustProxy).toBe("127.0.0.1,10.0.0.0/8");
    expect(config.database).toEqual({ kind: "sqlite", path: "/var/lib/mailrender/db" });

    writeFileSync(file, "PORT=9000\nMAILRENDER_RATE_LIMT_MAX=5\n");
    expect(() => loadConfigWithFile(file, {})).toThrow(/unknown setting MAILRENDER_RATE_LIMT_MAX/);
    // A file naming both databases is not an unknown setting: DATABASE_URL wins.
    writeFileSync(file, "DATABASE_URL=postgres://u@h/db\nMAILRENDER_SQLITE_PATH=/x.db\n");
    expect(loadConfigWithFile(file, {}).database).toEqual({ kind: "postgres", url: "postgres://u@h/db" });
    writeFileSync(file, "PORT 9000\n");
    expect(() => loadConfigWithFile(file, {})).toThrow(/server.env:1: expected KEY=value/);
    expect(() => loadConfigWithFile(path.join(tmp, "missing.env"), {})).toThrow(ConfigError);
  });

  it("MAILRENDER_TRUST_PROXY takes addresses, CIDR ranges and proxy-addr's names, and nothing else", () => {
    expect(parseTrustProxy("127.0.0.1")).toBe("127.0.0.1");
    expect(parseTrustProxy("loopback, 10.0.0.0/8, ::1, fd00::/8")).toBe("loopback,10.0.0.0/8,::1,fd00::/8");
    expect(parseTrustProxy(" ")).toBeUndefined();
    for (const bad of ["true", "*", "10.0.0.0/33", "example.com", "10.0.0.1/8/1"]) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/MAILRENDER_TRUST_PROXY/);
    }
    expect(() => loadConfig({ MAILRENDER_LOG_FORMAT: "yaml" })).toThrow(/MAILRENDER_LOG_FORMAT must be 'pretty' or 'json'/);
  });

  it(
    "`serve --config FILE` listens where the file says",
    async () => {
      const port = await new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, "127.0.0.1", () => {
          const { port: p } = s.address() as net.AddressInfo;
          s.close(() => resolve(p));
        });
      });
      const file = path.join(tmp, "serve.env");
      writeFileSync(file, `PORT=${port}\nMAILRENDER_SQLITE_PATH=${path.join(tmp, "serve.db")}\nMAILRENDER_LOG_FORMAT=json\n`);
      const { spawn } = await import("node:child_process");
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve", "--config", file], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        env: { ...process.env, DATABASE_URL: "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        let out = "";
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), CLI_TIMEOUT_MS);
          child.stdout.on("data", (c: Buffer) => {
            out += c.toString();
            if (out.includes("Server listening")) {
              clearTimeout(timer);
              resolve();
            }
          });
          child.stderr.on("data", (c: Buffer) => (out += c.toString()));
        });
        expect(JSON.parse(out.split("\n")[0] as string).msg).toMatch(/^Server listening at http:\/\/127\.0\.0\.1:\d+$/);
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      } finally {
        child.kill("SIGTERM");
      }
    },
    CLI_TIMEOUT_MS,
  );

  it(
    "--help lists every command, --version prints the version, an unknown command exits 2",
    async () => {
      const help = await runCli(["--help"]);
      expect(help.status).toBe(0);
      for (const command of ["serve", "migrate", "create-admin-key", "import-templates", "backup", "restore", "--config FILE"])
        expect(help.stdout).toContain(command);
      const version = await runCli(["--version"]);
      expect(version.stdout).toMatch(/^mailrender-server \d+\.\d+\.\d+\n$/);
      const unknown = await runCli(["bakup"]);
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain("unknown command 'bakup'");
    },
    3 * CLI_TIMEOUT_MS,
  );
});

/** Logs of a server started with `trustProxy`, captured. */
async function serverLoggingTo(trustProxy: string | undefined) {
  const db = await createTestDatabase("sqlite");
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config: ServerConfig = {
    ...loadConfig({}),
    host: "127.0.0.1",
    port: 0,
    database: db.config,
    adminKey: generateApiKey(),
    render: { workers: 1, timeoutMs: DEFAULTS.renderTimeoutMs },
    ...(trustProxy === undefined ? {} : { trustProxy }),
  };
  const server = await startServer(config, stream);
  return {
    server,
    adminKey: config.adminKey,
    lines,
    /** The client addresses logged for the requests whose URL starts with `path`. */
    addresses: (path: string) => lines.filter((l) => l["msg"] === "request completed" && String(l["url"]).startsWith(path)).map((l) => l["remoteAddress"]),
    async close() {
      await server.close();
      await db.drop();
    },
  };
}

describe("behind a reverse proxy", () => {
  it("with MAILRENDER_TRUST_PROXY naming the proxy, the log shows the client's address from X-Forwarded-For; otherwise the peer's", async () => {
    const cases = [
      // The proxy appends the address it saw; the client is the first untrusted address from the right.
      ["127.0.0.1", "203.0.113.7", "203.0.113.7"],
      ["loopback", "203.0.113.7", "203.0.113.7"],
      // A client that sends its own X-Forwarded-For cannot choose the address it is logged under.
      ["127.0.0.1", "198.51.100.9, 203.0.113.7", "203.0.113.7"],
      // Nobody trusted, or the peer not among the trusted: the peer's address.
      [undefined, "203.0.113.7", "127.0.0.1"],
      ["10.0.0.0/8", "203.0.113.7", "127.0.0.1"],
    ] as const;
    for (const [trust, header, expected] of cases) {
      const logged = await serverLoggingTo(trust);
      try {
        const { url } = logged.server;
        const forwarded = { "x-forwarded-for": header };
        await call(url, "GET", "/healthz", { headers: forwarded });
        // The SDK template fetch: its first answer is the route's, the next the hot path's, which
        // reads the address itself (http/client-address.ts).
        const id = (await call(url, "POST", "/api/v1/templates", { key: logged.adminKey, body: sampleTemplate("Proxied") })).json.id as string;
        const key = (await call(url, "POST", "/api/v1/keys", { key: logged.adminKey, body: { name: "proxied", targets: ["all"] } })).json.key as string;
        for (let i = 0; i < 2; i++) expect((await call(url, "GET", `/v1/sdk/template/${id}`, { key, headers: forwarded })).status).toBe(200);
        // The line is written once the answer has left, which the client may see first.
        await waitUntil(async () => logged.addresses("/healthz").length > 0 && logged.addresses("/v1/sdk/").length === 2, 5_000);
        expect(logged.addresses("/healthz"), `${trust} / ${header}`).toEqual([expected]);
        expect(logged.addresses("/v1/sdk/"), `${trust} / ${header}, the SDK fetch`).toEqual([expected, expected]);
      } finally {
        await logged.close();
      }
    }
  });

  it("`/` sends a browser to the studio", async () => {
    const db = await createTestDatabase("sqlite");
    const server = await startTestServer({ database: db.config });
    try {
      const res = await fetch(`${server.url}/`, { redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/studio");
    } finally {
      await server.close();
      await db.drop();
    }
  });
});

describe("the request log", () => {
  it("one JSON line per answered request: id, method, redacted URL, status, time, client and user agent; no headers", async () => {
    const logged = await serverLoggingTo(undefined);
    try {
      const secret = generateApiKey();
      await call(logged.server.url, "GET", `/healthz?token=${secret}`, { headers: { "user-agent": "probe/1.0", authorization: `Bearer ${secret}` } });
      await waitUntil(async () => logged.addresses("/healthz").length > 0, 5_000);
      const requests = logged.lines.filter((l) => l["reqId"] !== undefined);
      expect(requests).toHaveLength(1);
      const { time, pid, hostname, responseTime, ...line } = requests[0] ?? {};
      expect(line).toEqual({
        level: 30,
        reqId: expect.stringMatching(/^req-/),
        method: "GET",
        url: "/healthz?token=[REDACTED]",
        statusCode: 200,
        remoteAddress: "127.0.0.1",
        userAgent: "probe/1.0",
        msg: "request completed",
      });
      expect([typeof time, pid, hostname, typeof responseTime]).toEqual(["number", process.pid, os.hostname(), "number"]);
      // The documented order, the order of pino's own records: level, time, pid, hostname, then the line's fields.
      expect(Object.keys(requests[0] ?? {}).join(" ")).toBe("level time pid hostname reqId method url statusCode responseTime remoteAddress userAgent msg");
      // The terminal form reads the same line.
      let out = "";
      prettyLog({ write: (text: string) => (out += text) }).write(`${JSON.stringify(requests[0])}\n`);
      expect(out).toMatch(/^\d\d:\d\d:\d\d GET \/healthz\?token=\[REDACTED\] 200 \d+\.\d ms 127\.0\.0\.1\n$/);
    } finally {
      await logged.close();
    }
  });
  it("a request whose client goes away before the answer: one `request aborted` line, without status", async () => {
    const logged = await serverLoggingTo(undefined);
    try {
      const { port } = new URL(logged.server.url);
      const socket = net.connect(Number(port), "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      // Half a body: the server waits for the rest, and the client leaves.
      socket.write(
        `POST /api/v1/templates?token=${generateApiKey()} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${logged.adminKey}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
      );
      await new Promise((r) => setTimeout(r, 200));
      socket.destroy();
      await waitUntil(async () => logged.lines.some((l) => l["msg"] === "request aborted"), 5_000);
      const requests = logged.lines.filter((l) => l["method"] !== undefined);
      expect(requests.map((l) => [l["msg"], l["method"], l["url"], l["statusCode"]])).toEqual([
        ["request aborted", "POST", "/api/v1/templates?token=[REDACTED]", undefined],
      ]);
      // The body's read fails with the connection's ECONNRESET: the client's doing, not the database's.
      await new Promise((r) => setTimeout(r, 200));
      expect(logged.lines.filter((l) => l["reqId"] !== undefined).map((l) => l["msg"])).toEqual(["request aborted"]);
      let out = "";
      prettyLog({ write: (text: string) => (out += text) }).write(`${JSON.stringify(requests[0])}\n`);
      expect(out).toMatch(/^\d\d:\d\d:\d\d POST \/api\/v1\/templates\?token=\[REDACTED\] aborted\n$/); // the address left with the connection
    } finally {
      await logged.close();
    }
  });
});

describe("the log on a terminal", () => {
  it("one readable line per answered request, with method, path, status, time and client; other records as time and message", () => {
    let out = "";
    const log = prettyLog({ write: (text: string) => (out += text) });
    const time = new Date(2026, 0, 2, 9, 5, 7).getTime();
    log.write(`${JSON.stringify({ level: 30, time, msg: "Server listening at http://127.0.0.1:8787" })}\n`);
    const request = { method: "GET", url: "/v1/sdk/template/abc?target=html", remoteAddress: "203.0.113.7", userAgent: "mailrender-js" };
    log.write(`${JSON.stringify({ level: 30, time, reqId: "req-1", ...request, statusCode: 304, responseTime: 1.234, msg: "request completed" })}\n`);
    log.write(`${JSON.stringify({ level: 50, time, msg: "boom", err: { type: "Error", message: "boom", stack: "Error: boom\n    at x" } })}\n`);
    expect(out).toBe(
      [
        "09:05:07 Server listening at http://127.0.0.1:8787",
        "09:05:07 GET /v1/sdk/template/abc?target=html 304 1.2 ms 203.0.113.7",
        "09:05:07 ERROR boom",
        "    Error: boom",
        "        at x",
        "",
      ].join("\n"),
    );
  });
});

describe("the JSON log", () => {
  it("writes every line whole and in order, multi-byte characters included, while earlier writes are in flight", async () => {
    const file = path.join(tmp, "json.log");
    const fd = openSync(file, "w");
    try {
      const log = logDestination({ logFormat: "json" }, { fd, isTTY: false } as unknown as NodeJS.WriteStream);
      // Lines given in one turn queue behind the first write; the user agents are not ASCII.
      const lines = Array.from({ length: 2_000 }, (_, i) => `${JSON.stringify({ reqId: `req-${i}`, userAgent: `Mozilla/5.0 (café ☕ 𝄞 ${i})` })}\n`);
      for (const line of lines) log.write(line);
      const expected = lines.join("");
      await waitUntil(async () => Buffer.byteLength(readFileSync(file, "utf8")) >= Buffer.byteLength(expected), 5_000);
      expect(readFileSync(file, "utf8")).toBe(expected);
    } finally {
      closeSync(fd);
    }
  });
});
