/**
 * Every golden fixture through the client path: the case's template is stored on the real server
 * through the admin API, then rendered by the client (fetch → cache → in-process engine) with the
 * case's dynamic_data and options, for every target. Output must equal the golden byte for byte and
 * the warnings' code and path must equal expected.warnings.json, the plain text expected.txt (fixtures/README.md).
 *
 * errors/ cases: a template the server accepts (the strict merge-tag cases) is rendered through the
 * client and must fail with the expected code and issues. A template the server refuses can never
 * reach a client; for those the test checks that the server refuses it with 422 RENDER_ERROR and,
 * where it passes the engine's findings through, the same issues under `body` (less a missing
 * template_id, which the service fills in itself).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { render } from "@mailrender/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DynamicData, MailrenderClient, MailrenderError, RENDER_TARGETS, type RenderTarget, type ValidationIssue } from "../src/index.js";
import { createKey } from "./helpers/admin.js";
import { FIXTURES_DIR } from "./helpers/paths.js";
import { type RealServer, startServer } from "./helpers/server.js";

const EXT: Record<RenderTarget, string> = { html: "html", mjml: "mjml", "react-email": "tsx" };

interface Case {
  template: unknown;
  dynamic_data?: DynamicData;
  options?: { minify?: boolean; strict?: boolean };
  target?: RenderTarget;
}

function cases(kind: "render" | "errors"): string[] {
  const dir = path.join(FIXTURES_DIR, kind);
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, "case.json")))
    .sort();
}

function readCase(kind: "render" | "errors", name: string): Case {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, kind, name, "case.json"), "utf8")) as Case;
}

let server: RealServer;
let client: MailrenderClient;

/**
 * POST /api/v1/templates with any body (error cases may not be objects). The fixtures' ids are not
 * UUIDs, which the service refuses: a template is stored without one, and the service gives it its own.
 */
async function store(template: unknown): Promise<{ status: number; json: { id?: string; code?: string; issues?: ValidationIssue[] } }> {
  const withoutId = typeof template === "object" && template !== null && !Array.isArray(template) ? { ...template, template_id: undefined } : template;
  const res = await fetch(`${server.url}/api/v1/templates`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify(withoutId),
  });
  return { status: res.status, json: (await res.json()) as { id?: string; code?: string; issues?: ValidationIssue[] } };
}

beforeAll(async () => {
  server = await startServer();
  client = new MailrenderClient({ apiKey: (await createKey(server, ["all"])).key, baseUrl: server.url });
});

afterAll(async () => {
  await server?.stop();
});

describe("render fixtures through the client", () => {
  it("found the fixtures", () => {
    expect(cases("render").length).toBeGreaterThan(50);
  });

  it.each(cases("render"))("%s", async (name) => {
    const spec = readCase("render", name);
    const stored = await store(spec.template);
    expect(stored.status, JSON.stringify(stored.json)).toBe(201);
    const expectedWarnings = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "render", name, "expected.warnings.json"), "utf8")) as Record<
      RenderTarget,
      unknown
    >;
    for (const target of RENDER_TARGETS) {
      const result = await client.render({
        templateId: stored.json.id!,
        target,
        dynamicData: spec.dynamic_data ?? {},
        minify: spec.options?.minify,
        strict: spec.options?.strict,
        plainText: true,
      });
      const golden = readFileSync(path.join(FIXTURES_DIR, "render", name, `expected.${EXT[target]}`), "utf8");
      expect(result.output, `${name}/${target}`).toBe(golden);
      expect(result.text, `${name}/${target} plain text`).toBe(readFileSync(path.join(FIXTURES_DIR, "render", name, "expected.txt"), "utf8"));
      expect(
        result.warnings.map(({ code, path: p }) => ({ code, path: p })),
        `${name}/${target} warnings`,
      ).toEqual(expectedWarnings[target]);
    }
  });
});

describe("componentProps", () => {
  it("renders the engine's component; a recipient's data beside it is refused, naming the option", async () => {
    const spec = readCase("render", "merge-tag-positions");
    const stored = await store(spec.template);
    const templateId = stored.json.id!;
    const result = await client.render({ templateId, target: "react-email", componentProps: true });
    const direct = await render({ ...(spec.template as object), template_id: templateId }, { target: "react-email", componentProps: true });
    expect(result.output).toBe(direct.output);
    expect(result.output).toMatch(/export default function \w+\(props: \w+Props = \{\}\)/);
    const refused = await client
      .render({ templateId, target: "react-email", componentProps: true, dynamicData: spec.dynamic_data ?? {} })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MailrenderError);
    expect(refused).toMatchObject({ code: "RENDER_ERROR", status: 422, issues: [{ loc: ["dynamicData"], type: "component_props_conflict" }] });
  });
});

describe("error fixtures", () => {
  it.each(cases("errors"))("%s", async (name) => {
    const spec = readCase("errors", name);
    const expected = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "errors", name, "expected.error.json"), "utf8")) as {
      code: string;
      issues: ValidationIssue[];
    };
    const stored = await store(spec.template);
    if (stored.status === 201) {
      const error = await client
        .render({
          templateId: stored.json.id!,
          target: spec.target ?? "html",
          dynamicData: spec.dynamic_data ?? {},
          minify: spec.options?.minify,
          strict: spec.options?.strict,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MailrenderError);
      expect((error as MailrenderError).code).toBe(expected.code);
      expect((error as MailrenderError).issues).toEqual(expected.issues);
      return;
    }
    // Refused at the door: no client can ever be served this template.
    expect(stored.status).toBe(422);
    expect(stored.json.code).toBe(expected.code);
    const issues = stored.json.issues ?? [];
    if (issues.every((i) => i.loc[0] === "body") && typeof spec.template === "object" && spec.template !== null && !Array.isArray(spec.template)) {
      // The engine's findings under `body`, except a missing template_id: the service assigns the id.
      const withoutId = expected.issues.filter((i) => !(i.loc.length === 1 && i.loc[0] === "template_id"));
      // Each issue's input and hint, which the service adds, are not the engine's.
      expect(issues.map((i) => ({ loc: i.loc.slice(1), msg: i.msg, type: i.type }))).toEqual(withoutId);
    }
  });
});
