/**
 * What the template schemas build, and when: the executable (QuickJS) builds them at every launch,
 * so a field helper returns the one schema per distinct default, and a regular expression compiles
 * on its first match.
 */
import { describe, expect, it } from "vitest";
import { commonBlockFields, spacingSchema, typographyFields, ZERO_SPACING } from "../src/schema/common.js";
import { LazyRegExp } from "../src/schema/lazy-regexp.js";

describe("the field helpers", () => {
  it("return the same schema for the same defaults", () => {
    expect(spacingSchema({ top: 1, right: 2, bottom: 3, left: 4 })).toBe(spacingSchema({ top: 1, right: 2, bottom: 3, left: 4 }));
    expect(spacingSchema(ZERO_SPACING)).toBe(commonBlockFields().margin);
    expect(commonBlockFields().visibility).toBe(commonBlockFields({ margin: ZERO_SPACING }).visibility);
    const heading = typographyFields({ fontSize: 32, lineHeight: 1.2, fontWeight: "bold" });
    const paragraph = typographyFields();
    expect(heading.fontFamily).toBe(paragraph.fontFamily);
    expect(heading.color).toBe(paragraph.color);
    expect(typographyFields({ fontSize: 32 }).fontSize).toBe(heading.fontSize);
  });

  it("keep each default apart", () => {
    const spacing = spacingSchema({ top: 1, right: 2, bottom: 3, left: 4 });
    expect(spacing).not.toBe(spacingSchema(ZERO_SPACING));
    expect(spacing.parse(undefined)).toEqual({ top: 1, right: 2, bottom: 3, left: 4 });
    expect(spacingSchema(ZERO_SPACING).parse({ top: 5 })).toEqual({ top: 5, right: 0, bottom: 0, left: 0 });
    expect(typographyFields({ fontSize: 32 }).fontSize.parse(undefined)).toBe(32);
    expect(typographyFields().fontSize.parse(undefined)).toBe(16);
    expect(typographyFields({ align: "center" }).align.parse(undefined)).toBe("center");
  });

  it("return a fresh record each call, so a caller's changes stay its own", () => {
    const fields = commonBlockFields();
    expect(fields).not.toBe(commonBlockFields());
    expect(typographyFields()).not.toBe(typographyFields());
  });
});

describe("LazyRegExp", () => {
  it("compiles on its first match, not when built", () => {
    const broken = new LazyRegExp("(");
    expect(broken.source).toBe("(");
    expect(() => broken.test("a")).toThrow(SyntaxError);
  });

  it("matches, prints and copies as the expression it stands for", () => {
    const lazy = new LazyRegExp("^a(b+)$", "i");
    expect([lazy.source, lazy.flags, String(lazy)]).toEqual(["^a(b+)$", "i", "/^a(b+)$/i"]);
    expect(lazy.test("ABB")).toBe(true);
    expect(lazy.test("ac")).toBe(false);
    expect(lazy.exec("abbb")?.[1]).toBe("bbb");
    expect("ABBB".match(lazy)?.[1]).toBe("BBB");
    expect(["abb".replace(lazy, "-"), "abb".search(lazy), "xab".search(lazy)]).toEqual(["-", 0, -1]);
    expect(new RegExp(lazy.source, lazy.flags).test("ab")).toBe(true);
  });

  it("refuses the flags that make matching stateful", () => {
    expect(() => new LazyRegExp("a", "g")).toThrow(/g or y/);
    expect(() => new LazyRegExp("a", "y")).toThrow(/g or y/);
  });
});
