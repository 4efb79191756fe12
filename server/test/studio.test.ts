/** The studio: its page and assets (public), and every endpoint it uses, on both databases. */
import { readFileSync } from "node:fs";
import { BLOCK_LIST, render, validateTemplate } from "@mailrender/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer } from "./helpers/server.js";
import { sampleTemplate } from "./helpers/templates.js";

const MISSING_UUID = "3f1c2a4e-8b7d-4c6e-9f0a-1b2c3d4e5f60";
const PASSWORD_RESET = JSON.parse(readFileSync(new URL("../../fixtures/render/realistic-password-reset/case.json", import.meta.url), "utf8")) as {
  template: Record<string, unknown>;
  dynamic_data: Record<string, unknown>;
};

function conditional(): Record<string, unknown> {
  const doc = sampleTemplate("Conditional");
  const rows = doc["rows"] as Array<Record<string, unknown>>;
  rows.push({
    id: "r-pro",
    type: "row",
    visibility: { enabled: true, match: "all", rules: [{ tag: "plan", operator: "==", value: "pro" }] },
    columns: [
      {
        id: "c-pro",
        width: 100,
        children: [{ id: "p-pro", type: "component", componentType: "button", props: { text: "Pro perks", link: "{{ url.perks }}" } }],
      },
    ],
  });
  return doc;
}

