/**
 * What the template schemas build, and when: the executable (QuickJS) builds them at every launch,
 * so a field helper returns the one schema per distinct default, and a regular expression compiles
 * on its first match.
 */
import { describe, expect, it } from "vitest";
import { commonBlockFields, spacingSchema, typographyFields, ZERO_SPACING } from "../src/schema/common.js";
import { lazyPattern } from "../src/schema/pattern.js";

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

describe("a lazy pattern", () => {
  it("compiles on its first test, not when built, and is the expression it names", () => {
    const broken = lazyPattern("(");
    expect(broken.source).toBe("(");
    expect(() => broken.test("a")).toThrow(SyntaxError);
    const pattern = lazyPattern("^a(b+)$", "i");
    expect([pattern.source, pattern.flags]).toEqual(["^a(b+)$", "i"]);
    expect([pattern.test("ABB"), pattern.test("ac")]).toEqual([true, false]);
  });
});
