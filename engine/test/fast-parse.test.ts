/**
 * The compiled success path of the template schemas (src/schema/fast-parse.ts) must agree with zod
 * exactly: the same value (keys, order, defaults, transforms) wherever zod accepts, and a refusal
 * wherever zod reports an issue, so that zod's report is asked for precisely then. Checked on every
 * node of every fixture template (as written and in the editor's hydrated form), of generated
 * templates, and of copies of them with one value anywhere replaced by a wrong or borderline one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type * as z from "zod/mini";
import * as zod from "zod/mini";
import { BLOCKS, blockOf } from "../src/blocks/registry.js";
import { parseTemplate } from "../src/document/parse.js";
import { columnStyleSchema, documentHeaderSchema, rowSpacerSchema, rowStyleSchema } from "../src/document/schema.js";
import { fastParse, generateParserCode, INVALID, workedOut } from "../src/schema/fast-parse.js";
import { toHydrated } from "./support/editor-form.js";
import { generateTemplates } from "./support/generated-templates.js";

type Json = Record<string, unknown>;
type Schema = z.ZodMiniType;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const fixtureTemplates = ["render", "errors"].flatMap((dir) =>
  readdirSync(`${FIXTURES}${dir}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => (JSON.parse(readFileSync(`${FIXTURES}${dir}/${entry.name}/case.json`, "utf8")) as { template: unknown }).template),
);
const templates: unknown[] = [
  ...fixtureTemplates,
  ...fixtureTemplates.filter(isObject).map((t) => toHydrated(structuredClone(t))),
  ...generateTemplates(12, 7).map((c) => toHydrated(c.template as Json)),
];

/** Every (schema, value) the template reader parses, found as the reader finds them. */
function nodesOf(template: unknown): Array<[Schema, unknown]> {
  const found: Array<[Schema, unknown]> = [];
  if (!isObject(template)) return found;
  // The header's `rows` are unknown to it: the rows are nodes of their own.
  found.push([documentHeaderSchema(), { ...template, rows: [] }]);
  const rowLike = (raw: unknown): void => {
    if (!isObject(raw)) return;
    if (raw["type"] === "row-spacer") return void found.push([rowSpacerSchema(), raw]);
    found.push([rowStyleSchema(), raw]);
    for (const column of Array.isArray(raw["columns"]) ? raw["columns"] : []) {
      if (!isObject(column)) continue;
      found.push([columnStyleSchema(), column]);
      const children = column["children"] ?? column["components"];
      for (const child of Array.isArray(children) ? children : []) {
        if (!isObject(child)) continue;
        if (child["type"] === "row" || child["type"] === "row-spacer" || Array.isArray(child["columns"])) rowLike(child);
        else {
          const type = child["componentType"] ?? child["type"];
          const block = typeof type === "string" ? blockOf(BLOCKS, type) : undefined;
          if (block) found.push([block.props as Schema, child["props"] ?? {}]);
        }
      }
    }
  };
  for (const row of Array.isArray(template["rows"]) ? template["rows"] : []) rowLike(row);
  return found;
}

/** Values that are wrong, or nearly right, for some field: each must be judged as zod judges it. */
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  "",
  " ",
  "  #FFF  ",
  "red",
  "ANY",
  "Contains",
  "true",
  "12",
  12,
  -1,
  0,
  101,
  1e9,
  Number.NaN,
  2.5,
  true,
  [],
  {},
  [{}],
];

/** `value` with one value at most four levels down replaced by each of REPLACEMENTS (a key removed for `undefined`). */
function* variants(value: unknown, depth = 0): Generator<unknown> {
  if ((!isObject(value) && !Array.isArray(value)) || depth > 3) return;
  for (const key of Object.keys(value)) {
    for (const replacement of REPLACEMENTS) {
      const copy = structuredClone(value) as Json;
      if (replacement === undefined && !Array.isArray(copy)) delete copy[key];
      else copy[key] = replacement;
      yield copy;
    }
    const inner = (value as Json)[key];
    for (const variant of variants(inner, depth + 1)) yield Object.assign(structuredClone(value) as Json, { [key]: variant });
  }
}

/** Keys in order at every level: `toStrictEqual` does not compare the order. */
const keyOrder = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(keyOrder) : isObject(value) ? Object.entries(value).map(([k, v]) => [k, keyOrder(v)]) : value;

function expectAgreement(schema: Schema, value: unknown): void {
  const zod = schema.safeParse(structuredClone(value));
  const fast = fastParse(schema, structuredClone(value));
  if (!zod.success) return void expect(fast, JSON.stringify(value)).toBe(INVALID);
  expect(fast, JSON.stringify(value)).toStrictEqual(zod.data);
  expect(keyOrder(fast)).toStrictEqual(keyOrder(zod.data));
}

