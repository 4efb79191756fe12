/**
 * The hand-written reader of the request (src/protocol/read-request.ts) must agree with the request's
 * zod schema: wherever the reader accepts, zod accepts with the same value; wherever zod refuses, the
 * reader refuses, so zod's issues are asked for precisely then; and wherever zod accepts a request
 * made of JSON, the reader accepts it too (else the fast path would be a slow path), but for the one
 * case it leaves to zod on purpose, a `__proto__` key. Checked on every fixture's request in the
 * variants the clients send, and on copies with one envelope value anywhere replaced, removed or added.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { createHandler } from "../src/executable/handler.js";
import { TemplateStore } from "../src/executable/template-store.js";
import { warmupTemplate } from "../src/executable/warmup.js";
import { wellFormedData, wellFormedRequest } from "../src/protocol/read-request.js";
import { dynamicDataSchema, renderRequestSchema } from "../src/protocol/schema.js";
import { libraryEngine } from "./support/engine-port.js";

// The schema's builder, watched: a well-formed request must be read without it.
vi.mock(import("../src/protocol/schema.js"), async (original) => {
  const schema = await original();
  return { ...schema, renderRequestSchema: vi.fn(schema.renderRequestSchema) };
});

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const cases = ["render", "errors"].flatMap((dir) =>
  readdirSync(`${FIXTURES}${dir}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => JSON.parse(readFileSync(`${FIXTURES}${dir}/${entry.name}/case.json`, "utf8")) as Json),
);

/** Every fixture's request, as the fixture runner, the clients and the saved-layout path send it. */
const requests: Json[] = cases.flatMap((spec) => {
  const base: Json = { template: spec["template"], target: spec["target"] ?? "html" };
  if (spec["dynamic_data"] !== undefined) base["dynamic_data"] = spec["dynamic_data"];
  if (spec["options"] !== undefined) base["options"] = spec["options"];
  return [
    base,
    { ...base, id: 7, options: { ...(base["options"] as Json | undefined), plain_text: true, checks: true, minify: false } },
    { ...base, id: "r-1", template_ref: "tpl@etag", output_format: "layout", layout_parts: true },
    { id: 8, template_ref: "tpl@etag", target: "mjml", output_format: "string" },
    { ...base, target: "react-email", save_layout: true, saved_layout: "bWFpbA==", options: { max_nodes: 50, max_output_bytes: 4096, strict: true } },
  ];
});

/**
 * The requests with a stand-in for the template, distinct: the schema takes any template, so its
 * variants are the envelope's (the template's own are the template reader's, test/fast-parse.test.ts).
 */
const envelopes: Json[] = [
  ...new Map(
    requests.map((request) => {
      const envelope = request["template"] === undefined ? request : { ...request, template: { rows: [] } };
      return [JSON.stringify(envelope), envelope] as const;
    }),
  ).values(),
];

/** Values that are wrong, or nearly right, for some envelope field: each must be judged as zod judges it. */
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  "",
  "x",
  "a".repeat(256),
  "a".repeat(257),
  "html",
  "mjml",
  "layout",
  "string",
  "HTML",
  true,
  false,
  0,
  1,
  -1,
  1.5,
  2 ** 53,
  2 ** 53 - 1,
  [],
  ["html"],
  {},
  { text: {} },
  { text: { a: "1" } },
  { text: { a: 1 } },
  { url: { a: "https://x" }, attr: { b: "" } },
  { merge_tags: { text: { name: "Ada" } }, context: { vip: true, n: 2, s: "x" } },
  { context: { nested: {} } },
  { context: { nil: null } },
  { plain: "x" },
  { minify: true },
  { max_nodes: 0 },
];

/** Each (path, value) of the envelope outside the template, where a replacement can go. */
function placesOf(value: unknown, path: string[] = []): string[][] {
  if (!isObject(value)) return [path];
  const inside = Object.keys(value).flatMap((key) => (path.length === 0 && key === "template" ? [[key]] : placesOf(value[key], [...path, key])));
  return [path, ...inside];
}

function replaced(value: unknown, path: readonly string[], replacement: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return replacement;
  const copy: Json = { ...(value as Json) };
  if (rest.length === 0 && replacement === undefined) delete copy[key];
  else copy[key] = replaced(copy[key], rest, replacement);
  return copy;
}

