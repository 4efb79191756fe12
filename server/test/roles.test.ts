/** Key roles: every route × every role over real HTTP, the keys' lifecycle, on SQLite and PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

const ROLES = ["render", "viewer", "editor", "admin"] as const;
type Role = (typeof ROLES)[number];

/** Who may call each route, written out here (not read from the code) so that a change of access is a change of this table. */
const MAY: Record<string, readonly Role[]> = {
  any: ROLES,
  read: ["viewer", "editor", "admin"],
  write: ["editor", "admin"],
  keys: ["admin"],
};

/** Every route that needs a key; GET routes stand for their HEAD too. A route missing here fails the test. */
const ACCESS: Record<string, keyof typeof MAY> = {
  "GET /v1/sdk/template/:id": "any",
  "POST /v1/sdk/render": "any",
  "GET /api/v1/me": "any",
  "POST /api/v1/keys": "keys",
  "GET /api/v1/keys": "keys",
  "GET /api/v1/keys/:id": "keys",
  "PATCH /api/v1/keys/:id": "keys",
  "DELETE /api/v1/keys/:id": "keys",
  "POST /api/v1/keys/:id/rotate": "keys",
  "GET /api/v1/templates": "read",
  "GET /api/v1/templates/:id": "read",
  "POST /api/v1/templates": "write",
  "PUT /api/v1/templates/:id": "write",
  "DELETE /api/v1/templates/:id": "write",
  "GET /api/v1/templates/:id/sample": "read",
  "PUT /api/v1/templates/:id/sample": "write",
  "POST /api/v1/templates/:id/preview": "read",
  "GET /api/v1/studio/starters": "read",
  "GET /api/v1/studio/editor": "read",
  "POST /api/v1/studio/preview": "read",
};

const MISSING_KEY = "key_01ARZ3NDEKTSV4RRFFQ69G5FAV";
const MISSING_TEMPLATE = "3f1c2a4e-8b7d-4c6e-9f0a-1b2c3d4e5f60";

