/**
 * The published template JSON Schema says what the engine accepts: a document the schema allows is
 * one the engine reads, and the other way round, checked with a JSON Schema validator (Ajv, draft
 * 2020-12) against `validateTemplate` on every fixture and on generated values of every rule zod
 * cannot state by itself (case-insensitive patterns, trimming, refinements, nesting).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { jsonPattern, templateJsonSchema } from "../src/document/json-schema.js";
import { MAX_NESTING_DEPTH } from "../src/document/schema.js";
import { validateTemplate } from "../src/index.js";
import { CSS_COLOR_NAMES } from "../src/schema/color-names.js";
import { CSS_VALUE_PATTERN_DEPTH, cssValuePattern, cssValueProblem } from "../src/schema/css-values.js";

const ajv = new Ajv2020({ strict: false, allErrors: true });
const schemaAccepts = ajv.compile(templateJsonSchema());

type Json = Record<string, unknown>;
const paragraph = (props: Json = {}): Json => ({ type: "component", componentType: "paragraph", props: { content: "<p>Hi</p>", ...props } });
const row = (children: unknown[], extra: Json = {}): Json => ({ type: "row", columns: [{ children }], ...extra });
const doc = (rows: unknown[], extra: Json = {}): Json => ({ template_id: "t", template_name: "T", canvas: {}, rows, schema_version: "1.0", ...extra });

function agree(document: unknown): void {
  const engine = validateTemplate(document).valid;
  const schema = schemaAccepts(document);
  expect(schema, `${JSON.stringify(document)}\nschema errors: ${JSON.stringify(schemaAccepts.errors?.slice(0, 3))}`).toBe(engine);
}

/** Known-good spellings, in random case and with random white space around them, and random strings. */
function spellings(valid: readonly string[], alphabet: string): fc.Arbitrary<string> {
  const recased = fc
    .tuple(
      fc.constantFrom(...valid),
      fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
      fc.constantFrom("", " ", "\t", "\n", "\u00a0"),
      fc.constantFrom("", " ", "x"),
    )
    .map(([word, upper, before, after]) => before + [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("") + after);
  return fc.oneof(recased, fc.string({ unit: fc.constantFrom(...alphabet.split("")), maxLength: 16 }));
}

function property(values: fc.Arbitrary<unknown>, place: (value: unknown) => unknown): void {
  fc.assert(
    fc.property(values, (value) => agree(place(value))),
    { numRuns: 300, seed: 11 },
  );
}

describe("the template JSON Schema", () => {
  it("accepts every render fixture and refuses every error fixture (the node limit is the one rule beyond it)", () => {
    for (const c of listCases("render")) agree(c.template);
    const refused = listCases("errors").filter((c) => !validateTemplate(c.template).valid);
    expect(refused.length).toBeGreaterThan(20); // the others fail later: in the render, not in the document
    for (const c of refused) {
      if (validateTemplate(c.template).issues.some((issue) => issue.type === "too_many_nodes")) continue;
      expect(schemaAccepts(c.template), c.name).toBe(false);
    }
  });

  it("reads colours in any case and with white space around them, as the engine does", () => {
    property(
      spellings([...CSS_COLOR_NAMES.slice(0, 40), "#abc", "#a1b2c3", "#a1b2c3d4", "rgb(1, 2, 3)", "rgba(1,2,3,.5)"], "#0123456789abcdefgrb(),. "),
      (value) => doc([], { canvas: { backgroundColor: value } }),
    );
  });

  it("reads visibility operators, match and flags in any case, as the engine does", () => {
    property(spellings(["==", "contains", "not_in", "date_before", "is_empty", "equals", "is_set"], "=!<>_acdeinost "), (operator) =>
      doc([row([paragraph()], { visibility: { enabled: true, rules: [{ tag: "plan", operator, value: "pro" }] } })]),
    );
    property(spellings(["all", "any"], "alny "), (match) => doc([row([paragraph()], { visibility: { enabled: true, match, rules: [] } })]));
    property(fc.oneof(fc.boolean(), spellings(["true", "false"], "truefals ")), (enabled) => doc([row([paragraph()], { visibility: { enabled } })]));
  });

  it("reads gradient directions and types as the engine does, angles as numbers included", () => {
    const directions = spellings(
      ["to right", "to bottom left", "45deg", "-0.5turn", "circle", "ellipse at top left", "circle at 20% center", ""],
      "tobrighlefcs0123456789.-% ",
    );
    const numbers = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 1e-6, 9.99e-7, 1e21, 1e20, -1e-6, 45));
    const gradient = (direction: unknown) =>
      doc([row([paragraph()], { backgroundGradient: { useGradient: true, gradient: { direction, colors: [{ color: "red" }] } } })]);
    property(fc.oneof(directions, numbers), gradient);
    property(spellings(["linear", "radial"], "linearadil "), (type) =>
      doc([row([paragraph()], { backgroundGradient: { useGradient: true, gradient: { type } } })]),
    );
  });

  it("reads CSS values, fonts and the schema version as the engine does", () => {
    property(spellings(["cover", "contain", "auto 10px", "50% auto"], "coveratin0123456789px% "), (value) =>
      doc([], { canvas: { bodyBackgroundSize: value } }),
    );
    property(spellings(["left top", "center", "10px 20%"], "lefrightop0123456789px% "), (value) => doc([], { canvas: { bodyBackgroundPosition: value } }));
    property(spellings(["'Open Sans', Arial, sans-serif", "Georgia"], "'\",OpenSasArilg- "), (fontFamily) => doc([row([paragraph({ fontFamily })])]));
    property(fc.oneof(fc.integer({ min: -5, max: 1100 }), spellings(["bold", "medium", "semi-bold", "700"], "boldmeiu-0123456789 ")), (fontWeight) =>
      doc([row([paragraph({ fontWeight })])]),
    );
    property(spellings(["1.0", "0.9", "01.2", "2.0", "10.0"], "0123456789. "), (schema_version) => doc([], { schema_version }));
  });

  it("reads mobile override values as the engine does (parentheses, quotes, comment markers)", () => {
    property(fc.string({ unit: fc.constantFrom(..."()'\"/*ab ".split("")), maxLength: 14 }), (value) =>
      doc([row([paragraph({ mobile: { letterSpacing: value } })])]),
    );
  });

  it(`nests rows ${MAX_NESTING_DEPTH} deep and no deeper; missing or null lists and unknown blocks are read`, () => {
    const nested = (depth: number): Json => (depth === 1 ? row([paragraph()]) : row([nested(depth - 1)]));
    agree(doc([nested(MAX_NESTING_DEPTH)]));
    agree(doc([nested(MAX_NESTING_DEPTH + 1)]));
    expect(schemaAccepts(doc([nested(MAX_NESTING_DEPTH + 1)]))).toBe(false);
    const untyped = (depth: number): Json => ({ columns: [{ children: depth === 1 ? [paragraph()] : [untyped(depth - 1)] }] });
    agree(doc([untyped(MAX_NESTING_DEPTH + 1)]));
    for (const document of [
      doc([{ type: "row" }, { type: "row", columns: null }, { columns: [{ children: null }, { components: null }] }]),
      doc([
        row([
          { type: "component", componentType: "paragraph", props: null },
          { type: "paragraph", props: null },
        ]),
      ]),
      doc([row([{ type: "component", componentType: "carousel", props: { any: 1 } }, { type: "carousel" }, { type: "row-spacer" }])]),
      doc([row([{ type: "component" }])]),
      doc([row([{}])]),
      doc([{ type: "column" }]),
    ])
      agree(document);
  });
});

