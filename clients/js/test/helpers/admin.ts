/** The server's admin API, used by the tests to create keys and templates (real HTTP calls). */
import type { RealServer } from "./server.js";

async function call(server: RealServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

function expectStatus(res: { status: number; json: unknown }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.json)}`);
}

/** A render key with the given targets; returns the secret and its id. */
export async function createKey(server: RealServer, targets: string[], name = "client-test"): Promise<{ key: string; id: string }> {
  const res = await call(server, "POST", "/api/v1/keys", { name, targets });
  expectStatus(res, 201, "create key");
  return { key: String(res.json["key"]), id: String(res.json["id"]) };
}

export async function revokeKey(server: RealServer, id: string): Promise<void> {
  const res = await call(server, "DELETE", `/api/v1/keys/${id}`);
  if (res.status !== 200 && res.status !== 204) throw new Error(`revoke key: ${res.status}`);
}

/** Stores a template; returns the id the service assigned. */
export async function createTemplate(server: RealServer, template: Record<string, unknown>): Promise<string> {
  const res = await call(server, "POST", "/api/v1/templates", template);
  expectStatus(res, 201, "create template");
  return String(res.json["id"]);
}

export async function replaceTemplate(server: RealServer, id: string, template: Record<string, unknown>): Promise<void> {
  expectStatus(await call(server, "PUT", `/api/v1/templates/${id}`, template), 200, "replace template");
}

export async function deleteTemplate(server: RealServer, id: string): Promise<void> {
  expectStatus(await call(server, "DELETE", `/api/v1/templates/${id}`), 204, "delete template");
}

/** A small valid template with a merge tag; `heading` makes versions distinguishable in the output. */
export function sampleTemplate(heading = "Hello"): Record<string, unknown> {
  return {
    // The id the Maildeno editor writes, made from the name: the service gives the template its own.
    template_id: "client_test",
    template_name: "Client test",
    schema_version: "1.0",
    canvas: {},
    rows: [
      {
        id: "r1",
        type: "row",
        columns: [
          {
            id: "c1",
            width: 100,
            children: [
              { id: "h1", type: "component", componentType: "heading", props: { content: `${heading} {{first_name|'there'}}` } },
              { id: "p1", type: "component", componentType: "paragraph", props: { content: "<p>Body text</p>" } },
            ],
          },
        ],
      },
    ],
  };
}