describe.each(BACKENDS)("key roles on %s", (backend) => {
  let db: TestDatabase;
  let server: TestServer;
  const keys = {} as Record<Role, { id: string; key: string }>;
  let templateId: string;
  const req = (method: string, path: string, key?: string, body?: unknown) => call(server.url, method, path, { key, ...(body === undefined ? {} : { body }) });
  const admin = (method: string, path: string, body?: unknown) => req(method, path, server.adminKey, body);

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    server = await startTestServer({ database: db.config });
    for (const role of ROLES) {
      const created = await admin("POST", "/api/v1/keys", { name: `${role}-key`, role, ...(role === "render" && { targets: ["all"] }) });
      expect(created.status, created.text).toBe(201);
      expect(created.json.role).toBe(role);
      keys[role] = { id: created.json.id, key: created.json.key };
    }
    templateId = (await admin("POST", "/api/v1/templates", sampleTemplate("shared"))).json.id;
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("the table covers every route that needs a key", () => {
    const guarded = server
      .routes()
      .filter((r) => r.auth !== "public" && r.method !== "HEAD")
      .map((r) => `${r.method} ${r.url}`);
    expect(guarded.sort()).toEqual(Object.keys(ACCESS).sort());
  });

  it("every route × every role: allowed, or 403 naming the key's role — authorised before the body or the id is looked at", async () => {
    for (const route of server.routes().filter((r) => r.auth !== "public")) {
      const entry = ACCESS[`${route.method === "HEAD" ? "GET" : route.method} ${route.url}`];
      expect(entry, `${route.method} ${route.url}`).toBeDefined();
      // Ids that do not exist and empty bodies: an allowed call gets 404 or 422 and changes nothing.
      const path = route.url.replace("/keys/:id", `/keys/${MISSING_KEY}`).replace(":id", MISSING_TEMPLATE);
      const body = ["POST", "PUT", "PATCH"].includes(route.method) ? {} : undefined;
      for (const role of ROLES) {
        const res = await req(route.method, path, keys[role].key, body);
        const where = `${role} → ${route.method} ${route.url}: ${res.status} ${res.text.slice(0, 200)}`;
        if (MAY[entry!]!.includes(role)) {
          expect([401, 403], where).not.toContain(res.status);
        } else {
          expect(res.status, where).toBe(403);
          if (route.method !== "HEAD") {
            expect(res.json.code, where).toBe("FORBIDDEN");
            expect(res.json.message, where).toContain(`this key's role is ${role}`);
          }
        }
      }
    }
  });

  it("each role's work really happens: a viewer reads and previews, an editor writes, only an admin manages keys", async () => {
    const as = (role: Role) => (method: string, path: string, body?: unknown) => req(method, path, keys[role].key, body);
    const viewer = as("viewer");
    expect((await viewer("GET", "/api/v1/templates")).json.templates.map((t: { id: string }) => t.id)).toContain(templateId);
    expect((await viewer("GET", `/api/v1/templates/${templateId}`)).json.template.template_name).toBe("shared");
    expect((await viewer("GET", `/api/v1/templates/${templateId}/sample`)).status).toBe(200);
    const preview = await viewer("POST", `/api/v1/templates/${templateId}/preview`, { dynamic_data: { merge_tags: { text: { first_name: "Vi" } } } });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json.text).toContain("Hi Vi");
    expect((await viewer("GET", `/v1/sdk/template/${templateId}`)).status).toBe(200);
    expect((await viewer("PUT", `/api/v1/templates/${templateId}/sample`, { dynamic_data: {} })).status).toBe(403);
    expect((await viewer("PUT", `/api/v1/templates/${templateId}`, sampleTemplate("defaced"))).status).toBe(403);

    const editor = as("editor");
    const created = await editor("POST", "/api/v1/templates", sampleTemplate("by editor"));
    expect(created.status, created.text).toBe(201);
    expect((await editor("PUT", `/api/v1/templates/${created.json.id}`, sampleTemplate("edited"))).json.version).toBe(2);
    expect((await editor("PUT", `/api/v1/templates/${created.json.id}/sample`, { dynamic_data: { context: { a: "b" } } })).status).toBe(200);
    expect((await editor("DELETE", `/api/v1/templates/${created.json.id}`)).status).toBe(204);
    expect((await editor("GET", "/api/v1/keys")).status).toBe(403);

    const render = as("render");
    expect((await render("GET", `/v1/sdk/template/${templateId}`)).status).toBe(200);
    expect((await render("POST", "/v1/sdk/render", { template_id: templateId })).status).toBe(200);
    expect((await render("GET", "/api/v1/templates")).status).toBe(403);

    const listed = await as("admin")("GET", "/api/v1/keys?limit=500");
    const roleOf = (id: string) => listed.json.keys.find((k: { id: string }) => k.id === id)?.role;
    for (const role of ROLES) expect(roleOf(keys[role].id)).toBe(role);
  });

  it("GET /api/v1/me: the calling key's role and permissions, for any key", async () => {
    const expected: Record<Role, string[]> = {
      render: [],
      viewer: ["templates:read"],
      editor: ["templates:read", "templates:write"],
      admin: ["templates:read", "templates:write", "keys:manage"],
    };
    for (const role of ROLES) {
      const me = await req("GET", "/api/v1/me", keys[role].key);
      expect(me.status, me.text).toBe(200);
      expect(me.json).toMatchObject({ id: keys[role].id, name: `${role}-key`, role, permissions: expected[role], status: "active" });
      expect(me.text).not.toContain(keys[role].key);
    }
    const bootstrap = await req("GET", "/api/v1/me", server.adminKey);
    expect(bootstrap.json).toMatchObject({ name: "bootstrap-admin", role: "admin", targets: [] });
    expect((await req("GET", "/api/v1/me")).status).toBe(401);
  });

  it("creating keys: the role is validated, render keys need targets, the others may have none", async () => {
    const viewer = await admin("POST", "/api/v1/keys", { name: "marketing", role: "viewer" });
    expect(viewer.status, viewer.text).toBe(201);
    expect(viewer.json).toMatchObject({ role: "viewer", targets: [] });
    const scoped = await admin("POST", "/api/v1/keys", { name: "editor-html", role: "editor", targets: ["html"] });
    expect(scoped.json).toMatchObject({ role: "editor", targets: ["html"] });
    expect((await req("POST", "/v1/sdk/render", scoped.json.key, { template_id: templateId })).status).toBe(200);
    const cases: [unknown, { loc: string[]; type: string }[]][] = [
      [{ name: "x" }, [{ loc: ["body", "targets"], type: "missing" }]],
      [{ name: "x", role: "render", targets: [] }, [{ loc: ["body", "targets"], type: "too_short" }]],
      [{ name: "x", role: "owner", targets: ["html"] }, [{ loc: ["body", "role"], type: "literal_error" }]],
      [{ role: "viewer" }, [{ loc: ["body", "name"], type: "missing" }]],
    ];
    for (const [body, issues] of cases) {
      const res = await admin("POST", "/api/v1/keys", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.json.issues.map((i: { loc: string[]; type: string }) => ({ loc: i.loc, type: i.type })),
        JSON.stringify(body),
      ).toEqual(issues);
    }
  });

  it("PATCH /api/v1/keys/{id}: an admin renames a key or changes its role, effective at once", async () => {
    const created = (await admin("POST", "/api/v1/keys", { name: "promotable", role: "viewer" })).json;
    expect((await req("POST", "/api/v1/templates", created.key, sampleTemplate())).status).toBe(403);
    const promoted = await admin("PATCH", `/api/v1/keys/${created.id}`, { role: "editor" });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.json).toMatchObject({ id: created.id, name: "promotable", role: "editor", status: "active" });
    expect((await req("POST", "/api/v1/templates", created.key, sampleTemplate())).status).toBe(201);
    const renamed = await admin("PATCH", `/api/v1/keys/${created.id}`, { name: "copy-editor" });
    expect(renamed.json).toMatchObject({ name: "copy-editor", role: "editor" });
    expect((await req("GET", "/api/v1/me", created.key)).json).toMatchObject({ name: "copy-editor", role: "editor" });

    expect((await req("PATCH", `/api/v1/keys/${created.id}`, keys.editor.key, { role: "admin" })).status).toBe(403);
    expect((await admin("PATCH", `/api/v1/keys/${MISSING_KEY}`, { role: "viewer" })).json.code).toBe("KEY_NOT_FOUND");
    const empty = await admin("PATCH", `/api/v1/keys/${created.id}`, {});
    expect(empty.status).toBe(422);
    expect(empty.json.issues).toEqual([{ loc: ["body"], msg: "Send `name`, `role` or both", type: "missing" }]);
    const noTargets = await admin("PATCH", `/api/v1/keys/${created.id}`, { role: "render" });
    expect(noTargets.status).toBe(409);
    expect(noTargets.json.code).toBe("KEY_HAS_NO_TARGETS");
    expect((await req("GET", "/api/v1/me", created.key)).json.role).toBe("editor");
    const extra = await admin("PATCH", `/api/v1/keys/${created.id}`, { targets: ["html"] });
    expect(extra.json.issues[0]).toMatchObject({ loc: ["body", "targets"], type: "extra_forbidden" });
  });

  it("the last active admin key keeps its role and cannot be revoked (409), also when two admins demote each other at once", async () => {
    // A server of its own, so that the only admin keys are the ones made here.
    const own = await createTestDatabase(backend);
    const solo = await startTestServer({ database: own.config });
    try {
      const first = (await call(solo.url, "GET", "/api/v1/me", { key: solo.adminKey })).json.id as string;
      const demoteSelf = await call(solo.url, "PATCH", `/api/v1/keys/${first}`, { key: solo.adminKey, body: { role: "editor" } });
      expect(demoteSelf.status, demoteSelf.text).toBe(409);
      expect(demoteSelf.json.code).toBe("LAST_ADMIN_KEY");
      expect((await call(solo.url, "DELETE", `/api/v1/keys/${first}`, { key: solo.adminKey })).json.code).toBe("LAST_ADMIN_KEY");
      expect((await call(solo.url, "GET", "/api/v1/me", { key: solo.adminKey })).json).toMatchObject({ role: "admin", status: "active" });

      for (let round = 0; round < 3; round++) {
        const second = (await call(solo.url, "POST", "/api/v1/keys", { key: solo.adminKey, body: { name: `second-${round}`, role: "admin" } })).json;
        const before = (await call(solo.url, "GET", "/api/v1/keys?limit=500", { key: solo.adminKey })).json.keys;
        expect(before.filter((k: { role: string; status: string }) => k.role === "admin" && k.status === "active")).toHaveLength(2);
        const [a, b] = await Promise.all([
          call(solo.url, "PATCH", `/api/v1/keys/${first}`, { key: second.key, body: { role: "viewer" } }),
          call(solo.url, "PATCH", `/api/v1/keys/${second.id}`, { key: solo.adminKey, body: { role: "viewer" } }),
        ]);
        // One demotion wins; the other is refused as the last admin (409), or its caller had just lost the role (403).
        expect(
          [a.status, b.status].filter((s) => s === 200),
          `${a.text} / ${b.text}`,
        ).toHaveLength(1);
        expect([a.status, b.status].filter((s) => s === 409 || s === 403)).toHaveLength(1);
        const remaining = a.status === 200 ? second : { id: first, key: solo.adminKey };
        const left = (await call(solo.url, "GET", "/api/v1/keys?limit=500", { key: remaining.key })).json.keys.filter(
          (k: { role: string; status: string }) => k.role === "admin" && k.status === "active",
        );
        expect(left.map((k: { id: string }) => k.id)).toEqual([remaining.id]);
        // Back to the start: the bootstrap key is the only admin again.
        if (remaining.id !== first) {
          expect((await call(solo.url, "PATCH", `/api/v1/keys/${first}`, { key: second.key, body: { role: "admin" } })).status).toBe(200);
        }
        expect((await call(solo.url, "DELETE", `/api/v1/keys/${second.id}`, { key: solo.adminKey })).status).toBe(200);
      }
    } finally {
      await solo.close();
      await own.drop();
    }
  });
});
