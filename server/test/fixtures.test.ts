import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type DynamicData, RENDER_TARGETS, type RenderTarget, render } from "@mailrender/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * The deprecated render endpoint must produce, byte for byte, what the engine (and so every client)
 * produces: each golden case in fixtures/render is stored through the API, then rendered over HTTP.
 */
const FIXTURES = fileURLToPath(new URL("../../fixtures/render/", import.meta.url));
const EXT: Record<RenderTarget, string> = { html: "html", mjml: "mjml", "react-email": "tsx" };

interface Case {
  description: string;
  template: Record<string, unknown>;
  dynamic_data?: DynamicData;
  options?: { minify?: boolean; strict?: boolean };
}

const cases = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((name) => existsSync(path.join(FIXTURES, name, "case.json")))
      .sort()
  : [];

describe("deprecated render endpoint equals the engine for every golden fixture", () => {
  let db: TestDatabase;
  let server: TestServer;
  let renderKey: string;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startTestServer({ database: db.config });
    const key = await call(server.url, "POST", "/api/v1/keys", { key: server.adminKey, body: { name: "fixtures", targets: ["all"] } });
    renderKey = key.json.key;
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("found the fixture folder", () => {
    expect(existsSync(FIXTURES)).toBe(true);
  });

  it.each(cases)("%s", async (name) => {
    const spec = JSON.parse(readFileSync(path.join(FIXTURES, name, "case.json"), "utf8")) as Case;
    // The fixtures' ids are not UUIDs: stored as a template without one, the service gives it its own.
    const { template_id: _id, ...template } = spec.template;
    const created = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: template });
    expect(created.status, created.text).toBe(201);
    // The endpoint always minifies and is never strict; cases with other options are compared with
    // the engine run with the endpoint's options instead of with their goldens.
    const defaults = (spec.options?.minify ?? true) && !(spec.options?.strict ?? false);
    for (const target of RENDER_TARGETS) {
      const res = await call(server.url, "POST", "/v1/sdk/render", {
        key: renderKey,
        body: { template_id: created.json.id, target, dynamic_data: spec.dynamic_data ?? {} },
      });
      expect(res.status, `${name}/${target}: ${res.text.slice(0, 300)}`).toBe(200);
      const golden = path.join(FIXTURES, name, `expected.${EXT[target]}`);
      if (defaults && existsSync(golden)) {
        expect(res.text, `${name}/${target} differs from ${golden}`).toBe(readFileSync(golden, "utf8"));
      } else {
        const engine = await render({ ...spec.template, template_id: created.json.id }, { target, dynamicData: spec.dynamic_data ?? {}, minify: true });
        expect(res.text, `${name}/${target} differs from the engine`).toBe(engine.output);
      }
    }
    // ?format=text: the plain-text version, the same for every target and whatever the options.
    const text = await call(server.url, "POST", "/v1/sdk/render?format=text", {
      key: renderKey,
      body: { template_id: created.json.id, dynamic_data: spec.dynamic_data ?? {} },
    });
    expect(text.status, text.text.slice(0, 300)).toBe(200);
    expect(text.text, `${name}: the plain text differs from expected.txt`).toBe(readFileSync(path.join(FIXTURES, name, "expected.txt"), "utf8"));
  });
});
