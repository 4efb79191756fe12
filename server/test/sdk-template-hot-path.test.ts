import { get } from "node:http";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RateLimiter } from "../src/auth/rate-limit.js";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer, waitUntil } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

/**
 * GET /v1/sdk/template/{id} is answered before Fastify routes it when the cache holds the key and the
 * template (routes/sdk-template-hot-path.ts). A template's first fetch misses the cache and goes
 * through Fastify's route; the next is answered by the hot path (the only caller of the limiter's
 * `admits`). Both must be the same answer, byte for byte but the date, and the same log line.
 */
describe("the SDK template fetch's hot path", () => {
  let db: TestDatabase;
  let server: TestServer;
  const lines: Record<string, unknown>[] = [];
  const admits = vi.spyOn(RateLimiter.prototype, "admits");
  const LIMIT = 5;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    const logger = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n")) if (line !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    server = await startTestServer({ database: db.config, logger, cacheTtlMs: 60_000, rateLimit: { max: LIMIT, adminMax: 0, windowMs: 60_000 } });
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
    admits.mockRestore();
  });

  async function newTemplate(): Promise<string> {
    const created = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: sampleTemplate("Hot") });
    expect(created.status, created.text).toBe(201);
    return created.json.id as string;
  }

  async function newKey(targets: string[]): Promise<string> {
    const created = await call(server.url, "POST", "/api/v1/keys", { key: server.adminKey, body: { name: "hot-path", targets } });
    expect(created.status, created.text).toBe(201);
    return created.json.key as string;
  }

  /** One request on a connection of its own: status, headers in the order sent (the date left out), body. */
  function fetchRaw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: string[]; body: string }> {
    return new Promise((resolve, reject) => {
      get(`${server.url}${path}`, { headers, agent: false }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => {
          const raw = response.rawHeaders;
          const kept = raw.flatMap((value, i) => (i % 2 === 0 && value.toLowerCase() !== "date" ? [`${value}: ${raw[i + 1]}`] : []));
          resolve({ status: response.statusCode ?? 0, headers: kept, body });
        });
      }).on("error", reject);
    });
  }

  /** The `request completed` line of a path's last request, without what differs between two requests (id, time). */
  async function lastLine(path: string): Promise<Record<string, unknown>> {
    let found: Record<string, unknown> | undefined;
    await waitUntil(async () => {
      found = lines.findLast((line) => line["url"] === path && line["msg"] === "request completed");
      return found !== undefined;
    }, 5_000);
    const { reqId, time, responseTime, ...rest } = found!;
    expect([typeof reqId, typeof time, typeof responseTime]).toEqual(["string", "number", "number"]);
    lines.length = 0;
    return rest;
  }

  /** The first fetch (Fastify's route) and the second (the hot path) of a new template, compared. */
  async function bothWays(path: (id: string) => string, headers: (etag: string) => Record<string, string>) {
    const id = await newTemplate();
    const etag = (await call(server.url, "GET", `/api/v1/templates/${id}`, { key: server.adminKey })).headers.get("etag") ?? "";
    const before = admits.mock.calls.length;
    const framework = await fetchRaw(path(id), headers(etag));
    const frameworkLine = await lastLine(path(id));
    expect(admits.mock.calls.length, "the first fetch misses the cache").toBe(before);
    const hot = await fetchRaw(path(id), headers(etag));
    const hotLine = await lastLine(path(id));
    expect(admits.mock.calls.length, "the second is the hot path's").toBe(before + 1);
    expect(hot).toEqual(framework);
    expect(hotLine).toEqual(frameworkLine);
    return hot;
  }

  it("answers a fetch as the route does: 200 with the template, its ETag and the key's targets", async () => {
    const key = await newKey(["html", "mjml"]);
    const hot = await bothWays(
      (id) => `/v1/sdk/template/${id}`,
      () => ({ authorization: `Bearer ${key}`, "user-agent": 'probe "1.0"' }),
    );
    expect(hot.status).toBe(200);
    expect(hot.headers).toContain("x-key-targets: html,mjml");
    expect(JSON.parse(hot.body)).toMatchObject({ template_name: "Hot" });
  });

  it("answers If-None-Match with the route's 304, no body, no length", async () => {
    const key = await newKey(["all"]);
    const hot = await bothWays(
      (id) => `/v1/sdk/template/${id}`,
      (etag) => ({ authorization: `Bearer ${key}`, "if-none-match": `W/${etag}` }),
    );
    expect(hot.status).toBe(304);
    expect(hot.body).toBe("");
    expect(hot.headers.some((header) => header.toLowerCase().startsWith("content-length"))).toBe(false);
  });

  it("answers ?target= for a target the key may render", async () => {
    const key = await newKey(["html"]);
    const hot = await bothWays(
      (id) => `/v1/sdk/template/${id}?target=html`,
      () => ({ authorization: `Bearer ${key}` }),
    );
    expect(hot.status).toBe(200);
  });

  it("a fault of its own (injected: the limiter throws) leaves the request to the route, and the server up", async () => {
    const key = await newKey(["html"]);
    const id = await newTemplate();
    const auth = { authorization: `Bearer ${key}` };
    expect((await fetchRaw(`/v1/sdk/template/${id}`, auth)).status).toBe(200);
    admits.mockImplementationOnce(() => {
      throw new Error("injected");
    });
    const answered = await fetchRaw(`/v1/sdk/template/${id}`, auth);
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toMatchObject({ template_name: "Hot" });
    expect((await fetchRaw(`/v1/sdk/template/${id}`, auth)).status).toBe(200);
  });

  it("leaves every refusal to the route: a target out of the key's scope, another query, a key over its limit", async () => {
    const key = await newKey(["html"]);
    const id = await newTemplate();
    const auth = { authorization: `Bearer ${key}` };
    expect((await fetchRaw(`/v1/sdk/template/${id}`, auth)).status).toBe(200);
    const before = admits.mock.calls.length;
    const forbidden = await call(server.url, "GET", `/v1/sdk/template/${id}?target=mjml`, { key });
    expect([forbidden.status, forbidden.json.code]).toEqual([403, "FORBIDDEN"]);
    const unknownQuery = await call(server.url, "GET", `/v1/sdk/template/${id}?target=html&x=1`, { key });
    expect(unknownQuery.status).toBe(422);
    expect(admits.mock.calls.length, "neither reached the limiter through the hot path").toBe(before);
    // The key's limit counts each request once, whichever path answers it: the forbidden one and the
    // malformed one were counted by the route (2), the first fetch too (3); two more fill the window.
    expect((await fetchRaw(`/v1/sdk/template/${id}`, auth)).status).toBe(200);
    expect((await fetchRaw(`/v1/sdk/template/${id}`, auth)).status).toBe(200);
    const limited = await call(server.url, "GET", `/v1/sdk/template/${id}`, { key });
    expect([limited.status, limited.json.code]).toEqual([429, "RATE_LIMITED"]);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
