/**
 * Property: the MJML parser reads a tag in steps (its name, each attribute in place, its end; the
 * forms our writer writes without an expression) and accepts exactly what mjml-parser-xml's tag
 * expression, as this port first used it, matched at the same place, with the same name, attributes
 * and end. The alphabet is the characters that
 * decide where a tag, a name or a value ends, so cut and malformed tags are most of the cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Attributes } from "../src/mjml-to-html/component.js";
import { KnownNames, parseMjml, readTag, type Tag } from "../src/mjml-to-html/parse.js";

const WHOLE_TAG = /<(\/?)([a-z][a-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*"[^"]*")?)*)\s*(\/?)>/y;
const ONE_ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*"([^"]*)")?/gy;

/** The tag as the whole-tag expression and a pass over its attribute group read it. */
function wholeTagReading(xml: string, lt: number): Tag | undefined {
  WHOLE_TAG.lastIndex = lt;
  const match = WHOLE_TAG.exec(xml);
  if (match === null) return undefined;
  const attributes: Attributes = {};
  for (const [, name = "", value] of (match[3] ?? "").matchAll(ONE_ATTRIBUTE)) {
    attributes[name] = value === "true" ? true : value === "false" ? false : (value ?? "");
  }
  return { closing: match[1] === "/", tagName: match[2] ?? "", attributes, selfClosing: match[4] === "/", end: WHOLE_TAG.lastIndex };
}

const UNITS = ["<", ">", "/", "=", '"', "'", " ", "\n", "\t", "a", "b", "1", "-", "mj-text", "true", "false"];
const markup = fc.string({ unit: fc.constantFrom(...UNITS) });

describe("the MJML parser's tag reader", () => {
  it("reads what the whole-tag expression matches, wherever a tag starts", () => {
    fc.assert(
      fc.property(markup, markup, (before, after) => {
        const xml = `${before}<${after}`;
        expect(readTag(xml, before.length)).toEqual(wholeTagReading(xml, before.length));
      }),
      { numRuns: 5000 },
    );
  });

  it("reads the same with known names, some filed under the same key", () => {
    // `\u0161` and `\u0162` have the low bytes of `a` and `b`
    const names = new KnownNames(["a", "b", "ab", "a-b", "a1b", "aab", "mj-text", "mj-t-xt", "true", "a-", "b-1", "\u0161b", "a\u0162"]);
    const wideMarkup = fc.string({ unit: fc.constantFrom(...UNITS, "\u0161", "\u0162") });
    fc.assert(
      fc.property(wideMarkup, wideMarkup, (before, after) => {
        const xml = `${before}<${after}`;
        expect(readTag(xml, before.length, names)).toEqual(wholeTagReading(xml, before.length));
      }),
      { numRuns: 5000 },
    );
  });

  it("reads well-formed tags with their attributes", () => {
    const text = '<mj-text  align="left"\n css-class="a b" hidden x = "true" />';
    expect(readTag(`${text} after`, 0)).toEqual({
      closing: false,
      tagName: "mj-text",
      attributes: { align: "left", "css-class": "a b", hidden: "", x: true },
      selfClosing: true,
      end: text.length,
    });
    expect(readTag("</mj-column >", 0)).toEqual({ closing: true, tagName: "mj-column", attributes: {}, selfClosing: false, end: 13 });
  });
});

describe("the MJML parser's close tags", () => {
  it("closes the open element only with its own name, however the close tag is written", () => {
    const root = parseMjml("<mj-a><mj-b></mj-b ><mj-c>t</mj-c\n></mj-a>", new Set());
    expect(root.children.map((child) => [child.tagName, child.content])).toEqual([
      ["mj-b", ""],
      ["mj-c", "t"],
    ]);
    expect(() => parseMjml("<mj-a><mj-b></mj-bc></mj-a>", new Set())).toThrow("</mj-bc> at 12 closes <mj-b>");
    expect(() => parseMjml("<mj-a><mj-bc></mj-b></mj-a>", new Set())).toThrow("</mj-b> at 13 closes <mj-bc>");
    expect(() => parseMjml("<mj-a><mj-b></mj-b", new Set())).toThrow("unexpected markup at 12");
  });
});
