import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer, waitUntil } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

/**
 * Scale-out: two servers (separate caches, separate connection pools) on one PostgreSQL. A change
 * made through server A must stop being served by server B within B's cache bound (the TTL).
 */
const TTL_MS = 1_000;
// Scheduling slack on a loaded 2-core CI machine; the bound itself is TTL_MS.
const SLACK_MS = 750;

describe("two servers on one PostgreSQL", () => {
  let db: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    db = await createTestDatabase("postgres");
    a = await startTestServer({ database: db.config, cacheTtlMs: TTL_MS });
    b = await startTestServer({ database: db.config, cacheTtlMs: TTL_MS, adminKey: a.adminKey });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  async function setup() {
    const key = (await call(a.url, "POST", "/api/v1/keys", { key: a.adminKey, body: { name: "scale-out", targets: ["html"] } })).json;
    const tpl = (await call(a.url, "POST", "/api/v1/templates", { key: a.adminKey, body: sampleTemplate("shared") })).json;
    // Warm B's caches so the test measures invalidation, not a cold read.
    const warm = await call(b.url, "GET", `/v1/sdk/template/${tpl.id}`, { key: key.key });
    expect(warm.status).toBe(200);
    return { key, tpl, fetch: () => call(b.url, "GET", `/v1/sdk/template/${tpl.id}`, { key: key.key }) };
  }

  it("a key revoked on A is refused by A at once and by B within the bound", async () => {
    const { key, fetch } = await setup();
    const revokedAt = Date.now();
    expect((await call(a.url, "DELETE", `/api/v1/keys/${key.id}`, { key: a.adminKey })).status).toBe(200);
    expect((await call(a.url, "GET", "/healthz")).status).toBe(200);
    const onA = await call(a.url, "POST", "/v1/sdk/render", { key: key.key, body: { template_id: "3f1c2a4e-8b7d-4c6e-9f0a-1b2c3d4e5f60" } });
    expect(onA.status).toBe(401);
    await waitUntil(async () => (await fetch()).status === 401, TTL_MS + SLACK_MS, 25);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(TTL_MS + SLACK_MS);
    // And it stays refused.
    expect((await fetch()).status).toBe(401);
  });

  it("a template replaced on A is served in its new version by B within the bound", async () => {
    const { tpl, fetch } = await setup();
    const replacedAt = Date.now();
    const replaced = await call(a.url, "PUT", `/api/v1/templates/${tpl.id}`, { key: a.adminKey, body: sampleTemplate("shared v2") });
    expect(replaced.status).toBe(200);
    await waitUntil(async () => (await fetch()).headers.get("etag") === replaced.json.etag, TTL_MS + SLACK_MS, 25);
    expect(Date.now() - replacedAt).toBeLessThanOrEqual(TTL_MS + SLACK_MS);
    expect((await fetch()).json.template_name).toBe("shared v2");
  });

  it("a template deleted on A gives 404 on B within the bound", async () => {
    const { tpl, fetch } = await setup();
    const deletedAt = Date.now();
    expect((await call(a.url, "DELETE", `/api/v1/templates/${tpl.id}`, { key: a.adminKey })).status).toBe(204);
    await waitUntil(async () => (await fetch()).status === 404, TTL_MS + SLACK_MS, 25);
    expect(Date.now() - deletedAt).toBeLessThanOrEqual(TTL_MS + SLACK_MS);
  });

  it("B's cache is real: within the bound B may still serve the old copy, never longer", async () => {
    // With a long TTL the stale window is observable, which shows the bound is what limits it.
    const slow = await startTestServer({ database: db.config, cacheTtlMs: 3_000, adminKey: a.adminKey });
    try {
      const key = (await call(a.url, "POST", "/api/v1/keys", { key: a.adminKey, body: { name: "slow", targets: ["html"] } })).json;
      const tpl = (await call(a.url, "POST", "/api/v1/templates", { key: a.adminKey, body: sampleTemplate("cached") })).json;
      const url = `/v1/sdk/template/${tpl.id}`;
      expect((await call(slow.url, "GET", url, { key: key.key })).status).toBe(200);
      const start = Date.now();
      await call(a.url, "DELETE", `/api/v1/templates/${tpl.id}`, { key: a.adminKey });
      expect((await call(slow.url, "GET", url, { key: key.key })).status).toBe(200); // still cached
      await waitUntil(async () => (await call(slow.url, "GET", url, { key: key.key })).status === 404, 3_000 + SLACK_MS, 50);
      expect(Date.now() - start).toBeGreaterThan(1_500);
    } finally {
      await slow.close();
    }
  });
});