// Node compiles an object's parser as code of its own; the release executable (an interpreter) keeps the shared loop.
describe.each([
  ["objects read by generated code", true],
  ["objects read by the shared loop", false],
])("the compiled success path of the template schemas, %s", (_name, generated) => {
  const nodes = templates.flatMap(nodesOf);
  // Generated from a schema's first value, so that every schema's code is what reads it here.
  beforeAll(() => generateParserCode(generated, 1));
  afterAll(() => generateParserCode(true));

  it("reads every node of every fixture and generated template as zod does", () => {
    expect(nodes.length).toBeGreaterThan(500);
    for (const [schema, value] of nodes) expectAgreement(schema, value);
  });

  it("refuses exactly what zod refuses, with any one value replaced", () => {
    // The node of each schema with the most fields: their variants reach every field a template may have.
    const richest = new Map<Schema, unknown>();
    const size = (value: unknown) => JSON.stringify(value).length;
    for (const [schema, value] of nodes) if (!richest.has(schema) || size(value) > size(richest.get(schema))) richest.set(schema, value);
    let refused = 0;
    for (const [schema, value] of richest) {
      for (const variant of variants(value)) {
        expectAgreement(schema, variant);
        if (!schema.safeParse(variant).success) refused++;
      }
    }
    // The replacements must exercise the refusal path, not only the success one.
    expect(refused).toBeGreaterThan(1000);
  });
});

describe("reading a valid template", () => {
  afterEach(() => vi.restoreAllMocks());

  it("never enters zod's parse: zod runs only to report what is wrong", () => {
    const spies = [
      documentHeaderSchema(),
      rowStyleSchema(),
      columnStyleSchema(),
      rowSpacerSchema(),
      ...Object.values(BLOCKS).map((b) => b.props as Schema),
    ].map((schema) => vi.spyOn(schema, "safeParse"));
    const calls = () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    const newsletter = (JSON.parse(readFileSync(`${FIXTURES}render/realistic-newsletter/case.json`, "utf8")) as { template: Json }).template;
    expect(parseTemplate(toHydrated(newsletter)).issues).toEqual([]);
    expect(calls()).toBe(0);
    // The same spies see an invalid template's report being built.
    const broken = structuredClone(newsletter);
    (broken["canvas"] as Json)["width"] = "wide";
    expect(parseTemplate(broken).issues.length).toBeGreaterThan(0);
    expect(calls()).toBeGreaterThan(0);
  });
});

/** Every schema a template's nodes are read with, and every schema inside them, each once. */
function reachableSchemas(): Schema[] {
  const found = new Set<Schema>();
  const visit = (schema: unknown): void => {
    if (typeof schema !== "object" || schema === null || found.has(schema as Schema)) return;
    const def = (schema as Schema)._zod.def as unknown as Record<string, unknown> & { type: string };
    found.add(schema as Schema);
    for (const key of ["innerType", "in", "out", "element", "catchall"]) visit(def[key]);
    for (const option of (def["options"] as unknown[] | undefined) ?? []) visit(option);
    for (const field of Object.values((def["shape"] as Record<string, unknown> | undefined) ?? {})) visit(field);
    if (def.type === "lazy") visit((def["getter"] as () => unknown)());
  };
  for (const root of [documentHeaderSchema(), rowStyleSchema(), columnStyleSchema(), rowSpacerSchema(), ...Object.values(BLOCKS).map((b) => b.props)])
    visit(root);
  return [...found];
}

/** One schema of each wrapper the optionality rules tell apart, around kinds with and without a default. */
const WRAPPERS: Schema[] = (() => {
  const [plain, defaulted, transformed] = [zod.string(), zod._default(zod.number(), 1), zod.transform((v: unknown) => String(v))];
  return [
    zod.optional(plain),
    zod.optional(defaulted),
    zod.nullable(defaulted),
    zod.nullable(zod.optional(plain)),
    zod.prefault(zod.object({}), {}),
    transformed,
    zod.pipe(
      zod.optional(plain),
      zod.transform((v: string | undefined) => String(v)),
    ),
    zod.pipe(zod.optional(plain), zod.optional(plain)),
    zod.pipe(defaulted, zod.number()),
    zod.union([plain, defaulted]),
    zod.union([plain, zod.optional(plain)]),
    zod.union([plain, transformed]),
    zod.union([plain, zod.number()]),
    // The kinds' variants, whose initialisers set optionality as their kind's do.
    zod.exactOptional(plain),
    zod.xor([plain, defaulted]),
    zod.discriminatedUnion("k", [zod.object({ k: zod.literal("a") }), zod.object({ k: zod.literal("b"), v: zod.optional(plain) })]),
    zod.codec(zod.optional(plain), zod.string(), { decode: (v) => v ?? "", encode: (v) => v }),
    zod.enum(["a", "b"]),
    zod.literal(["x", 2, null]),
  ];
})();

