import { describe, expect, it } from "vitest";
import { attrs, attrValue } from "../src/blocks/shared.js";

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
