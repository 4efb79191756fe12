import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { templateJsonSchema } from "@mailrender/engine";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PROTO_KEY_RULE } from "../src/http/json-body.js";
import { generateOpenApiYaml } from "../src/openapi.js";
import { ANY_VALUE, DEFS_POINTER, rewriteRefs, TEMPLATE_COMPONENT, TEMPLATE_INPUT_COMPONENT } from "../src/openapi-document.js";
import { createTestDatabase, type TestDatabase } from "./helpers/databases.js";
import { call, startTestServer, type TestServer, waitUntil } from "./helpers/server.js";

const SPEC_FILE = new URL("../../spec/openapi.yaml", import.meta.url);
const TEMPLATE_SCHEMA_FILE = new URL("../../spec/template/v1/template.schema.json", import.meta.url);
const STARTER = new URL("../demo/receipt.json", import.meta.url);

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Json }> }>;
};

/** `schema` without the `__proto__` rule the server adds to every open object. */
function withoutProtoKeyRule(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProtoKeyRule);
  if (value === null || typeof value !== "object") return value;
  const added = (key: string, v: unknown) =>
    (key === "propertyNames" && JSON.stringify(v) === JSON.stringify(PROTO_KEY_RULE)) ||
    (key === "additionalProperties" && JSON.stringify(v) === JSON.stringify(ANY_VALUE));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !added(key, v))
      .map(([key, v]) => [key, withoutProtoKeyRule(v)]),
  );
}

