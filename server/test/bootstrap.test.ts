import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/auth/keys.js";
import { BACKENDS, createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";

/** A server with MAILRENDER_ADMIN_KEY = `adminKey`, and the log lines it writes. */
async function start(db: TestDatabase, adminKey: string): Promise<{ server: TestServer; logs: string[] }> {
  const logs: string[] = [];
  const stream = new PassThrough();
  stream.on("data", (c: Buffer) => logs.push(...c.toString("utf8").split("\n").filter(Boolean)));
  const server = await startTestServer({ database: db.config, adminKey, logger: stream });
  return { server, logs };
}

describe.each(BACKENDS)("bootstrap admin key on %s", (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** Ids of the bootstrap keys whose current secret starts like `secret` (tests share one database). */
  async function bootstrapKeyIds(server: TestServer, key: string, secret = key): Promise<string[]> {
    const list = await call(server.url, "GET", "/api/v1/keys", { key });
    return list.json.keys
      .filter((k: { name: string; prefix: string }) => k.name === "bootstrap-admin" && secret.startsWith(k.prefix))
      .map((k: { id: string }) => k.id);
  }

  it("a rotated-out MAILRENDER_ADMIN_KEY stays out after a restart, and the log says why", async () => {
    const envKey = generateApiKey();
    const first = await start(db, envKey);
    expect(first.logs.join("\n")).toContain("registered as admin key");
    const [id] = await bootstrapKeyIds(first.server, envKey);
    const rotated = await call(first.server.url, "POST", `/api/v1/keys/${id}/rotate`, { key: envKey });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.json.key;
    await first.server.close();

    const second = await start(db, envKey); // the environment still holds the old secret
    try {
      const old = await call(second.server.url, "GET", "/api/v1/keys", { key: envKey });
      expect(old.status).toBe(401);
      expect(old.json.message).toContain("rotated");
      expect(await bootstrapKeyIds(second.server, newSecret)).toEqual([id]);
      expect(await bootstrapKeyIds(second.server, newSecret, envKey)).toEqual([]); // no new key for the old secret
      const line = second.logs.find((l) => l.includes("MAILRENDER_ADMIN_KEY"));
      expect(line).toContain(`rotated out`);
      expect(line).toContain("not registered again");
      expect(JSON.parse(line ?? "{}").level).toBe(40); // warn
      expect(second.logs.join("\n")).not.toContain(envKey);
    } finally {
      await second.server.close();
    }
  });

  it("a revoked MAILRENDER_ADMIN_KEY stays revoked after a restart, and the log says why", async () => {
    const envKey = generateApiKey();
    const helper = generateApiKey();
    const first = await start(db, envKey);
    const [id] = await bootstrapKeyIds(first.server, envKey);
    await first.server.close();
    // Revoke it with another admin key, as an operator would after a leak.
    const other = await start(db, helper);
    expect((await call(other.server.url, "DELETE", `/api/v1/keys/${id}`, { key: helper })).status).toBe(200);
    await other.server.close();

    const again = await start(db, envKey);
    try {
      expect((await call(again.server.url, "GET", "/api/v1/keys", { key: envKey })).status).toBe(401);
      expect(again.logs.find((l) => l.includes("MAILRENDER_ADMIN_KEY"))).toMatch(/revoked at .*not registered again/);
    } finally {
      await again.server.close();
    }
  });

  it("rotating with a grace period keeps the old secret only until the grace ends (unchanged)", async () => {
    const envKey = generateApiKey();
    const { server } = await start(db, envKey);
    try {
      const [id] = await bootstrapKeyIds(server, envKey);
      const rotated = await call(server.url, "POST", `/api/v1/keys/${id}/rotate`, { key: envKey, body: { grace_period_seconds: 60 } });
      expect(rotated.status).toBe(200);
      expect((await call(server.url, "GET", "/api/v1/keys", { key: envKey })).status).toBe(200);
      expect((await call(server.url, "GET", "/api/v1/keys", { key: rotated.json.key })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