describe("jsonPattern", () => {
  it("spells out the i flag and trimming: the same strings match", () => {
    const regex = /^(?:rgba?\([a-f\d]+\)|#[0-9a-fA-F]{3}|to\s+left|x-y)$/i;
    const converted = new RegExp(jsonPattern(regex, true));
    expect(converted.flags).toBe("");
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."rgbaRGBA()#0123456789abcdefABCDEFtoTOlefLEF xyXY-\t\n".split("")), maxLength: 14 }), (value) => {
        expect(converted.test(value), JSON.stringify(value)).toBe(regex.test(value.trim()));
      }),
      { numRuns: 3000, seed: 3 },
    );
  });
  it("refuses what it cannot convert rather than changing its meaning", () => {
    expect(() => jsonPattern(/a/g, false)).toThrow(/flags/);
    expect(() => jsonPattern(/^[!-~]$/i, false)).toThrow(/range/);
    expect(() => jsonPattern(/abc/, true)).toThrow(/anchored/);
  });
});

describe("cssValuePattern", () => {
  it(`matches exactly the values cssValueProblem accepts (parentheses nested up to ${CSS_VALUE_PATTERN_DEPTH} deep)`, () => {
    const depth = (value: string) =>
      [...value].reduce((acc, c) => ({ now: acc.now + (c === "(" ? 1 : c === ")" ? -1 : 0), max: Math.max(acc.max, acc.now + (c === "(" ? 1 : 0)) }), {
        now: 0,
        max: 0,
      }).max;
    const pattern = cssValuePattern();
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."()'\"/*a \n".split("")), maxLength: 20 }), (value) => {
        if (depth(value) > CSS_VALUE_PATTERN_DEPTH) return;
        expect(pattern.test(value), JSON.stringify(value)).toBe(cssValueProblem(value) === undefined);
      }),
      { numRuns: 5000, seed: 5 },
    );
  });
});