describe.each(BACKENDS)("studio on %s", (backend) => {
  let db: TestDatabase;
  let server: TestServer;
  let renderKey: string;
  let templateId: string;
  const req = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) => call(server.url, method, path, opts);
  const admin = (method: string, path: string, body?: unknown) => req(method, path, { key: server.adminKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    server = await startTestServer({ database: db.config });
    renderKey = (await admin("POST", "/api/v1/keys", { name: "render", targets: ["all"] })).json.key;
    const created = await admin("POST", "/api/v1/templates", conditional());
    expect(created.status, created.text).toBe(201);
    templateId = created.json.id;
  });

  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("serves the page and its built assets without a key, each under its own URL", async () => {
    for (const path of ["/studio", `/studio/templates/${templateId}`, "/studio/new?name=Hello", "/studio/keys"]) {
      const page = await req("GET", path);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.text).toContain('src="/studio/assets/studio.js"');
      expect(page.headers.get("content-security-policy")).toMatch(/default-src 'self'/);
    }
    const js = await req("GET", "/studio/assets/studio.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(js.text.length).toBeGreaterThan(5_000);
    expect((await req("GET", "/studio/assets/studio.css")).headers.get("content-type")).toMatch(/^text\/css/);
    expect((await req("GET", "/studio/assets/..%2Fsrc%2Fmain.ts")).status).toBe(404);
    expect((await req("GET", "/studio/assets/nope.js")).status).toBe(404);
  });

  it("sample data: built from the template's tags and context keys until saved, then as saved", async () => {
    const built = await admin("GET", `/api/v1/templates/${templateId}/sample`);
    expect(built.status, built.text).toBe(200);
    expect(built.json).toEqual({
      saved: false,
      dynamic_data: { merge_tags: { text: { first_name: "there" }, url: { perks: "https://example.com/perks" }, attr: {} }, context: { plan: "" } },
    });
    const data = { merge_tags: { text: { first_name: "Ada" } }, context: { plan: "pro" } };
    const put = await admin("PUT", `/api/v1/templates/${templateId}/sample`, { dynamic_data: data });
    expect(put.status, put.text).toBe(200);
    const read = await admin("GET", `/api/v1/templates/${templateId}/sample`);
    expect(read.json).toEqual({ saved: true, dynamic_data: data });
  });

  it("sample data: 404 for an unknown template, 422 for data that is not dynamic data, 401 without a key, 403 for a render key", async () => {
    expect((await admin("GET", `/api/v1/templates/${MISSING_UUID}/sample`)).status).toBe(404);
    expect((await admin("PUT", `/api/v1/templates/${MISSING_UUID}/sample`, { dynamic_data: {} })).json.code).toBe("TEMPLATE_NOT_FOUND");
    const bad = await admin("PUT", `/api/v1/templates/${templateId}/sample`, { dynamic_data: { merge_tags: { text: { a: 1 } } } });
    expect(bad.status).toBe(422);
    expect(bad.json.issues[0].loc).toEqual(["body", "dynamic_data", "merge_tags", "text", "a"]);
    expect((await req("GET", `/api/v1/templates/${templateId}/sample`)).status).toBe(401);
    expect((await req("GET", `/api/v1/templates/${templateId}/sample`, { key: renderKey })).status).toBe(403);
  });

  it("preview: every target, sizes, warnings, plain text and the visibility decisions for the sample", async () => {
    const hidden = await admin("POST", `/api/v1/templates/${templateId}/preview`, { dynamic_data: { context: { plan: "free" } } });
    expect(hidden.status, hidden.text).toBe(200);
    expect(Object.keys(hidden.json.targets).sort()).toEqual(["html", "mjml", "react-email"]);
    expect(hidden.json.targets.html.output).toMatch(/^<!doctype html>/i);
    expect(hidden.json.targets.html.bytes).toBe(Buffer.byteLength(hidden.json.targets.html.output));
    expect(hidden.json.targets.mjml.output).toContain("<mjml");
    expect(hidden.json.targets["react-email"].output).toContain("@react-email/components");
    expect(hidden.json.gmail_clip_bytes).toBe(102 * 1024);
    expect(hidden.json.text).toBe("Hi there\n\nBody text");
    const row = hidden.json.visibility.find((d: { id: string }) => d.id === "r-pro");
    expect(row).toMatchObject({
      visible: false,
      reason: "rules failed (all)",
      rules: [{ tag: "plan", operator: "==", value: "pro", actual: "free", passed: false }],
    });

    const shown = await admin("POST", `/api/v1/templates/${templateId}/preview`, {
      dynamic_data: { context: { plan: "pro" }, merge_tags: { url: { perks: "javascript:alert(1)" } } },
    });
    expect(shown.json.text).toBe("Hi there\n\nBody text\n\nPro perks");
    expect(shown.json.targets.html.warnings.map((w: { code: string }) => w.code)).toEqual(["MISSING_MERGE_TAG", "UNSAFE_URL"]);
    expect(shown.json.visibility.find((d: { id: string }) => d.id === "p-pro").visible).toBe(true);
  });

  it("preview: 404 for an unknown template, 422 for bad dynamic data, not for a render key", async () => {
    expect((await admin("POST", `/api/v1/templates/${MISSING_UUID}/preview`, {})).status).toBe(404);
    const bad = await admin("POST", `/api/v1/templates/${templateId}/preview`, { dynamic_data: { context: { a: null } } });
    expect(bad.status).toBe(422);
    expect((await req("POST", `/api/v1/templates/${templateId}/preview`, { key: renderKey, body: {} })).status).toBe(403);
  });

  it("editor description: every block of the engine's registry, with each field's kind-specific keys and default", async () => {
    const res = await admin("GET", "/api/v1/studio/editor");
    expect(res.status, res.text).toBe(200);
    expect(res.json.blocks.map((b: { type: string }) => b.type)).toEqual(BLOCK_LIST.map((b) => b.type));
    const heading = res.json.blocks.find((b: { type: string }) => b.type === "heading");
    const level = heading.groups.flatMap((g: { fields: unknown[] }) => g.fields).find((f: { prop: string }) => f.prop === "level");
    expect(level).toMatchObject({ kind: "enum", default: "h2" });
    expect(level.options.map((o: { value: string }) => o.value)).toEqual(["h1", "h2", "h3", "h4", "h5", "h6"]);
    expect(res.json.canvas.groups.length).toBeGreaterThan(0);
    expect((await req("GET", "/api/v1/studio/editor", { key: renderKey })).status).toBe(403);
  });

  it("draft preview: a template not stored renders as the engine renders it, with findings, merge tags and a sample", async () => {
    const dynamic = PASSWORD_RESET.dynamic_data;
    const res = await admin("POST", "/api/v1/studio/preview", { template: PASSWORD_RESET.template, dynamic_data: dynamic });
    expect(res.status, res.text).toBe(200);
    const expected = await render(PASSWORD_RESET.template, { target: "html", dynamicData: dynamic, plainText: true });
    expect(res.json.html.output).toBe(expected.output);
    expect(res.json.text).toBe(expected.text);
    expect(res.json.view).toBeNull();
    expect(res.json.merge_tags.map((t: { name: string }) => t.name).sort()).toEqual(["email", "expires_in", "first_name", "reset_url"]);
    expect(res.json.sample.merge_tags.url.reset_url).toBe("https://example.com/reset_url");
    // The template checks' findings, as the engine's validator reports them: this template only omits its language.
    expect(res.json.findings).toEqual(validateTemplate(PASSWORD_RESET.template).findings);
    expect(res.json.findings.map((f: { code: string }) => f.code)).toEqual(["LANGUAGE_MISSING"]);

    const broken = structuredClone(PASSWORD_RESET.template) as { rows: { columns: { children: { props: Record<string, unknown> }[] }[] }[] };
    broken.rows[0]!.columns[0]!.children[0]!.props["src"] = "";
    const found = await admin("POST", "/api/v1/studio/preview", { template: broken });
    expect(found.json.findings).toContainEqual(
      expect.objectContaining({ code: "IMAGE_SOURCE_MISSING", path: ["rows", "0", "columns", "0", "children", "0", "props", "src"] }),
    );

    const invalid = await admin("POST", "/api/v1/studio/preview", { template: { ...PASSWORD_RESET.template, canvas: { width: "wide" } } });
    expect(invalid.status).toBe(422);
    expect(invalid.json.issues[0].loc).toEqual(["body", "template", "canvas", "width"]);
  });

  it("draft preview: MJML compiled by mjml and React Email rendered by React, beside their sources", async () => {
    for (const target of ["mjml", "react-email"] as const) {
      const res = await admin("POST", "/api/v1/studio/preview", { template: PASSWORD_RESET.template, dynamic_data: PASSWORD_RESET.dynamic_data, target });
      expect(res.status, res.text).toBe(200);
      expect(res.json.view.error).toBeNull();
      expect(res.json.view.source.output).toContain(target === "mjml" ? "<mjml" : "@react-email/components");
      expect(res.json.view.html).toMatch(/^<!DOCTYPE html/i);
      expect(res.json.view.html).toContain("Hi Priya, someone asked to reset the password");
    }
  });

  it("replacing with If-Match: only while the template is as it was read; 412 TEMPLATE_CHANGED otherwise", async () => {
    const created = await admin("POST", "/api/v1/templates", sampleTemplate("Contended"));
    const id = created.json.id as string;
    const first = created.json.etag as string;
    const put = (etag: string) =>
      req("PUT", `/api/v1/templates/${id}`, { key: server.adminKey, body: sampleTemplate("Contended"), headers: { "if-match": etag } });
    const ok = await put(first);
    expect(ok.status, ok.text).toBe(200);
    const stale = await put(first);
    expect(stale.status).toBe(412);
    expect(stale.json.code).toBe("TEMPLATE_CHANGED");
    expect((await admin("GET", `/api/v1/templates/${id}`)).json.version).toBe(2);
    expect((await put(`W/${ok.json.etag as string}`)).status).toBe(412);
    expect((await put(`"nope", ${ok.json.etag as string}`)).status).toBe(200);
    expect((await put("*")).status).toBe(200);
    expect(
      (await req("PUT", `/api/v1/templates/${MISSING_UUID}`, { key: server.adminKey, body: sampleTemplate("x"), headers: { "if-match": first } })).status,
    ).toBe(404);
  });

  it("starters: the demo templates, each valid and creatable", async () => {
    const res = await admin("GET", "/api/v1/studio/starters");
    expect(res.status, res.text).toBe(200);
    expect(res.json.starters.map((s: { name: string }) => s.name).sort()).toEqual(["Password reset", "Receipt", "mailrender demo newsletter"].sort());
    for (const starter of res.json.starters) {
      const created = await admin("POST", "/api/v1/templates", starter.template);
      expect(created.status, created.text).toBe(201);
      expect(created.json.warnings).toEqual([]);
    }
    expect((await req("GET", "/api/v1/studio/starters", { key: renderKey })).status).toBe(403);
  });

  it("deleting a template deletes its sample data", async () => {
    const created = await admin("POST", "/api/v1/templates", sampleTemplate("Doomed"));
    const id = created.json.id as string;
    expect((await admin("PUT", `/api/v1/templates/${id}/sample`, { dynamic_data: { context: { a: "b" } } })).status).toBe(200);
    expect((await admin("DELETE", `/api/v1/templates/${id}`)).status).toBe(204);
    expect((await admin("GET", `/api/v1/templates/${id}/sample`)).status).toBe(404);
  });
});
