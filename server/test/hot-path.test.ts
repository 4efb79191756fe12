import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer, waitUntil } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

/**
 * What keeps GET /v1/sdk/template/{id} cheap, counted rather than timed: a repeated authenticated
 * fetch reads neither the key nor the template from the database, and the cache that makes it so
 * never outlives a revocation — at once through this server, within the cache's TTL through another.
 */
const TTL_MS = 1_000;
// Scheduling slack on a loaded 2-core machine; the bound itself is TTL_MS.
const SLACK_MS = 750;

describe.each(BACKENDS)("the SDK template fetch on %s", (backend) => {
  let db: TestDatabase;
  let server: TestServer;
  const queries = { keys: 0, templates: 0 };

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    server = await startTestServer({ database: db.config, cacheTtlMs: TTL_MS });
    // Count the store's reads on the real database: the lookup cache holds this very store.
    const store = server.store;
    const findKey = store.findKeyBySecretHash.bind(store);
    const getTemplate = store.getTemplate.bind(store);
    store.findKeyBySecretHash = (hash) => {
      queries.keys += 1;
      return findKey(hash);
    };
    store.getTemplate = (id) => {
      queries.templates += 1;
      return getTemplate(id);
    };
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  async function keyAndTemplate() {
    const key = (await call(server.url, "POST", "/api/v1/keys", { key: server.adminKey, body: { name: "hot", targets: ["html"] } })).json;
    const template = (await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: sampleTemplate("hot") })).json;
    return { key, path: `/v1/sdk/template/${template.id}`, id: template.id as string };
  }

  function counted(): { keys: number; templates: number } {
    return { ...queries };
  }

  it("a repeated authenticated fetch queries the database for neither the key nor the template", async () => {
    const { key, path } = await keyAndTemplate();
    const before = counted();
    const first = await call(server.url, "GET", path, { key: key.key });
    expect(first.status).toBe(200);
    // The first fetch reads each once (the admin's calls above warmed nothing for this key).
    expect(counted()).toEqual({ keys: before.keys + 1, templates: before.templates + 1 });
    const warm = counted();
    const again = await Promise.all(Array.from({ length: 20 }, () => call(server.url, "GET", `${path}?target=html`, { key: key.key })));
    expect(again.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(again.every((r) => r.text === first.text && r.headers.get("etag") === first.headers.get("etag"))).toBe(true);
    const revalidated = await call(server.url, "GET", path, { key: key.key, headers: { "if-none-match": first.headers.get("etag") ?? "" } });
    expect(revalidated.status).toBe(304);
    expect(counted()).toEqual(warm);
  });

  it("a key revoked through this server is refused by the next request, though its entry was cached", async () => {
    const { key, path } = await keyAndTemplate();
    expect((await call(server.url, "GET", path, { key: key.key })).status).toBe(200);
    expect((await call(server.url, "DELETE", `/api/v1/keys/${key.id}`, { key: server.adminKey })).status).toBe(200);
    const refused = await call(server.url, "GET", path, { key: key.key });
    expect(refused.status).toBe(401);
    expect(refused.json.message).toMatch(/revoked/);
  });

  it("a key revoked in the database by another server is refused within the cache's TTL", async () => {
    const { key, path } = await keyAndTemplate();
    expect((await call(server.url, "GET", path, { key: key.key })).status).toBe(200);
    // Straight to the database, as another instance would write it: this server's cache is not told.
    const revokedAt = Date.now();
    expect(await server.store.revokeKey(key.id, new Date(revokedAt).toISOString())).toMatchObject({ id: key.id });
    await waitUntil(async () => (await call(server.url, "GET", path, { key: key.key })).status === 401, TTL_MS + SLACK_MS, 25);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(TTL_MS + SLACK_MS);
    expect((await call(server.url, "GET", path, { key: key.key })).status).toBe(401);
  });

  it("a template replaced through this server is served in its new version by the next request", async () => {
    const { key, path, id } = await keyAndTemplate();
    const old = await call(server.url, "GET", path, { key: key.key });
    const replaced = await call(server.url, "PUT", `/api/v1/templates/${id}`, { key: server.adminKey, body: sampleTemplate("hot v2") });
    expect(replaced.status).toBe(200);
    const fresh = await call(server.url, "GET", path, { key: key.key, headers: { "if-none-match": old.headers.get("etag") ?? "" } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("etag")).toBe(replaced.json.etag);
    expect(fresh.json.template_name).toBe("hot v2");
  });
});