/** The request and its variants: every envelope value replaced by each of REPLACEMENTS, removed, or joined by an unknown key. */
function variantsOf(request: Json): unknown[] {
  const variants: unknown[] = [];
  for (const path of placesOf(request)) {
    for (const replacement of REPLACEMENTS) variants.push(replaced(request, path, replacement));
    if (path[0] !== "template" && isObject(path.reduce<unknown>((at, key) => (at as Json)[key], request))) {
      variants.push(replaced(request, [...path, "unknown"], 1));
    }
  }
  return variants;
}

function expectAgreement(read: unknown, parsed: { success: boolean; data?: unknown }, what: unknown): void {
  if (parsed.success) {
    expect(read, String(JSON.stringify(what)).slice(0, 300)).toBeDefined();
    expect(read).toEqual(parsed.data);
  } else {
    expect(read, String(JSON.stringify(what)).slice(0, 300)).toBeUndefined();
  }
}

describe("the request's reader and its schema", () => {
  it("accept every fixture's request, with the value zod gives", () => {
    expect(requests.length).toBeGreaterThan(50);
    for (const request of requests) {
      const parsed = renderRequestSchema().safeParse(request);
      expect(parsed.success, JSON.stringify(request).slice(0, 200)).toBe(true);
      expect(wellFormedRequest(request)).toEqual(parsed.data);
    }
  });

  it("agree on every variant with one value replaced, removed or added", () => {
    let refused = 0;
    let variants = 0;
    for (const request of envelopes) {
      for (const variant of variantsOf(request)) {
        const parsed = renderRequestSchema().safeParse(variant);
        if (!parsed.success) refused++;
        variants++;
        expectAgreement(wellFormedRequest(variant), parsed, variant);
      }
    }
    // The variants reach both sides of the line.
    expect(refused).toBeGreaterThan(variants / 4);
    expect(variants - refused).toBeGreaterThan(variants / 10);
  });

  it("agree on the per-recipient data, fixtures' and variants", () => {
    const data = cases.map((spec) => spec["dynamic_data"]).filter((value) => value !== undefined);
    expect(data.length).toBeGreaterThan(5);
    for (const value of data) expect(wellFormedData(value)).toEqual(dynamicDataSchema().parse(value));
    for (const value of [...data, ...REPLACEMENTS].flatMap((d) => (isObject(d) ? variantsOf(d) : [d]))) {
      expectAgreement(wellFormedData(value), dynamicDataSchema().safeParse(value), value);
    }
  });

  it("leave a __proto__ key to zod, which drops it from its copy", () => {
    const request = JSON.parse('{"target":"html","template":{},"dynamic_data":{"merge_tags":{"text":{"__proto__":"x","a":"b"}}}}') as unknown;
    expect(renderRequestSchema().safeParse(request).success).toBe(true);
    expect(wellFormedRequest(request)).toBeUndefined();
    const top = JSON.parse('{"target":"html","template":{},"__proto__":{}}') as unknown;
    expect(renderRequestSchema().safeParse(top).success).toBe(false);
    expect(wellFormedRequest(top)).toBeUndefined();
  });

  it("leave what is not a JSON object to zod", () => {
    for (const value of [null, [], "x", 1, new Map(), Object.create(null)]) expect(wellFormedRequest(value)).toBeUndefined();
  });
});

describe("the handler", () => {
  it("reads a well-formed request without the request's schema, and asks it for a malformed one's issues", async () => {
    const handle = createHandler({ engine: libraryEngine, store: new TemplateStore() });
    const request = (value: unknown) => handle(Buffer.from(JSON.stringify(value)));
    const template = warmupTemplate();
    vi.mocked(renderRequestSchema).mockClear();
    const ok = await request({ id: 1, template, target: "html", dynamic_data: { merge_tags: { text: { first_name: "Ada" } } } });
    expect(ok.response.ok).toBe(true);
    expect(renderRequestSchema).not.toHaveBeenCalled();
    const refused = await request({ id: 2, template, target: "html", options: { max_nodes: 0 } });
    expect(refused.response).toMatchObject({
      id: 2,
      ok: false,
      error: { code: "BAD_REQUEST", issues: [{ loc: ["options", "max_nodes"], type: "too_small" }] },
    });
    expect(renderRequestSchema).toHaveBeenCalled();
  });
});
