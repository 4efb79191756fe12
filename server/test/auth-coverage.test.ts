import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHook } from "../src/auth/authenticate.js";
import { RateLimiter } from "../src/auth/rate-limit.js";
import { CachedLookups } from "../src/cache/lookups.js";
import { registerErrorHandler } from "../src/http/error-handler.js";
import { KyselyStore } from "../src/store/kysely-store.js";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";

/** Path parameters filled with well-formed values, so a route that skipped auth would answer 2xx/404, not 401. */
function concretePath(url: string): string {
  return url
    .replace(/\/keys\/:id/, "/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV")
    .replace(/:id/g, "3f1c2a4e-8b7d-4c6e-9f0a-1b2c3d4e5f60")
    .replace(/:[^/]+/g, "x")
    .replace(/\*/g, "index.html");
}

describe("auth fails closed", () => {
  let db: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startTestServer({ database: db.config });
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("every registered route answers 401 without a key unless it is marked public", async () => {
    const routes = server.routes();
    expect(routes.length).toBeGreaterThan(15);
    const publicRoutes: string[] = [];
    for (const route of routes) {
      const path = concretePath(route.url);
      const res = await call(server.url, route.method, path, route.method === "GET" || route.method === "HEAD" ? {} : { body: {} });
      const where = `${route.method} ${route.url} (${route.auth})`;
      if (route.auth === "public") {
        publicRoutes.push(`${route.method} ${route.url}`);
        expect(res.status, where).not.toBe(401);
      } else {
        expect(res.status, where).toBe(401);
        if (route.method !== "HEAD") expect(res.json.code, where).toBe("INVALID_API_KEY");
      }
    }
    // The public surface is exactly the probes, the documentation, `/` (a redirect to the studio) and the
    // studio's page and assets (its data comes from the admin API); anything new must be added here on purpose.
    const unexpected = publicRoutes.filter(
      (r) => !/^(GET|HEAD) \/(|healthz|readyz|openapi\.json|docs(\/.*)?|studio|studio\/new|studio\/keys|studio\/templates\/:id|studio\/assets\/:file)$/.test(r),
    );
    expect(unexpected).toEqual([]);
  });

  it("unknown paths and methods give 401 without a key, so the route table is not probed anonymously", async () => {
    expect((await call(server.url, "GET", "/v2/nothing")).status).toBe(401);
    expect((await call(server.url, "PATCH", "/api/v1/keys")).status).toBe(401);
  });

  it("a route registered without `config.auth` needs a key", async () => {
    const store = KyselyStore.open({ kind: "sqlite", path: ":memory:" });
    await store.migrate();
    const app = Fastify();
    registerErrorHandler(app);
    app.addHook("onRequest", authHook(new CachedLookups(store, 0), new RateLimiter({ max: 0, adminMax: 0, windowMs: 1_000 })));
    app.get("/forgotten", async () => ({ secret: true }));
    app.get("/open", { config: { auth: "public" } }, async () => ({ open: true }));
    try {
      const forgotten = await app.inject({ method: "GET", url: "/forgotten" });
      expect(forgotten.statusCode).toBe(401);
      expect(forgotten.json().code).toBe("INVALID_API_KEY");
      expect((await app.inject({ method: "GET", url: "/open" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it("a misspelt auth level is refused, never treated as public", async () => {
    const store = KyselyStore.open({ kind: "sqlite", path: ":memory:" });
    const app = Fastify();
    app.addHook("onRequest", authHook(new CachedLookups(store, 0), new RateLimiter({ max: 0, adminMax: 0, windowMs: 1_000 })));
    app.get("/typo", { config: { auth: "pubic" as never } }, async () => ({}));
    try {
      expect((await app.inject({ method: "GET", url: "/typo" })).statusCode).toBe(500);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
