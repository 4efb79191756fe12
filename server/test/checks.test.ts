/**
 * Every mistake of the corpus (fixtures/checks/) through the service: creating the template is never
 * refused for a finding, and the answer carries the findings the engine gives, located in the
 * template. The service has no sample data at creation: the findings that need it are the only ones
 * a case's expected.findings.json has that the answer does not (and mail-client checks, which the
 * service does not run).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";

const CHECKS = fileURLToPath(new URL("../../fixtures/checks/", import.meta.url));
const SAMPLE_DATA_CODES = new Set(["MERGE_TAG_NO_VALUE", "MERGE_TAG_VALUE_NOT_A_URL"]);

interface Finding {
  severity: string;
  code: string;
  path: string[];
  target?: string;
}

const cases = existsSync(CHECKS)
  ? readdirSync(CHECKS)
      .filter((name) => existsSync(path.join(CHECKS, name, "case.json")))
      .sort()
  : [];

const pick = (f: Finding) => ({ severity: f.severity, code: f.code, path: f.path, ...(f.target === undefined ? {} : { target: f.target }) });

describe("the corpus of authoring mistakes through template create", () => {
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

  it("found the corpus", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)("%s: stored, with its findings", async (name) => {
    const spec = JSON.parse(readFileSync(path.join(CHECKS, name, "case.json"), "utf8")) as {
      template: Record<string, unknown>;
      options?: { clients?: string[] };
    };
    const expected = (JSON.parse(readFileSync(path.join(CHECKS, name, "expected.findings.json"), "utf8")) as Finding[])
      .filter((f) => !SAMPLE_DATA_CODES.has(f.code) && (spec.options?.clients === undefined || f.code !== "CLIENT_UNSUPPORTED"))
      .map(pick);
    // The cases' ids are their names, not UUIDs: stored without one, a template gets the service's own.
    const { template_id: _id, ...template } = spec.template;
    const created = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: template });
    expect(created.status, created.text).toBe(201);
    expect((created.json.findings as Finding[]).map(pick)).toEqual(expected);
    for (const f of created.json.findings as { message: string; hint: string; value: string }[]) {
      expect(f.message.length).toBeGreaterThan(10);
      expect(f.hint.length).toBeGreaterThan(5);
    }
  });
});
