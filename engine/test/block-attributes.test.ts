import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { attr, attrs, attrValue, MJML_ALL, mjmlAlt, mjmlAttrs, ownAttr, unchangedOf } from "../src/blocks/shared.js";
import { borderSchema, colorSchema, fontWeightSchema, toMjmlColor } from "../src/schema/common.js";

describe("attrs", () => {
  it("prints each set attribute in the literal's order, numbers as text, and leaves out undefined, false and empty values", () => {
    expect(attrs({ width: "600px", hidden: false, "css-class": "", padding: undefined, border: 0, "font-size": 14 })).toBe(
      ' width="600px" border="0" font-size="14"',
    );
    expect(attrs({})).toBe("");
  });

  it("escapes a bare ampersand, a less-than and a double quote, and keeps character references", () => {
    expect(attrs({ title: 'Tom & "Jerry" <3', alt: "caf&eacute; &#233; &#xe9;" })).toBe(
      ' title="Tom &amp; &quot;Jerry&quot; &lt;3" alt="caf&eacute; &#233; &#xe9;"',
    );
    // Each character alone, so that none of them is escaped only because another is present.
    expect(attrs({ a: 'say "hi"', b: "1<2", c: "R&D" })).toBe(' a="say &quot;hi&quot;" b="1&lt;2" c="R&amp;D"');
  });

  it("returns a value with nothing to escape as it is", () => {
    expect(attrValue("https://example.com/?a=1'b>c")).toBe("https://example.com/?a=1'b>c");
  });
});

describe("ownAttr", () => {
  it("writes a value the engine made as attr does, and leaves out undefined, empty and unchanged values", () => {
    const u = unchangedOf("mj-image");
    for (const [name, value] of [
      ["width", "600px"],
      ["padding", "10px 25px"],
      ["padding", "0px 12px"],
      ["css-class", "mr-b3 mr-d0"],
      ["height", ""],
      ["height", undefined],
    ] as const)
      expect(ownAttr(name, value, u)).toBe(attr(name, value, u));
    expect(ownAttr("width", "600px", u)).toBe(' width="600px"');
    expect(ownAttr("padding", "10px 25px", u)).toBe("");
  });

  // ownAttr writes colours, font weights and borders from the template unescaped: their schemas must
  // refuse anything an attribute would have to escape.
  it("the author values it writes unescaped (colours, font weights, border styles) cannot hold & < > \" or '", () => {
    const special = /[&<>"']/;
    const text = fc.string({ unit: fc.constantFrom(..."#abcdefABCDEF0123456789rgb(),. %&<>\"'redBluetransparentboldnormal"), maxLength: 24 });
    const accepted = (schema: z.ZodMiniType, value: unknown): unknown => {
      const result = z.safeParse(schema, value);
      return result.success ? result.data : undefined;
    };
    fc.assert(
      fc.property(text, fc.string({ maxLength: 12 }), (value, wild) => {
        for (const candidate of [value, wild, `${value}${wild}`]) {
          const color = accepted(colorSchema, candidate);
          if (typeof color === "string") expect(toMjmlColor(color)).not.toMatch(special);
          const weight = accepted(fontWeightSchema, candidate);
          if (weight !== undefined) expect(String(weight)).not.toMatch(special);
          const border = accepted(borderSchema, { width: 1, style: candidate, color: candidate }) as { style: string; color: string } | undefined;
          if (border !== undefined) expect(`${border.style} ${toMjmlColor(border.color)}`).not.toMatch(special);
        }
      }),
      { numRuns: 3000 },
    );
    // What the generator reaches: the test is empty if no value is ever accepted.
    expect(accepted(colorSchema, "#aBc")).toBe("#aBc");
    expect(accepted(fontWeightSchema, "bold")).toBeDefined();
  });
});

describe("mjmlAttrs", () => {
  it("leaves out a value equal to the component's default, to mj-all's, or to one that changes nothing, and keeps the rest in order", () => {
    expect(
      mjmlAttrs("mj-text", {
        align: "left",
        "font-family": MJML_ALL["font-family"],
        "font-weight": "normal",
        padding: "10px 25px",
        color: "#111111",
        "font-size": "13px",
        "line-height": "1.5",
      }),
    ).toBe(' color="#111111" line-height="1.5"');
    // The same names on another component, whose defaults differ.
    expect(mjmlAttrs("mj-button", { align: "left", "font-weight": "normal", padding: "10px 25px", target: "_blank" })).toBe(' align="left"');
    expect(mjmlAttrs("mj-column", { padding: "0px", "background-color": "transparent", "vertical-align": "middle" })).toBe(' vertical-align="middle"');
    expect(mjmlAttrs("mj-body", { width: "600px", "css-class": "mr-page" })).toBe(' css-class="mr-page"');
  });

  it("writes a component without defaults as attrs does, escaped", () => {
    expect(mjmlAttrs("mj-raw", { "css-class": "a&b", "font-family": MJML_ALL["font-family"] })).toBe(' css-class="a&amp;b"');
  });

  it("writes an alt unless empty", () => {
    expect(mjmlAlt("A &quot;view&quot;")).toBe(' alt="A &quot;view&quot;"');
    expect(mjmlAlt("")).toBe("");
  });
});
