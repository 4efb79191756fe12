/** Every HTML answer of the service refuses to be framed by another site (clickjacking). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

describe("anti-framing headers on every HTML answer", () => {
  let db: TestDatabase;
  let server: TestServer;
  let templateId: string;
  let renderKey: string;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startTestServer({ database: db.config });
    templateId = (await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: sampleTemplate() })).json.id;
    renderKey = (await call(server.url, "POST", "/api/v1/keys", { key: server.adminKey, body: { name: "render", targets: ["html"] } })).json.key;
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  function expectNoFraming(headers: Headers, where: string): void {
    expect(headers.get("x-frame-options"), where).toBe("DENY");
    const csp = headers.get("content-security-policy") ?? "";
    expect(
      csp.split(";").map((d) => d.trim()),
      where,
    ).toContain("frame-ancestors 'none'");
  }

  it("every GET and HEAD route that answers HTML says frame-ancestors 'none' and X-Frame-Options: DENY", async () => {
    const html: string[] = [];
    for (const route of server.routes().filter((r) => r.method === "GET" || r.method === "HEAD")) {
      const path = route.url
        .replace(/\/keys\/:id/, "/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV")
        .replace(/:id/g, templateId)
        .replace(":file", "studio.js")
        .replace("*", "index.html");
      const res = await fetch(server.url + path, { method: route.method, redirect: "manual", headers: { authorization: `Bearer ${server.adminKey}` } });
      await res.arrayBuffer();
      if (!(res.headers.get("content-type") ?? "").startsWith("text/html")) continue;
      html.push(`${route.method} ${route.url}`);
      expectNoFraming(res.headers, `${route.method} ${route.url}`);
    }
    // The walk really met the pages: the studio, its template URL and the API docs, by GET and HEAD.
    for (const url of ["/studio", "/studio/templates/:id", "/docs/"]) {
      expect(html).toContain(`GET ${url}`);
      expect(html).toContain(`HEAD ${url}`);
    }
  });

  it("the studio keeps its own policy and gains frame-ancestors", async () => {
    const page = await call(server.url, "GET", "/studio");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/^default-src 'self'; /);
    expect(csp.match(/frame-ancestors/g)).toHaveLength(1);
    expectNoFraming(page.headers, "GET /studio");
  });

  it("an email rendered as text/html by the deprecated endpoint cannot be framed either", async () => {
    const res = await call(server.url, "POST", "/v1/sdk/render", { key: renderKey, body: { template_id: templateId } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectNoFraming(res.headers, "POST /v1/sdk/render");
  });

  it("JSON answers are left alone (the hot SDK route carries no extra headers)", async () => {
    const res = await call(server.url, "GET", `/v1/sdk/template/${templateId}`, { key: renderKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});
