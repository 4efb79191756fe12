import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonParts } from "../src/base/json-parts.js";
import { NODE_HOST } from "../src/engine/node-host.js";

const digestParts = NODE_HOST.digestParts!;

// Wide characters, a surrogate pair and lone surrogates (which JSON.stringify escapes), digits (integer names come first), in names and values.
const unit = fc.constantFrom("a", "1", "0", '"', "\\", "\n", "é", "€", "😀", "\uD800", "\uDC00", "\u2028");
const text = fc.string({ unit, maxLength: 8 });
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(() => 1),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
}));

describe("a value's JSON text in pieces", () => {
  it("is JSON.stringify's text, and its pieces' digest that text's digest", () => {
    fc.assert(
      fc.property(fc.dictionary(text, value.value, { maxKeys: 6 }), (template) => {
        const parts = jsonParts(template)!;
        const whole = JSON.stringify(template);
        expect(parts.join("")).toBe(whole);
        expect(digestParts(parts)).toBe(NODE_HOST.digest(whole));
      }),
      { numRuns: 3000 },
    );
  });

  it("is a SHA-256 of the text's UTF-8: a digest no two texts can be made to share", () => {
    const text = '{"name":"Trail season — week 😀"}';
    expect(NODE_HOST.digest(text)).toBe(createHash("sha256").update(text, "utf8").digest("base64"));
  });

  it("cuts between a row's items, never inside a string", () => {
    const template = { name: "Trail season — week 😀", rows: [{ content: "é".repeat(3) }, [], "\uD83D\uDE00"], empty: [], gone: undefined };
    expect(jsonParts(template)).toEqual(['{"name":"Trail season — week 😀"', ',"rows":[{"content":"ééé"}', ",[]", ',"😀"', "]", ',"empty":[]', "}"]);
    expect(jsonParts({})).toEqual(["{}"]);
    expect(jsonParts({ gone: undefined })).toEqual(["{}"]);
  });

  it("leaves to the whole text what its pieces would write otherwise", () => {
    const toJSON = (key: string) => `as ${key}`;
    // JSON.stringify passes a toJSON its member's name or item's index; a piece's own call would pass "".
    expect(jsonParts({ a: { toJSON } })).toBeUndefined();
    expect(jsonParts({ rows: [{ toJSON }] })).toBeUndefined();
    expect(jsonParts({ toJSON })).toBeUndefined();
    expect(jsonParts([1])).toBeUndefined();
    expect(jsonParts(new Date(0))).toBeUndefined();
    expect(jsonParts(Object.assign(Object.create({ inherited: 1 }), { own: 1 }))).toBeUndefined();
    expect(jsonParts("text")).toBeUndefined();
    const cycle: Record<string, unknown> = { rows: [] };
    (cycle.rows as unknown[]).push(cycle);
    expect(() => jsonParts(cycle)).toThrow(TypeError);
  });
});