describe("a schema read without its internals", () => {
  it("is worked out as zod's initialisers make it: classes, optionality, an enum's values", () => {
    const schemas = [...reachableSchemas(), ...WRAPPERS];
    expect(schemas.length).toBeGreaterThan(200);
    for (const schema of schemas) {
      const internals = schema._zod as unknown as { traits: Set<string>; optin: unknown; optout: unknown; values?: Set<unknown> };
      const { traits, optin, optout, values } = workedOut(schema);
      const type = schema._zod.def.type;
      expect({ type, traits: [...traits], optin, optout }).toEqual({ type, traits: [...internals.traits], optin: internals.optin, optout: internals.optout });
      if (type === "enum" || type === "literal") expect({ type, values: [...values!] }).toEqual({ type, values: [...internals.values!] });
    }
  });
});

describe("checks and transforms outside the template schemas", () => {
  // Each kind as a step, a kind zod runs itself (a whole number; a check with `when`; a superRefine)
  // on a payload reused from one value to the next, and a transform that adds issues: a refusal
  // leaves nothing behind for the next value, and every value is judged as zod judges it.
  const schemas: Schema[] = [
    zod.string().check(
      zod.trim(),
      zod.refine((value) => value !== ""),
    ),
    zod.number().check(zod.minimum(0), zod.maximum(10, { message: "ten" })),
    zod.number().check(zod.gt(0), zod.lt(10)),
    zod.number().check(zod.minimum(0), zod.int()),
    zod.string().check(zod.minLength(2), zod.trim()),
    zod.string().check(
      zod.superRefine((value, ctx) => {
        if (value === "no") ctx.addIssue({ code: "custom", message: "no" });
      }),
    ),
    zod.pipe(
      zod.string(),
      zod.transform((value: string, ctx) => {
        if (value === "no") ctx.issues.push({ code: "custom", message: "no", input: value });
        return value.toUpperCase();
      }),
    ),
  ];
  const values: unknown[] = ["", " ", " a ", "no", "yes", "ab", -1, 0, 0.5, 1, 10, 10.5, 11, null, undefined];

  it("agree with zod on each value, refusals and acceptances interleaved", () => {
    for (const schema of schemas) for (const value of [...values, ...values.toReversed()]) expectAgreement(schema, value);
  });
});

describe("a key left out", () => {
  /** Every object and array in `value` changed in place: a key added, every value replaced. */
  const scribble = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(scribble);
      value.push("scribbled");
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        scribble(value[key]);
        if (!isObject(value[key]) && !Array.isArray(value[key])) value[key] = "scribbled";
      }
      value["scribbled"] = true;
    }
  };

  it("reads as a new value every time, equal to zod's, whatever was done to the last one", () => {
    // A row and a column with nothing set: their padding, border, gradient, dark and props objects
    // come from parsing `undefined`, which the compiled parsers do once per field.
    for (const schema of [rowStyleSchema(), columnStyleSchema(), rowSpacerSchema()] as Schema[]) {
      const expected = schema.parse({});
      for (let read = 0; read < 3; read++) {
        const parsed = fastParse(schema, {});
        expect(parsed).toStrictEqual(expected);
        expect(keyOrder(parsed)).toStrictEqual(keyOrder(expected));
        scribble(parsed);
      }
    }
  });

  it("is parsed again when it is not plain data (an instance, a frozen object)", () => {
    const schema = zod.object({
      map: zod.pipe(
        zod.optional(zod.string()),
        zod.transform(() => new Map([["a", 1]])),
      ),
      frozen: zod.pipe(
        zod.optional(zod.string()),
        zod.transform(() => Object.freeze({ a: 1 })),
      ),
    });
    const [first, second] = [fastParse(schema, {}), fastParse(schema, {})] as [Json, Json];
    expect(second).toStrictEqual(schema.parse({}));
    expect(second["map"]).toBeInstanceOf(Map);
    expect(second["map"]).not.toBe(first["map"]);
    expect(Object.isFrozen(second["frozen"])).toBe(true);
  });
});
