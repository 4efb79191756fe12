import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateOpenApiYaml } from "../src/openapi.js";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";

const SPEC_FILE = new URL("../../spec/openapi.yaml", import.meta.url);

describe("OpenAPI document, docs and logs", () => {
  let db: TestDatabase;
  let server: TestServer;
  const logLines: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    const logs = new PassThrough();
    logs.on("data", (chunk: Buffer) => logLines.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
    server = await startTestServer({ database: db.config, logger: logs });
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("spec/openapi.yaml is up to date with the routes (run `make spec` if this fails)", async () => {
    expect(readFileSync(SPEC_FILE, "utf8")).toBe(await generateOpenApiYaml());
  });

  it("serves the document at /openapi.json with every endpoint", async () => {
    const res = await call(server.url, "GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe("3.1.0");
    expect(Object.keys(res.json.paths).sort()).toEqual(
      [
        "/api/v1/keys",
        "/api/v1/keys/{id}",
        "/api/v1/keys/{id}/rotate",
        "/api/v1/studio/starters",
        "/api/v1/templates",
        "/api/v1/templates/{id}",
        "/api/v1/templates/{id}/preview",
        "/api/v1/templates/{id}/sample",
        "/healthz",
        "/readyz",
        "/v1/sdk/render",
        "/v1/sdk/template/{id}",
      ].sort(),
    );
    expect(res.json.paths["/v1/sdk/render"].post.deprecated).toBe(true);
    expect(res.json.paths["/api/v1/keys"].post.responses["201"]).toBeDefined();
    expect(res.json.paths["/v1/sdk/template/{id}"].get.responses["304"]).toBeDefined();
    // A body the route lets one omit is not marked required (schemathesis sends none and expects a 4xx otherwise).
    expect(res.json.paths["/api/v1/keys/{id}/rotate"].post.requestBody.required).toBe(false);
    expect(res.json.paths["/api/v1/keys"].post.requestBody.required).toBe(true);
    expect(res.json.components.schemas.Error.required).toEqual(["code", "message", "detail"]);
  });

  it("serves interactive docs at /docs", async () => {
    const res = await fetch(`${server.url}/docs/`, { redirect: "follow" });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/swagger-ui/i);
  });

  it("never logs the Authorization header", async () => {
    const secret = server.adminKey;
    expect((await call(server.url, "GET", "/api/v1/keys", { key: secret })).status).toBe(200);
    expect((await call(server.url, "GET", "/v1/sdk/template/nope", { key: secret })).status).toBe(422);
    await new Promise((r) => setTimeout(r, 50));
    const all = logLines.join("\n");
    expect(logLines.length).toBeGreaterThan(0);
    expect(all).not.toContain(secret);
    expect(all).not.toContain(secret.slice(8, 40));
  });
});
