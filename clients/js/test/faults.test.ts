/**
 * Outages: timeouts, refused connections, 5xx and 429. The real server sits behind each fault where it
 * can (the flaky proxy passes requests through to it once its scripted failures are spent); the slow
 * endpoint and the closed port are tiny real sockets, because the real server cannot be told to stall.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailrenderError } from "../src/errors.js";
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, withRetries } from "../src/http/retry.js";
import { MailrenderClient } from "../src/index.js";
import { createKey, createTemplate, sampleTemplate } from "./helpers/admin.js";
import { closedPortUrl, flakyProxy, slowServer } from "./helpers/faults.js";
import { type RealServer, startServer } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";

let server: RealServer;
let key: string;
let templateId: string;

beforeAll(async () => {
  server = await startServer();
  key = (await createKey(server, ["all"])).key;
  templateId = await createTemplate(server, sampleTemplate("Faults"));
});

afterAll(async () => {
  await server?.stop();
});

describe("timeout (AbortController)", () => {
  it("a server slower than `timeout` gives TIMEOUT with status 0, once (timeouts are not retried)", async () => {
    const slow = await slowServer(5_000);
    try {
      const c = new MailrenderClient({ apiKey: key, baseUrl: slow.url, timeout: 300 });
      const started = Date.now();
      const error = await c.renderHtml(templateId).catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(MailrenderError);
      expect(error).toMatchObject({ code: "TIMEOUT", status: 0 });
      expect((error as Error).message).toContain("300 ms");
      expect(elapsed).toBeGreaterThanOrEqual(280);
      expect(elapsed).toBeLessThan(2_000);
      expect(slow.hits).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it("the timeout also covers a body that stalls after the headers", async () => {
    const slow = await slowServer(5_000, true);
    try {
      const c = new MailrenderClient({ apiKey: key, baseUrl: slow.url, timeout: 300 });
      await expect(c.renderHtml(templateId)).rejects.toMatchObject({ code: "TIMEOUT", status: 0 });
    } finally {
      await slow.close();
    }
  });

  it("an expired entry is served stale when the revalidation times out", async () => {
    const slow = await slowServer(5_000);
    try {
      // Fill the cache through the real server, then point a client sharing nothing but the disk at the slow one.
      const dir = tempDir("timeout");
      await new MailrenderClient({ apiKey: key, baseUrl: server.url, cache: { type: "disk", path: dir } }).renderHtml(templateId);
      const c = new MailrenderClient({ apiKey: key, baseUrl: slow.url, timeout: 200, cache: { type: "disk", path: dir, ttl: 0 } });
      const result = await c.render({ templateId });
      expect(result.fromStaleCache).toBe(true);
      expect(result.output).toContain("Faults there");
    } finally {
      await slow.close();
    }
  });
});

describe("retries of the template fetch", () => {
  it("a refused connection is retried twice with backoff, then NETWORK_ERROR with status 0", async () => {
    const url = await closedPortUrl();
    const c = new MailrenderClient({ apiKey: key, baseUrl: url });
    const started = Date.now();
    const error = await c.renderHtml(templateId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NETWORK_ERROR", status: 0 });
    expect((error as Error).message).toContain(url);
    expect((error as Error).message).not.toContain(key.slice(8));
    // Two backoffs: at least 0.5 × (250 + 500) ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(370);
  });

  it("two 5xx answers are retried and the third attempt reaches the real server", async () => {
    const proxy = await flakyProxy(server.url, [{ status: 503 }, { status: 500 }]);
    try {
      const c = new MailrenderClient({ apiKey: key, baseUrl: proxy.url });
      expect(await c.renderHtml(templateId)).toContain("Faults there");
      expect(proxy.hits).toBe(3);
      const gaps = [proxy.times[1]! - proxy.times[0]!, proxy.times[2]! - proxy.times[1]!];
      expect(gaps[0]).toBeGreaterThanOrEqual(120); // 250 ms × [0.5, 1)
      expect(gaps[1]).toBeGreaterThanOrEqual(245); // 500 ms × [0.5, 1)
    } finally {
      await proxy.close();
    }
  });

  it("three 5xx answers: gives up after 2 retries with UNKNOWN and the status", async () => {
    const proxy = await flakyProxy(server.url, [{ status: 502 }, { status: 503 }, { status: 504 }]);
    try {
      const c = new MailrenderClient({ apiKey: key, baseUrl: proxy.url });
      await expect(c.renderHtml(templateId)).rejects.toMatchObject({ code: "UNKNOWN", status: 504 });
      expect(proxy.hits).toBe(3);
    } finally {
      await proxy.close();
    }
  });

  it("a 429 waits for Retry-After before retrying", async () => {
    const proxy = await flakyProxy(server.url, [{ status: 429, headers: { "retry-after": "1" } }]);
    try {
      const c = new MailrenderClient({ apiKey: key, baseUrl: proxy.url });
      expect(await c.renderHtml(templateId)).toContain("Faults there");
      expect(proxy.hits).toBe(2);
      expect(proxy.times[1]! - proxy.times[0]!).toBeGreaterThanOrEqual(950);
    } finally {
      await proxy.close();
    }
  });

  it("the real server's own rate limit (429 + Retry-After) is waited out", async () => {
    // Two requests per key per second: the admin key needs exactly two (a key, a template).
    const limited = await startServer({ env: { MAILRENDER_RATE_LIMIT_MAX: "2", MAILRENDER_RATE_LIMIT_WINDOW_MS: "1000" } });
    try {
      const k = (await createKey(limited, ["html"])).key;
      const id = await createTemplate(limited, sampleTemplate("Limited"));
      // ttl 0: every render revalidates, so the third render is the key's third request in the window.
      const c = new MailrenderClient({ apiKey: k, baseUrl: limited.url, cache: { ttl: 0 } });
      // Load the engine and MJML first (elsewhere), so the three renders below fall in one window.
      await new MailrenderClient({ apiKey: key, baseUrl: server.url }).renderHtml(templateId);
      for (let i = 0; i < 3; i++) expect(await c.renderHtml(id)).toContain("Limited there");
      expect((await limited.templateFetches()).map((r) => r.status)).toEqual([200, 304, 429, 304]);
    } finally {
      await limited.stop();
    }
  });

  it("a Retry-After longer than the client waits ends the retries at once", async () => {
    const proxy = await flakyProxy(server.url, [{ status: 429, headers: { "retry-after": "3600" } }]);
    try {
      const c = new MailrenderClient({ apiKey: key, baseUrl: proxy.url });
      await expect(c.renderHtml(templateId)).rejects.toMatchObject({ code: "UNKNOWN", status: 429, message: "scripted 429" });
      expect(proxy.hits).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});

describe("retry schedule (pure functions)", () => {
  it("backoff doubles and stays within [0.5, 1) of the step", () => {
    const at = (random: number, n: number) => backoffDelay(n, { ...DEFAULT_RETRY_POLICY, random: () => random });
    expect([at(0, 0), at(0, 1)]).toEqual([125, 250]);
    expect([at(0.999, 0), at(0.999, 1)]).toEqual([250, 500]);
  });

  it("Retry-After is read as seconds or as an HTTP-date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it("never retries a 4xx or a timeout", async () => {
    for (const error of [new MailrenderError("FORBIDDEN", 403, "no"), new MailrenderError("TIMEOUT", 0, "slow")]) {
      let attempts = 0;
      await expect(
        withRetries(
          async () => {
            attempts++;
            return { ok: false, error, retryAfterMs: undefined };
          },
          { ...DEFAULT_RETRY_POLICY, sleep: async () => undefined },
        ),
      ).rejects.toBe(error);
      expect(attempts).toBe(1);
    }
  });
});

describe("a service that sends no X-Key-Targets", () => {
  it("only targets the service accepted are rendered from the cache; others are asked for", async () => {
    const narrow = (await createKey(server, ["html", "mjml"])).key;
    const proxy = await flakyProxy(server.url, [], ["x-key-targets"]);
    try {
      const c = new MailrenderClient({ apiKey: narrow, baseUrl: proxy.url });
      await c.renderHtml(templateId);
      await c.renderHtml(templateId);
      expect(proxy.hits).toBe(1);
      await c.renderMjml(templateId); // not known yet: a conditional request with ?target=mjml
      await c.renderMjml(templateId);
      expect(proxy.hits).toBe(2);
      await expect(c.renderReact(templateId)).rejects.toMatchObject({ code: "FORBIDDEN", status: 403 }); // the service says no
      expect(proxy.hits).toBe(3);
    } finally {
      await proxy.close();
    }
  });
});
