import net from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/auth/keys.js";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer, waitUntil } from "./helpers/server.js";

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  body: any;
  elapsedMs: number;
}

/** Writes bytes on a fresh socket (optionally in timed parts) and reads one response until close. */
function rawRequest(port: number, parts: (string | { waitMs: number })[], timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1", async () => {
      for (const part of parts) {
        if (typeof part === "string") socket.write(part);
        else await new Promise((r) => setTimeout(r, part.waitMs));
      }
    });
    let data = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms; got ${JSON.stringify(data)}`));
    }, timeoutMs);
    socket.on("data", (c: Buffer) => (data += c.toString("utf8")));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const [head = "", ...rest] = data.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const at = line.indexOf(":");
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      const text = rest.join("\r\n\r\n");
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: text === "" ? undefined : JSON.parse(text), elapsedMs: Date.now() - started });
    });
  });
}

function expectErrorShape(res: { status: number; body: Record<string, unknown> }, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe("string");
  expect(res.body.detail).toBe(res.body.message);
  expect(Object.keys(res.body).sort()).toEqual(["code", "detail", "message"]);
}

describe("every error has the documented body, even from the HTTP parser", () => {
  let db: TestDatabase;
  let server: TestServer;
  let port: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    const logs = new PassThrough();
    logs.on("data", (c: Buffer) => logLines.push(...c.toString("utf8").split("\n").filter(Boolean)));
    server = await startTestServer({ database: db.config, requestTimeoutMs: 1_500, logger: logs });
    port = Number(new URL(server.url).port);
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  /** The request log's lines so far (one per answered request). */
  function requestLines(): { url: string; userAgent?: string }[] {
    return logLines.map((line) => JSON.parse(line) as { msg?: string; url: string; userAgent?: string }).filter((line) => line.msg === "request completed");
  }
  /** A request's line is written once its answer has left, which the client may see first. */
  async function waitForRequestLines(count: number): Promise<void> {
    await waitUntil(async () => requestLines().length >= count, 5_000);
  }

  it("a malformed request line: 4xx/5xx with code, message and detail", async () => {
    const res = await rawRequest(port, ["GET /healthz HTTP/1.1 extra\r\nHost: x\r\n\r\n"]);
    expectErrorShape(res, 400, "BAD_REQUEST");
    expect(res.headers["connection"]).toBe("close");
  });

  it("an unknown method in a well-formed request line: 501 NOT_IMPLEMENTED", async () => {
    expectErrorShape(await rawRequest(port, ["FROBNICATE /healthz HTTP/1.1\r\nHost: x\r\n\r\n"]), 501, "NOT_IMPLEMENTED");
    expectErrorShape(await rawRequest(port, ["get /healthz HTTP/1.1\r\nHost: x\r\n\r\n"]), 501, "NOT_IMPLEMENTED"); // methods are case-sensitive
  });

  it("a garbage request line (which Node's parser calls an invalid method): 400 BAD_REQUEST, not 501", async () => {
    const garbage = [
      "garbage\r\n\r\n",
      "hello world\r\n\r\n",
      "GET\r\n\r\n",
      " GET /healthz HTTP/1.1\r\n\r\n",
      "G@T /healthz HTTP/1.1\r\n\r\n",
      "\x16\x03\x01\x02\x00\x01\x00\x01",
    ];
    for (const line of garbage) {
      const res = await rawRequest(port, [line]);
      expectErrorShape(res, 400, "BAD_REQUEST");
      expect(res.body.message, JSON.stringify(line)).toBe("Malformed HTTP request line");
      expect(res.headers["connection"]).toBe("close");
    }
  });

  it("Content-Length together with Transfer-Encoding: 400 BAD_REQUEST", async () => {
    const res = await rawRequest(port, ["POST /api/v1/keys HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"]);
    expectErrorShape(res, 400, "BAD_REQUEST");
  });

  it("headers over the limit: 431 HEADERS_TOO_LARGE", async () => {
    const res = await rawRequest(port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`]);
    expectErrorShape(res, 431, "HEADERS_TOO_LARGE");
  });

  it("a body sent too slowly: 408 REQUEST_TIMEOUT after the request timeout, not minutes later", async () => {
    const head = `POST /api/v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const res = await rawRequest(port, [head, '{"na']);
    expectErrorShape(res, 408, "REQUEST_TIMEOUT");
    expect(res.elapsedMs).toBeLessThan(1_500 + 2_500); // the timeout plus Node's 1 s check interval and slack
  });

  it("a request refused before its body arrives is answered and closed at once", async () => {
    const res = await rawRequest(port, ['POST /api/v1/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"na']);
    expectErrorShape(res, 401, "INVALID_API_KEY");
    expect(res.headers["connection"]).toBe("close");
    expect(res.elapsedMs).toBeLessThan(1_000);
  });

  it("CONNECT: 405 instead of a silently closed socket", async () => {
    const res = await rawRequest(port, ["CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"]);
    expectErrorShape(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers["allow"]).toBeDefined();
  });

  it("QUERY on a known path: 405 with Allow (not 400)", async () => {
    const res = await rawRequest(port, [`QUERY /api/v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminKey}\r\nConnection: close\r\n\r\n`]);
    expectErrorShape(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers["allow"]).toBe("GET, HEAD, POST");
  });

  it("errors from the routes carry detail too", async () => {
    const res = await call(server.url, "GET", "/api/v1/keys");
    expectErrorShape({ status: res.status, body: res.json }, 401, "INVALID_API_KEY");
    const invalid = await call(server.url, "POST", "/api/v1/keys", { key: server.adminKey, body: { name: "" } });
    expect(invalid.status).toBe(422);
    expect(invalid.json.detail).toBe(invalid.json.message);
    expect(Array.isArray(invalid.json.issues)).toBe(true);
  });

  it("DELETE and a body-less rotate with Content-Type: application/json are accepted", async () => {
    const headers = { "content-type": "application/json" };
    const created = await call(server.url, "POST", "/api/v1/keys", { key: server.adminKey, body: { name: "header-everywhere", targets: ["html"] } });
    const rotated = await call(server.url, "POST", `/api/v1/keys/${created.json.id}/rotate`, { key: server.adminKey, headers });
    expect(rotated.status, rotated.text).toBe(200);
    const revoked = await call(server.url, "DELETE", `/api/v1/keys/${created.json.id}`, { key: server.adminKey, headers });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json.status).toBe("revoked");
    // A JSON null is a body, and not an object.
    const nullBody = await call(server.url, "POST", `/api/v1/keys/${created.json.id}/rotate`, { key: server.adminKey, headers, rawBody: "null" });
    expect(nullBody.status).toBe(422);
    expect(nullBody.json.issues).toEqual([{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" }]);
    // A route that needs a body still says so.
    const empty = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, headers });
    expect(empty.status).toBe(422);
    expect(empty.json.issues).toEqual([{ loc: ["body"], msg: "Field required", type: "missing" }]);
  });

  it("key-shaped secrets are redacted wherever they appear in a logged request", async () => {
    const secret = server.adminKey;
    const hex = secret.slice(8);
    const before = requestLines().length;
    await call(server.url, "GET", `/api/v1/keys?api_key=${secret}`, {
      headers: { "x-api-key": secret, "proxy-authorization": `Bearer ${secret}`, "x-custom": `token ${secret}`, "user-agent": `curl/8 ${secret}` },
    });
    await call(server.url, "GET", `/v1/sdk/template/${secret}?token=${hex}`, { key: secret, headers: { "user-agent": `probe Bearer ${hex}` } });
    await call(server.url, "GET", `/healthz?key=${hex}&other=1`, { headers: { authorization: `Basic ${Buffer.from(`u:${secret}`).toString("base64")}` } });
    await waitForRequestLines(before + 3);
    const all = logLines.join("\n");
    expect(all).toContain("[REDACTED]");
    expect(all).toContain("other=1"); // not everything is removed
    expect(all).toContain("curl/8 [REDACTED]"); // the user agent is logged, its credentials are not
    expect(all).toContain("probe Bearer [REDACTED]");
    expect(all).not.toContain(hex);
    expect(all).not.toContain(hex.slice(0, 24));
    expect(all).not.toContain(Buffer.from(`u:${secret}`).toString("base64").slice(0, 24));
  });

  it("unnamed query values shaped like a key or its secret are redacted, percent-encoded too", async () => {
    const secret = generateApiKey();
    const hex = secret.slice(8);
    const encoded = [...hex].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
    const uuid = "3f1c2a4e-8b7d-4c6e-9f0a-1b2c3d4e5f60";
    const paths = [
      `/healthz?${hex}`,
      `/healthz?probe=unnamed-secret&${hex.slice(0, 56)}`,
      `/healthz?probe=unnamed-key&${secret}`,
      `/healthz?probe=encoded&${encoded}`,
      `/healthz?probe=named&colour=${encoded}`,
      `/healthz?probe=as-name&${encoded}=1`,
      `/healthz?probe=kept&${uuid}&limit=5&etag=v1-0123456789abcdef&sha1=${"ab12".repeat(10)}`,
    ];
    const before = requestLines().length;
    const userAgent = `probe (trace 00-${"0af7651916cd43dd8448eb211c80319c"}-01)`;
    for (const path of paths) expect((await call(server.url, "GET", path, { headers: { "user-agent": userAgent } })).status).toBe(200);
    await waitForRequestLines(before + paths.length);
    const logged = requestLines().slice(before);
    const urls = logged.map((line) => line.url);
    expect(urls).toEqual([
      "/healthz?[REDACTED]",
      "/healthz?probe=unnamed-secret&[REDACTED]",
      "/healthz?probe=unnamed-key&[REDACTED]",
      "/healthz?probe=encoded&[REDACTED]",
      "/healthz?probe=named&colour=[REDACTED]",
      "/healthz?probe=as-name&[REDACTED]",
      `/healthz?probe=kept&${uuid}&limit=5&etag=v1-0123456789abcdef&sha1=${"ab12".repeat(10)}`,
    ]);
    // Hex the service and its callers use for other things is not taken for a secret.
    expect(logged[0]?.userAgent).toBe(userAgent);
    const all = JSON.stringify(logged);
    expect(all).not.toContain(hex.slice(0, 48));
    expect(all).not.toContain(encoded.slice(0, 60));
  });
});
