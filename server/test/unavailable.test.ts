import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * The database goes away under a running server: the server reaches PostgreSQL through a TCP relay
 * that the test then shuts, so every new connection is refused, as when the database host is down.
 */
describe("database unavailable → 503 without internals", () => {
  let db: TestDatabase;
  let server: TestServer;
  let relay: net.Server;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    db = await createTestDatabase("postgres");
    if (db.config.kind !== "postgres") throw new Error("expected PostgreSQL");
    const target = new URL(db.config.url);
    relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
        s.on("error", () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const relayed = new URL(db.config.url);
    relayed.port = String((relay.address() as net.AddressInfo).port);
    server = await startTestServer({ database: { kind: "postgres", url: relayed.toString() }, cacheTtlMs: 0 });
  });

  afterAll(async () => {
    await server?.close();
    relay?.close();
    await db?.drop();
  });

  it("answers 503 UNAVAILABLE on /readyz and on data endpoints, and recovers nothing internal", async () => {
    expect((await call(server.url, "GET", "/readyz")).status).toBe(200);
    expect((await call(server.url, "GET", "/api/v1/keys", { key: server.adminKey })).status).toBe(200);

    await new Promise<void>((resolve) => {
      relay.close(() => resolve());
      for (const s of sockets) s.destroy();
    });

    const ready = await call(server.url, "GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.json).toEqual({ code: "UNAVAILABLE", message: expect.any(String), detail: ready.json.message });
    const keys = await call(server.url, "GET", "/api/v1/keys", { key: server.adminKey });
    expect(keys.status).toBe(503);
    expect(keys.json.code).toBe("UNAVAILABLE");
    expect(keys.headers.get("retry-after")).toBe("5");
    for (const res of [ready, keys]) expect(res.text).not.toMatch(/ECONN|127\.0\.0\.1|postgres|Connection terminated|\bat\b.*\.js/);
    // Liveness does not depend on the database.
    expect((await call(server.url, "GET", "/healthz")).status).toBe(200);
  });
});
