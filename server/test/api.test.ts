import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/auth/keys.js";
import { BACKENDS, createTestDatabase, rawSql, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

const MISSING_UUID = "3f1c2a4e-8b7d-4c6e-9f0a-1b2c3d4e5f60";

function expectError(res: { status: number; json: { code?: unknown; message?: unknown; issues?: unknown } }, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json.code).toBe(code);
  expect(typeof res.json.message).toBe("string");
  if (status === 422) expect(Array.isArray(res.json.issues)).toBe(true);
  else expect(res.json).not.toHaveProperty("issues");
}

describe.each(BACKENDS)("HTTP API on %s", (backend) => {
  let db: TestDatabase;
  let server: TestServer;
  let base: string;
  let admin: string;
  let templateId: string;
  let htmlMjmlKey: string;

  const req = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) => call(base, method, path, opts);
  const createKey = async (body: Record<string, unknown>) => req("POST", "/api/v1/keys", { key: admin, body });

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    server = await startTestServer({ database: db.config });
    base = server.url;
    admin = server.adminKey;
    const created = await req("POST", "/api/v1/templates", { key: admin, body: sampleTemplate("Welcome") });
    expect(created.status, created.text).toBe(201);
    templateId = created.json.id;
    htmlMjmlKey = (await createKey({ name: "test-sdk-html-mjml", targets: ["mjml", "html"] })).json.key;
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  describe("authentication (each 401 cause)", () => {
    const path = () => `/v1/sdk/template/${templateId}`;

    it("missing Authorization header", async () => {
      const res = await req("GET", path());
      expectError(res, 401, "INVALID_API_KEY");
      expect(res.json.message).toMatch(/Missing Authorization/);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    });

    it("wrong scheme", async () => {
      const res = await req("GET", path(), { headers: { authorization: `Basic ${htmlMjmlKey}` } });
      expectError(res, 401, "INVALID_API_KEY");
      expect(res.json.message).toMatch(/Bearer scheme/);
    });

    it("malformed key", async () => {
      for (const bad of ["sk_live_short", `sk_test_${"a".repeat(64)}`, `sk_live_${"A".repeat(64)}`, "Bearer"]) {
        const res = await req("GET", path(), { headers: { authorization: `Bearer ${bad}` } });
        expectError(res, 401, "INVALID_API_KEY");
        expect(res.json.message).toMatch(/malformed/);
      }
    });

    it("unknown key", async () => {
      const res = await req("GET", path(), { key: generateApiKey() });
      expectError(res, 401, "INVALID_API_KEY");
      expect(res.json.message).toMatch(/not recognised/);
    });

    it("revoked key: 401 from that moment", async () => {
      const created = await createKey({ name: "to-revoke", targets: ["html"] });
      expect((await req("GET", path(), { key: created.json.key })).status).toBe(200);
      const revoked = await req("DELETE", `/api/v1/keys/${created.json.id}`, { key: admin });
      expect(revoked.status).toBe(200);
      expect(revoked.json.status).toBe("revoked");
      expect(revoked.json.revoked_at).toEqual(expect.any(String));
      const res = await req("GET", path(), { key: created.json.key });
      expectError(res, 401, "INVALID_API_KEY");
      expect(res.json.message).toMatch(/revoked/);
    });

    it("expired key", async () => {
      const expiresAt = new Date(Date.now() + 1_200).toISOString();
      const created = await createKey({ name: "short-lived", targets: ["html"], expires_at: expiresAt });
      expect(created.status).toBe(201);
      expect(created.json.expires_at).toBe(expiresAt);
      expect((await req("GET", path(), { key: created.json.key })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_400));
      const res = await req("GET", path(), { key: created.json.key });
      expectError(res, 401, "INVALID_API_KEY");
      expect(res.json.message).toMatch(/expired/);
      expect((await req("GET", `/api/v1/keys/${created.json.id}`, { key: admin })).json.status).toBe("expired");
    });

    it("auth comes before validation and body parsing", async () => {
      expectError(await req("GET", "/v1/sdk/template/not-a-uuid"), 401, "INVALID_API_KEY");
      expectError(await req("POST", "/v1/sdk/render", { rawBody: "{oops", headers: { "content-type": "application/json" } }), 401, "INVALID_API_KEY");
    });

    it("a render key cannot use admin endpoints (403)", async () => {
      const res = await req("GET", "/api/v1/keys", { key: htmlMjmlKey });
      expectError(res, 403, "FORBIDDEN");
      expect(res.json.message).toMatch(/admin/);
    });
  });

  describe("GET /v1/sdk/template/{id}", () => {
    it("returns the template JSON with ETag, X-Key-Targets and the service's id", async () => {
      const res = await req("GET", `/v1/sdk/template/${templateId}`, { key: htmlMjmlKey });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.json.template_id).toBe(templateId);
      expect(res.json.template_name).toBe("Welcome");
      expect(res.json.rows).toHaveLength(1);
      expect(res.headers.get("etag")).toMatch(/^"v1-[0-9a-f]{16}"$/);
      expect(res.headers.get("x-key-targets")).toBe("html,mjml");
    });

    it("answers If-None-Match with 304 and no body", async () => {
      const first = await req("GET", `/v1/sdk/template/${templateId}`, { key: htmlMjmlKey });
      const etag = first.headers.get("etag") ?? "";
      const res = await req("GET", `/v1/sdk/template/${templateId}`, { key: htmlMjmlKey, headers: { "if-none-match": `W/${etag}` } });
      expect(res.status).toBe(304);
      expect(res.text).toBe("");
      // A length without a body would leave keep-alive clients waiting for bytes that never come.
      expect(res.headers.get("content-length") ?? "0").toBe("0");
      expect(res.headers.get("etag")).toBe(etag);
      const stale = await req("GET", `/v1/sdk/template/${templateId}`, { key: htmlMjmlKey, headers: { "if-none-match": '"v0-0000000000000000"' } });
      expect(stale.status).toBe(200);
    });

    it("?target inside the scope is allowed; outside gives 403 naming both", async () => {
      expect((await req("GET", `/v1/sdk/template/${templateId}?target=mjml`, { key: htmlMjmlKey })).status).toBe(200);
      const res = await req("GET", `/v1/sdk/template/${templateId}?target=react-email`, { key: htmlMjmlKey });
      expectError(res, 403, "FORBIDDEN");
      expect(res.json.message).toBe("API key is limited to targets [html, mjml]; requested 'react-email'");
    });

    it("a key with `all` gets every target", async () => {
      const all = (await createKey({ name: "all-targets", targets: ["all"] })).json;
      expect(all.targets).toEqual(["all"]);
      const res = await req("GET", `/v1/sdk/template/${templateId}?target=react-email`, { key: all.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-key-targets")).toBe("html,react-email,mjml");
    });

    it("404 TEMPLATE_NOT_FOUND for an unknown id", async () => {
      expectError(await req("GET", `/v1/sdk/template/${MISSING_UUID}`, { key: htmlMjmlKey }), 404, "TEMPLATE_NOT_FOUND");
    });

    it("422 uuid_parsing on the path and literal_error / extra_forbidden on the query", async () => {
      const bad = await req("GET", "/v1/sdk/template/not-a-uuid", { key: htmlMjmlKey });
      expectError(bad, 422, "RENDER_ERROR");
      expect(bad.json.issues).toEqual([
        {
          loc: ["path", "id"],
          msg: "Input should be a valid UUID",
          type: "uuid_parsing",
          input: "not-a-uuid",
          hint: "Template ids are the UUIDs the service gives templates: use the id the create response gave (GET /api/v1/templates lists them)",
        },
      ]);
      const v1 = await req("GET", "/v1/sdk/template/6ba7b810-9dad-11d1-80b4-00c04fd430c8", { key: htmlMjmlKey });
      expect(v1.json.issues[0].type).toBe("uuid_version");
      const target = await req("GET", `/v1/sdk/template/${templateId}?target=pdf`, { key: htmlMjmlKey });
      expectError(target, 422, "RENDER_ERROR");
      expect(target.json.issues).toEqual([
        { loc: ["query", "target"], msg: "Input should be 'html', 'react-email' or 'mjml'", type: "literal_error", input: "pdf" },
      ]);
      const near = await req("GET", `/v1/sdk/template/${templateId}?target=htm`, { key: htmlMjmlKey });
      expect(near.json.issues[0]).toMatchObject({ input: "htm", hint: 'Did you mean "html"?' });
      const extra = await req("GET", `/v1/sdk/template/${templateId}?foo=1`, { key: htmlMjmlKey });
      expect(extra.json.issues).toEqual([{ loc: ["query", "foo"], msg: "Extra inputs are not permitted", type: "extra_forbidden", input: "1" }]);
    });
  });

  describe("POST /v1/sdk/render (deprecated)", () => {
    const render = (body: unknown, key = htmlMjmlKey) => req("POST", "/v1/sdk/render", { key, body });

    function expectDeprecationHeaders(res: { headers: Headers }): void {
      expect(res.headers.get("deprecation")).toMatch(/^@\d+$/);
      expect(res.headers.get("sunset")).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(res.headers.get("link")).toMatch(/rel="deprecation"/);
    }

    it("renders html by default from only template_id, as raw text/html", async () => {
      const res = await render({ template_id: templateId });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.text).toMatch(/^<!DOCTYPE html>/i);
      expect(res.text).toContain("Hi there");
      expectDeprecationHeaders(res);
    });

    it("applies merge tags (escaped) and returns mjml as text/plain", async () => {
      const res = await render({
        template_id: templateId,
        target: "mjml",
        dynamic_data: { merge_tags: { text: { first_name: "<Ada>" } }, context: { plan: "pro", n: 2, ok: true } },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(res.text).toContain("<mjml");
      expect(res.text).toContain("Hi &lt;Ada&gt;");
      expect(res.text).not.toContain("<Ada>");
    });

    it("?format=text returns the plain-text version, values unescaped, as text/plain", async () => {
      const res = await req("POST", "/v1/sdk/render?format=text", {
        key: htmlMjmlKey,
        body: { template_id: templateId, dynamic_data: { merge_tags: { text: { first_name: "<Ada> & Bo" } } } },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(res.text).toBe("Hi <Ada> & Bo\n\nBody text");
      expectDeprecationHeaders(res);
      const scoped = await req("POST", "/v1/sdk/render?format=text", { key: htmlMjmlKey, body: { template_id: templateId, target: "react-email" } });
      expectError(scoped, 403, "FORBIDDEN");
      const unknown = await req("POST", "/v1/sdk/render?format=pdf", { key: htmlMjmlKey, body: { template_id: templateId } });
      expectError(unknown, 422, "RENDER_ERROR");
      expect(unknown.json.issues[0].loc).toEqual(["query", "format"]);
    });

    it("403 for a target outside the key's scope, with the deprecation headers", async () => {
      const res = await render({ template_id: templateId, target: "react-email" });
      expectError(res, 403, "FORBIDDEN");
      expect(res.json.message).toBe("API key is limited to targets [html, mjml]; requested 'react-email'");
      expectDeprecationHeaders(res);
    });

    it("401 and 404 carry the deprecation headers too", async () => {
      const unauth = await req("POST", "/v1/sdk/render", { body: { template_id: templateId } });
      expectError(unauth, 401, "INVALID_API_KEY");
      expectDeprecationHeaders(unauth);
      const missing = await render({ template_id: MISSING_UUID });
      expectError(missing, 404, "TEMPLATE_NOT_FOUND");
      expectDeprecationHeaders(missing);
    });

    it("422 issues carry the input and, for the common mistakes, a hint: the code stays RENDER_ERROR", async () => {
      const flat = await render({ template_id: templateId, dynamic_data: { merge_tags: { first_name: "Ada" } } });
      expectError(flat, 422, "RENDER_ERROR");
      expect(flat.json.issues).toEqual([
        {
          loc: ["body", "dynamic_data", "merge_tags", "first_name"],
          msg: "Extra inputs are not permitted",
          type: "extra_forbidden",
          input: "Ada",
          hint: "Merge-tag values go in a group: put first_name under merge_tags.text (or .url for a link's address, .attr for an attribute's value)",
        },
      ]);
      const byName = await render({ template_id: "welcome" });
      expect(byName.json.issues[0]).toMatchObject({ input: "welcome", hint: expect.stringContaining("use the id the create response gave") });
      const doc = sampleTemplate("Units");
      const rows = doc["rows"] as { columns: { children: { props: Record<string, unknown> }[] }[] }[];
      rows[0]!.columns[0]!.children[1]!.props["fontSize"] = "16px";
      const units = await req("POST", "/api/v1/templates", { key: admin, body: doc });
      expectError(units, 422, "RENDER_ERROR");
      expect(units.json.issues).toEqual([
        {
          loc: ["body", "rows", "0", "columns", "0", "children", "1", "props", "fontSize"],
          msg: "Input should be a valid number",
          type: "number_type",
          input: "16px",
          hint: "Write the number without its unit: 16 (the unit is implied)",
        },
      ]);
    });

    it("422 issues for each kind of invalid body", async () => {
      const cases: [unknown, { loc: string[]; type: string }[]][] = [
        [{}, [{ loc: ["body", "template_id"], type: "missing" }]],
        [{ template_id: 42 }, [{ loc: ["body", "template_id"], type: "string_type" }]],
        [{ template_id: "nope" }, [{ loc: ["body", "template_id"], type: "uuid_parsing" }]],
        [{ template_id: templateId, target: "pdf" }, [{ loc: ["body", "target"], type: "literal_error" }]],
        [{ template_id: templateId, colour: "red" }, [{ loc: ["body", "colour"], type: "extra_forbidden" }]],
        [
          { template_id: templateId, dynamic_data: { merge_tags: { text: { a: 1 } } } },
          [{ loc: ["body", "dynamic_data", "merge_tags", "text", "a"], type: "string_type" }],
        ],
        [{ template_id: templateId, dynamic_data: { context: { a: null } } }, [{ loc: ["body", "dynamic_data", "context", "a"], type: "union_type" }]],
        [[1, 2], [{ loc: ["body"], type: "dict_type" }]],
      ];
      for (const [body, expected] of cases) {
        const res = await render(body);
        expectError(res, 422, "RENDER_ERROR");
        expect(
          res.json.issues.map((i: { loc: string[]; type: string }) => ({ loc: i.loc, type: i.type })),
          JSON.stringify(body),
        ).toEqual(expected);
        for (const issue of res.json.issues) expect(typeof issue.msg).toBe("string");
      }
    });

    it("422 json_invalid for malformed JSON and missing for an empty body", async () => {
      const bad = await req("POST", "/v1/sdk/render", { key: htmlMjmlKey, rawBody: '{"template_id": ', headers: { "content-type": "application/json" } });
      expectError(bad, 422, "RENDER_ERROR");
      expect(bad.json.issues[0].type).toBe("json_invalid");
      expect(bad.json.issues[0].loc[0]).toBe("body");
      const empty = await req("POST", "/v1/sdk/render", { key: htmlMjmlKey, rawBody: "", headers: { "content-type": "application/json" } });
      expect(empty.status).toBe(422);
      expect(empty.json.issues).toEqual([{ loc: ["body"], msg: "Field required", type: "missing" }]);
      const none = await req("POST", "/v1/sdk/render", { key: htmlMjmlKey });
      expect(none.status).toBe(422);
      expect(none.json.issues).toEqual([{ loc: ["body"], msg: "Field required", type: "missing" }]);
    });

    it("415 for a body that is not JSON", async () => {
      const res = await req("POST", "/v1/sdk/render", { key: htmlMjmlKey, rawBody: "template_id=x", headers: { "content-type": "text/plain" } });
      expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    });

    it("413 for a body over the limit (default 1 MiB)", async () => {
      const huge = JSON.stringify({ template_id: templateId, dynamic_data: { merge_tags: { text: { big: "x".repeat(1024 * 1024) } } } });
      const res = await req("POST", "/v1/sdk/render", { key: htmlMjmlKey, rawBody: huge, headers: { "content-type": "application/json" } });
      expectError(res, 413, "PAYLOAD_TOO_LARGE");
    });
  });

  describe("keys", () => {
    it("create answers 201 with the secret once; list and read never show it", async () => {
      const res = await createKey({ name: "prod-billing-html", targets: ["html", "html"] });
      expect(res.status).toBe(201);
      expect(res.headers.get("location")).toBe(`/api/v1/keys/${res.json.id}`);
      expect(res.json).toMatchObject({ name: "prod-billing-html", targets: ["html"], expires_at: null });
      expect(res.json.id).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(res.json.key).toMatch(/^sk_live_[0-9a-f]{64}$/);
      expect(res.json.prefix).toBe(res.json.key.slice(0, 12));
      expect(new Date(res.json.created_at).toISOString()).toBe(res.json.created_at);

      const read = await req("GET", `/api/v1/keys/${res.json.id}`, { key: admin });
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({ id: res.json.id, name: "prod-billing-html", targets: ["html"], role: "render", status: "active", revoked_at: null });
      expect(read.text).not.toContain(res.json.key);

      const list = await req("GET", "/api/v1/keys?limit=500", { key: admin });
      expect(list.status).toBe(200);
      expect(list.json.keys.map((k: { id: string }) => k.id)).toContain(res.json.id);
      expect(list.text).not.toMatch(/sk_live_[0-9a-f]{64}/);
      const admins = list.json.keys.filter((k: { role: string }) => k.role === "admin");
      expect(admins.length).toBeGreaterThanOrEqual(1);
    });

    it("the secret is stored only as a SHA-256 hash", async () => {
      const res = await createKey({ name: "hash-check", targets: ["mjml"] });
      const dump = server.store.dialect;
      const found = await server.store.findKeyBySecretHash((await import("../src/auth/keys.js")).hashApiKey(res.json.key));
      expect(found?.key.id).toBe(res.json.id);
      expect(found?.secret.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(found?.secret.hash).not.toContain(res.json.key.slice(8));
      expect(dump).toBe(backend);
    });

    it("422 for invalid create bodies", async () => {
      const cases: [unknown, { loc: string[]; type: string }[]][] = [
        [
          {},
          [
            { loc: ["body", "name"], type: "missing" },
            { loc: ["body", "targets"], type: "missing" },
          ],
        ],
        [{ name: "x", targets: [] }, [{ loc: ["body", "targets"], type: "too_short" }]],
        [{ name: "x", targets: ["html", "pdf"] }, [{ loc: ["body", "targets", "1"], type: "literal_error" }]],
        [{ name: "", targets: ["html"] }, [{ loc: ["body", "name"], type: "string_too_short" }]],
        [{ name: "x".repeat(101), targets: ["html"] }, [{ loc: ["body", "name"], type: "string_too_long" }]],
        [
          { name: 5, targets: "html" },
          [
            { loc: ["body", "name"], type: "string_type" },
            { loc: ["body", "targets"], type: "list_type" },
          ],
        ],
        [{ name: "x", targets: ["html"], expires_at: "tomorrow" }, [{ loc: ["body", "expires_at"], type: "datetime_parsing" }]],
        [{ name: "x", targets: ["html"], expires_at: "2001-01-01T00:00:00Z" }, [{ loc: ["body", "expires_at"], type: "datetime_future" }]],
        [{ name: "x", targets: ["html"], admin: true }, [{ loc: ["body", "admin"], type: "extra_forbidden" }]],
      ];
      for (const [body, expected] of cases) {
        const res = await createKey(body as Record<string, unknown>);
        expectError(res, 422, "RENDER_ERROR");
        expect(
          res.json.issues.map((i: { loc: string[]; type: string }) => ({ loc: i.loc, type: i.type })),
          JSON.stringify(body),
        ).toEqual(expected);
      }
    });

    it("404 KEY_NOT_FOUND and 422 for a malformed key id", async () => {
      expectError(await req("GET", "/api/v1/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV", { key: admin }), 404, "KEY_NOT_FOUND");
      expectError(await req("DELETE", "/api/v1/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV", { key: admin }), 404, "KEY_NOT_FOUND");
      expectError(await req("POST", "/api/v1/keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV/rotate", { key: admin }), 404, "KEY_NOT_FOUND");
      const bad = await req("GET", "/api/v1/keys/nope", { key: admin });
      expectError(bad, 422, "RENDER_ERROR");
      expect(bad.json.issues[0]).toMatchObject({ loc: ["path", "id"], type: "string_pattern_mismatch" });
    });

    it("422 int_parsing and bounds on list paging", async () => {
      const res = await req("GET", "/api/v1/keys?limit=abc&offset=-1", { key: admin });
      expectError(res, 422, "RENDER_ERROR");
      expect(res.json.issues.map((i: { type: string }) => i.type)).toEqual(["int_parsing", "greater_than_equal"]);
    });

    it("paging values are decimal digits: an empty value, 1e2, 0x10 or a padded number is not one (422, as the schema's integer says)", async () => {
      for (const path of ["/api/v1/keys", "/api/v1/templates"]) {
        for (const [query, name] of [
          ["offset=", "offset"],
          ["limit=", "limit"],
          ["limit=1e2", "limit"],
          ["offset=0x10", "offset"],
          ["limit=%205", "limit"],
          ["offset=1.0", "offset"],
        ] as [string, string][]) {
          const res = await req("GET", `${path}?${query}`, { key: admin });
          expectError(res, 422, "RENDER_ERROR");
          // Each issue names the value it refused, as the query decoded it, and a padded number says how to write it.
          const input = decodeURIComponent(query.slice(query.indexOf("=") + 1));
          const hint = input === " 5" ? { hint: "Write it as digits alone: 5" } : {};
          expect(res.json.issues, `${path}?${query}`).toEqual([
            { loc: ["query", name], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing", input, ...hint },
          ]);
        }
        expect((await req("GET", `${path}?limit=2&offset=0`, { key: admin })).status).toBe(200);
      }
    });

    it("rotate without grace: the old secret stops at once, the new one works, same id/name/targets", async () => {
      const created = (await createKey({ name: "rotating", targets: ["html"] })).json;
      const rotated = await req("POST", `/api/v1/keys/${created.id}/rotate`, { key: admin });
      expect(rotated.status).toBe(200);
      expect(rotated.json).toMatchObject({ id: created.id, name: "rotating", targets: ["html"] });
      expect(rotated.json.key).not.toBe(created.key);
      const old = await req("GET", `/v1/sdk/template/${templateId}`, { key: created.key });
      expectError(old, 401, "INVALID_API_KEY");
      expect((await req("GET", `/v1/sdk/template/${templateId}`, { key: rotated.json.key })).status).toBe(200);
      expect((await req("GET", `/api/v1/keys/${created.id}`, { key: admin })).json.prefix).toBe(rotated.json.key.slice(0, 12));
    });

    it("rotate with a grace period: both secrets work until it ends", async () => {
      const created = (await createKey({ name: "graceful", targets: ["html"] })).json;
      const rotated = await req("POST", `/api/v1/keys/${created.id}/rotate`, { key: admin, body: { grace_period_seconds: 1 } });
      expect(rotated.status).toBe(200);
      expect((await req("GET", `/v1/sdk/template/${templateId}`, { key: created.key })).status).toBe(200);
      expect((await req("GET", `/v1/sdk/template/${templateId}`, { key: rotated.json.key })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_200));
      const old = await req("GET", `/v1/sdk/template/${templateId}`, { key: created.key });
      expectError(old, 401, "INVALID_API_KEY");
      expect((await req("GET", `/v1/sdk/template/${templateId}`, { key: rotated.json.key })).status).toBe(200);
      const bad = await req("POST", `/api/v1/keys/${created.id}/rotate`, { key: admin, body: { grace_period_seconds: -5 } });
      expect(bad.json.issues[0]).toMatchObject({ loc: ["body", "grace_period_seconds"], type: "greater_than_equal" });
    });

    it("a revoked key cannot be rotated (409)", async () => {
      const created = (await createKey({ name: "gone", targets: ["html"] })).json;
      await req("DELETE", `/api/v1/keys/${created.id}`, { key: admin });
      expectError(await req("POST", `/api/v1/keys/${created.id}/rotate`, { key: admin }), 409, "KEY_REVOKED");
    });
  });

  describe("templates", () => {
    it("create assigns a UUID v4, writes it into template_id, and answers 201 with metadata and the checks' findings", async () => {
      // The id the Maildeno editor writes (made from the name) is not one anybody chose: the service gives its own.
      const res = await req("POST", "/api/v1/templates", { key: admin, body: { ...sampleTemplate("Created"), template_id: "created" } });
      expect(res.status).toBe(201);
      expect(res.json.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.json).toMatchObject({ name: "Created", version: 1, warnings: [] });
      expect(res.json.findings.map((f: { code: string }) => f.code)).toEqual(["LANGUAGE_MISSING"]);
      expect(res.json.etag).toBe(res.headers.get("etag"));
      expect(res.json.created_at).toBe(res.json.updated_at);
      const read = await req("GET", `/api/v1/templates/${res.json.id}`, { key: admin });
      expect(read.status).toBe(200);
      expect(read.json.template.template_id).toBe(res.json.id);
      expect(read.json).toMatchObject({ id: res.json.id, name: "Created", version: 1, etag: res.json.etag });
      const { template_id: _none, ...withoutId } = sampleTemplate("No id");
      expect((await req("POST", "/api/v1/templates", { key: admin, body: withoutId })).status).toBe(201);
    });

    it("create refuses a template_id that is not a UUID, with a hint, instead of replacing it silently", async () => {
      const res = await req("POST", "/api/v1/templates", { key: admin, body: { ...sampleTemplate("Welcome email"), template_id: "welcome" } });
      expectError(res, 422, "RENDER_ERROR");
      expect(res.json.issues).toEqual([
        {
          loc: ["body", "template_id"],
          msg: "Input should be a valid UUID",
          type: "uuid_parsing",
          input: "welcome",
          hint: "Leave template_id out: the service gives the template a UUID, in the response's id (or write a UUID v4 of your own)",
        },
      ]);
      expect(res.json.message).toBe('template_id "welcome" is not a UUID: the service cannot keep it');
      // An invalid template is still answered with its own issues first.
      const invalid = await req("POST", "/api/v1/templates", { key: admin, body: { ...sampleTemplate("Welcome email"), template_id: "welcome", canvas: 3 } });
      expect(invalid.json.issues.map((i: { loc: string[] }) => i.loc.join("."))).toEqual(["body.canvas"]);
    });

    it("create keeps a UUID v4 of the caller's, and refuses one a template has", async () => {
      const own = "0f8fad5b-d9cb-469f-a165-70867728950e";
      const created = await req("POST", "/api/v1/templates", { key: admin, body: { ...sampleTemplate("Own id"), template_id: own.toUpperCase() } });
      expect(created.status).toBe(201);
      expect(created.json.id).toBe(own);
      const again = await req("POST", "/api/v1/templates", { key: admin, body: { ...sampleTemplate("Own id"), template_id: own } });
      expectError(again, 409, "TEMPLATE_EXISTS");
      expect(again.json.message).toContain(`PUT /api/v1/templates/${own}`);
    });

    it("replace takes the template's own id or none in the body, and refuses another", async () => {
      const created = (await req("POST", "/api/v1/templates", { key: admin, body: sampleTemplate("Mine") })).json;
      expect((await req("PUT", `/api/v1/templates/${created.id}`, { key: admin, body: { ...sampleTemplate("Mine"), template_id: created.id } })).status).toBe(
        200,
      );
      const other = await req("PUT", `/api/v1/templates/${created.id}`, { key: admin, body: { ...sampleTemplate("Mine"), template_id: MISSING_UUID } });
      expectError(other, 422, "RENDER_ERROR");
      expect(other.json.issues[0]).toMatchObject({ loc: ["body", "template_id"], type: "template_id_mismatch", input: MISSING_UUID });
      expectError(
        await req("PUT", `/api/v1/templates/${MISSING_UUID}`, { key: admin, body: { ...sampleTemplate("Mine"), template_id: created.id } }),
        404,
        "TEMPLATE_NOT_FOUND",
      );
    });

    it("create and replace answer with the template checks' findings, located in the template; a finding never refuses it", async () => {
      const doc = sampleTemplate("Findings");
      const rows = doc["rows"] as { columns: { children: { props: Record<string, unknown> }[] }[] }[];
      rows[0]!.columns[0]!.children[1]!.props["content"] = "<p>Hi {{first_name}, thanks</p>";
      rows[0]!.columns[0]!.children.push({ type: "component", componentType: "button", props: { text: "Go", link: "" } } as never);
      const created = await req("POST", "/api/v1/templates", { key: admin, body: doc });
      expect(created.status).toBe(201);
      const found = created.json.findings.map((f: { code: string; severity: string; path: string[] }) => [f.severity, f.code, f.path.join("/")]);
      expect(found).toContainEqual(["warning", "MERGE_TAG_UNCLOSED", "rows/0/columns/0/children/1/props/content"]);
      expect(found).toContainEqual(["error", "BUTTON_LINK_MISSING", "rows/0/columns/0/children/2/props/link"]);
      const replaced = await req("PUT", `/api/v1/templates/${created.json.id}`, { key: admin, body: doc });
      expect(replaced.json.findings).toEqual(created.json.findings);
    });

    it("replace makes a new version and ETag, visible to SDK fetches", async () => {
      const created = (await req("POST", "/api/v1/templates", { key: admin, body: sampleTemplate("v1") })).json;
      const before = await req("GET", `/v1/sdk/template/${created.id}`, { key: htmlMjmlKey });
      const res = await req("PUT", `/api/v1/templates/${created.id}`, { key: admin, body: sampleTemplate("v2") });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id: created.id, name: "v2", version: 2 });
      expect(res.json.etag).not.toBe(created.etag);
      const after = await req("GET", `/v1/sdk/template/${created.id}`, { key: htmlMjmlKey, headers: { "if-none-match": before.headers.get("etag") ?? "" } });
      expect(after.status).toBe(200);
      expect(after.json.template_name).toBe("v2");
      expect(after.json.template_id).toBe(created.id);
      expectError(await req("PUT", `/api/v1/templates/${MISSING_UUID}`, { key: admin, body: sampleTemplate() }), 404, "TEMPLATE_NOT_FOUND");
    });

    it("list shows metadata only", async () => {
      const res = await req("GET", "/api/v1/templates", { key: admin });
      expect(res.status).toBe(200);
      expect(res.json.templates.length).toBeGreaterThanOrEqual(1);
      expect(res.json.templates[0]).toEqual({
        id: templateId,
        name: "Welcome",
        version: 1,
        etag: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const page = await req("GET", "/api/v1/templates?limit=1&offset=1", { key: admin });
      expect(page.json.templates).toHaveLength(1);
      expect(page.json.templates[0].id).not.toBe(templateId);
    });

    it("delete answers 204; later fetches and renders give 404", async () => {
      const created = (await req("POST", "/api/v1/templates", { key: admin, body: sampleTemplate("doomed") })).json;
      expect((await req("GET", `/v1/sdk/template/${created.id}`, { key: htmlMjmlKey })).status).toBe(200);
      const del = await req("DELETE", `/api/v1/templates/${created.id}`, { key: admin });
      expect(del.status).toBe(204);
      expect(del.text).toBe("");
      expectError(await req("GET", `/v1/sdk/template/${created.id}`, { key: htmlMjmlKey }), 404, "TEMPLATE_NOT_FOUND");
      expectError(await req("POST", "/v1/sdk/render", { key: htmlMjmlKey, body: { template_id: created.id } }), 404, "TEMPLATE_NOT_FOUND");
      expectError(await req("GET", `/api/v1/templates/${created.id}`, { key: admin }), 404, "TEMPLATE_NOT_FOUND");
      expectError(await req("DELETE", `/api/v1/templates/${created.id}`, { key: admin }), 404, "TEMPLATE_NOT_FOUND");
    });

    it("422 issues point into the document, prefixed with body", async () => {
      const doc = sampleTemplate();
      delete doc["template_name"];
      const rows = doc["rows"] as { columns: { children: { props: Record<string, unknown> }[] }[] }[];
      rows[0]!.columns[0]!.children[0]!.props["level"] = "h9";
      const res = await req("POST", "/api/v1/templates", { key: admin, body: doc });
      expectError(res, 422, "RENDER_ERROR");
      const locs = res.json.issues.map((i: { loc: string[] }) => i.loc);
      expect(locs).toContainEqual(["body", "template_name"]);
      expect(locs.some((l: string[]) => l.join(".").startsWith("body.rows.0.columns.0.children.0"))).toBe(true);
      for (const issue of res.json.issues) expect(Object.keys(issue).filter((k) => !["loc", "msg", "type", "input", "hint"].includes(k))).toEqual([]);
      expect(res.json.issues.find((i: { loc: string[] }) => i.loc.at(-1) === "level")).toMatchObject({ input: "h9" });
      const notObject = await req("POST", "/api/v1/templates", { key: admin, body: "just a string" });
      expect(notObject.json.issues).toEqual([{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type", input: "just a string" }]);
    });

    it("a document with __proto__ keys is refused", async () => {
      const res = await req("POST", "/api/v1/templates", {
        key: admin,
        rawBody: '{"__proto__": {"polluted": true}}',
        headers: { "content-type": "application/json" },
      });
      expectError(res, 422, "RENDER_ERROR");
      expect(res.json.issues[0].type).toBe("json_invalid");
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    });
  });

  describe("other statuses", () => {
    it("404 NOT_FOUND for unknown routes and 405 with Allow for a wrong method", async () => {
      expectError(await req("GET", "/v2/nothing", { key: admin }), 404, "NOT_FOUND");
      const res = await req("PATCH", `/api/v1/templates/${templateId}`, { key: admin });
      expectError(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.get("allow")).toBe("DELETE, GET, HEAD, PUT");
      expectError(await req("GET", "/v1/sdk/render", { key: admin }), 405, "METHOD_NOT_ALLOWED");
    });

    it("500 INTERNAL_ERROR without internals when a stored row is corrupt", async () => {
      const id = "0d6f3f0e-5a1b-4c2d-8e9f-a0b1c2d3e4f5";
      await rawSql(db.config, "INSERT INTO templates (id, name, body, version, etag, created_at, updated_at) VALUES ($1, $2, $3, 1, $4, $5, $6)", [
        id,
        "corrupt",
        "{not json",
        '"v1-corrupt"',
        new Date().toISOString(),
        new Date().toISOString(),
      ]);
      const res = await req("POST", "/v1/sdk/render", { key: htmlMjmlKey, body: { template_id: id } });
      expectError(res, 500, "INTERNAL_ERROR");
      expect(res.json.message).toBe("Internal server error");
      expect(res.text).not.toMatch(/SyntaxError|at .*\.ts|JSON\.parse|stack/);
    });

    it("/healthz and /readyz need no key", async () => {
      const health = await req("GET", "/healthz");
      expect(health.status).toBe(200);
      expect(health.json.status).toBe("ok");
      const ready = await req("GET", "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.json).toEqual({ status: "ready", database: backend });
    });
  });

  describe("limits configured lower on a second server on the same database", () => {
    let limited: TestServer;
    beforeAll(async () => {
      limited = await startTestServer({ database: db.config, adminKey: admin, bodyLimitBytes: 2_048, rateLimit: { max: 3, adminMax: 5, windowMs: 60_000 } });
    });
    afterAll(async () => {
      await limited?.close();
    });

    it("429 RATE_LIMITED with Retry-After, per key", async () => {
      const key = (await createKey({ name: "limited", targets: ["html"] })).json.key;
      for (let i = 0; i < 3; i++) expect((await call(limited.url, "GET", `/v1/sdk/template/${templateId}`, { key })).status).toBe(200);
      const res = await call(limited.url, "GET", `/v1/sdk/template/${templateId}`, { key });
      expectError(res, 429, "RATE_LIMITED");
      const retry = Number(res.headers.get("retry-after"));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      // Another key has its own budget.
      expect((await call(limited.url, "GET", `/v1/sdk/template/${templateId}`, { key: htmlMjmlKey })).status).toBe(200);
    });

    it("413 at the configured body limit", async () => {
      const body = JSON.stringify({ ...sampleTemplate(), template_name: "x".repeat(4_096) });
      const res = await call(limited.url, "POST", "/api/v1/templates", {
        key: generateApiKey(),
        rawBody: body,
        headers: { "content-type": "application/json" },
      });
      expectError(res, 401, "INVALID_API_KEY"); // authentication comes before reading the body
      const res2 = await call(limited.url, "POST", "/v1/sdk/render", { key: htmlMjmlKey, rawBody: body, headers: { "content-type": "application/json" } });
      expectError(res2, 413, "PAYLOAD_TOO_LARGE");
    });
  });
});