/** Every `$ref` in `value`. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, v]) => (key === "$ref" && typeof v === "string" ? [v] : refs(v)));
}

function resolvePointer(document: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, part) => (node !== null && typeof node === "object" ? (node as Json)[part] : undefined), document);
}

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
        "/api/v1/me",
        "/api/v1/studio/editor",
        "/api/v1/studio/preview",
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
    // What JSON Schema cannot say is said in the description, with the issue type the server answers.
    const expiresAt = res.json.components.schemas.CreateApiKey.properties.expires_at;
    expect(expiresAt.format).toBe("date-time");
    expect(expiresAt.description).toContain("`datetime_future`");
    const past = await call(server.url, "POST", "/api/v1/keys", {
      key: server.adminKey,
      body: { name: "past", targets: ["html"], expires_at: "2001-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(422);
    expect(past.json.issues[0].type).toBe("datetime_future");
  });

  it("carries the engine's template JSON Schema unchanged (spec/template/v1/template.schema.json)", () => {
    const document = parse(readFileSync(SPEC_FILE, "utf8")) as { components: { schemas: Record<string, Json> } };
    const carried = withoutProtoKeyRule(rewriteRefs(document.components.schemas[TEMPLATE_COMPONENT], DEFS_POINTER, "#/$defs/"));
    const { $schema: _dialect, $id: _id, ...published } = JSON.parse(readFileSync(TEMPLATE_SCHEMA_FILE, "utf8")) as Json;
    expect(carried).toEqual(published);
    expect(published).toEqual((({ $schema: _s, $id: _i, ...rest }) => rest)(templateJsonSchema()));
    // The body of a create or replace is the same document, `template_id` left to the service.
    const { required, properties, description: _description, ...input } = document.components.schemas[TEMPLATE_INPUT_COMPONENT] as Json;
    const { required: fullRequired, properties: fullProperties, description: _full, ...full } = document.components.schemas[TEMPLATE_COMPONENT] as Json;
    expect(required).toEqual((fullRequired as string[]).filter((name) => name !== "template_id"));
    expect(Object.keys(properties as Json)).toEqual(Object.keys(fullProperties as Json));
    const { $defs: _defs, title: _title, ...fullRoot } = full;
    expect(input).toEqual(fullRoot);
  });

  it("describes the template bodies with it, and every reference in the document resolves", async () => {
    const document = (await call(server.url, "GET", "/openapi.json")).json as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.fromEntries(Object.values(document.paths).flatMap((ops) => Object.values(ops).map((op) => [op.operationId, op])));
    for (const id of ["createTemplate", "replaceTemplate"]) {
      expect(operations[id]!.requestBody!.content["application/json"]!.schema).toEqual({ $ref: `#/components/schemas/${TEMPLATE_INPUT_COMPONENT}` });
    }
    expect(operations["getSdkTemplate"]!.responses["200"]!.content!["application/json"]!.schema).toEqual({
      $ref: `#/components/schemas/${TEMPLATE_COMPONENT}`,
    });
    const unresolved = [...new Set(refs(document))].filter((ref) => !ref.startsWith("#/") || resolvePointer(document, ref) === undefined);
    expect(unresolved).toEqual([]);

    // A JSON Schema validator reads the components as one document: a starter without its id is a valid body.
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ ...document, $id: "https://mailrender.test/openapi.json" });
    const validBody = ajv.getSchema(`https://mailrender.test/openapi.json#/components/schemas/${TEMPLATE_INPUT_COMPONENT}`)!;
    const { template_id: _id, ...starter } = JSON.parse(readFileSync(STARTER, "utf8")) as Json;
    expect(validBody(starter), JSON.stringify(validBody.errors)).toBe(true);
    expect(validBody({ ...starter, schema_version: "2.0" })).toBe(false);
    expect(validBody({ ...starter, canvas: { backgroundColor: " RED " } })).toBe(true);
    expect(validBody({ ...starter, canvas: { backgroundColor: "#ggg" } })).toBe(false);
    expect(validBody(JSON.parse(`{"template_name": "x", "canvas": {}, "rows": [], "schema_version": "1.0", "__proto__": 1}`))).toBe(false);
    expect(validBody(JSON.parse(`{"template_name": "x", "canvas": {"extra": [{"__proto__": 1}]}, "rows": [], "schema_version": "1.0"}`))).toBe(false);
    expect(validBody({ template_name: "x", canvas: { extra: [{ a: { b: 1 } }] }, rows: [], schema_version: "1.0" })).toBe(true);
  });

  it("documents the headers the server sends", async () => {
    const document = (await call(server.url, "GET", "/openapi.json")).json as { paths: Record<string, Record<string, Operation>> };
    const documented = (path: string, method: string, status: number) => Object.keys(document.paths[path]![method]!.responses[String(status)]!.headers ?? {});
    const sent = (headers: Headers, names: string[]) => names.filter((name) => headers.get(name) === null);

    const starter = JSON.parse(readFileSync(STARTER, "utf8")) as Json;
    const created = await call(server.url, "POST", "/api/v1/templates", { key: server.adminKey, body: starter });
    expect(created.status).toBe(201);
    expect(documented("/api/v1/templates", "post", 201).sort()).toEqual(["ETag", "Location"]);
    expect(sent(created.headers, documented("/api/v1/templates", "post", 201))).toEqual([]);

    const renderKey = (await call(server.url, "POST", "/api/v1/keys", { key: server.adminKey, body: { name: "docs", targets: ["html"] } })).json.key as string;
    const id = created.json.id as string;
    const fetched = await call(server.url, "GET", `/v1/sdk/template/${id}`, { key: renderKey });
    expect(sent(fetched.headers, documented("/v1/sdk/template/{id}", "get", 200))).toEqual([]);
    const etag = fetched.headers.get("etag")!;
    const notModified = await call(server.url, "GET", `/v1/sdk/template/${id}`, { key: renderKey, headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);
    expect(sent(notModified.headers, documented("/v1/sdk/template/{id}", "get", 304))).toEqual([]);
    const parameters = (document.paths["/v1/sdk/template/{id}"]!["get"] as unknown as { parameters: { in: string; name: string }[] }).parameters;
    expect(parameters).toContainEqual(expect.objectContaining({ in: "header", name: "if-none-match" }));

    const unauthorized = await call(server.url, "GET", "/api/v1/keys");
    expect(sent(unauthorized.headers, documented("/api/v1/keys", "get", 401))).toEqual([]);
    const deprecated = await call(server.url, "POST", "/v1/sdk/render", { key: renderKey, body: { template_id: id } });
    expect(deprecated.status).toBe(200);
    expect(sent(deprecated.headers, documented("/v1/sdk/render", "post", 200))).toEqual([]);
    expect(documented("/v1/sdk/render", "post", 422)).toContain("Sunset");

    // A DELETE reads a body that is sent: not JSON is 415, as its responses say.
    const notJson = await call(server.url, "DELETE", `/api/v1/templates/${id}`, {
      key: server.adminKey,
      rawBody: "x",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
    expect(document.paths["/api/v1/templates/{id}"]!["delete"]!.responses["415"]).toBeDefined();
    const malformed = await fetch(`${server.url}/api/v1/templates/%E0%A4%A`, { headers: { authorization: `Bearer ${server.adminKey}` } });
    expect(malformed.status).toBe(400);
    expect(document.paths["/api/v1/templates/{id}"]!["get"]!.responses["400"]).toBeDefined();
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
    // Each request's line is written once its answer has left, which the client may see first.
    await waitUntil(async () => logLines.some((line) => line.includes("/v1/sdk/template/nope")), 5_000);
    const all = logLines.join("\n");
    expect(all).not.toContain(secret);
    expect(all).not.toContain(secret.slice(8, 40));
  });
});
