/** The pieces the template checks are built of: merge-tag syntax, "did you mean", colour contrast. */
import { describe, expect, it } from "vitest";
import { editDistance, nearestName } from "../src/base/nearest.js";
import { mergeTagMistakes, textTagAsUrl } from "../src/data/merge-tag-syntax.js";
import { unclosedElements } from "../src/markup/unclosed-tags.js";
import { contrastRatio, over, parseColor } from "../src/schema/color-values.js";

describe("merge-tag mistakes", () => {
  it.each([
    ["Hi {{first_name|'friend'}, thanks", "MERGE_TAG_UNCLOSED", "{{first_name|'friend'}", "Close it with two: {{first_name|'friend'}}"],
    ["<p>Unclosed: {{ first_name</p>", "MERGE_TAG_UNCLOSED", "{{ first_name", "Close it with }}: {{ first_name }}"],
    ["Dear first_name}},", "MERGE_TAG_UNOPENED", "first_name}}", "Open it with {{: {{ first_name }}"],
    ["{{url.}}", "MERGE_TAG_EMPTY", "{{url.}}", "Write the value's name after the group: {{ url.name }}"],
    ["Code: {{ }}", "MERGE_TAG_EMPTY", "{{ }}", undefined],
    ["{{first name}}", "MERGE_TAG_BAD_NAME", "{{first name}}", undefined],
    ["{{ 1st_name }}", "MERGE_TAG_BAD_NAME", "{{ 1st_name }}", undefined],
    ["{{ ulr.dashboard }}", "MERGE_TAG_UNKNOWN_GROUP", "{{ ulr.dashboard }}", "Did you mean {{ url.dashboard }}? The groups are text, url and attr"],
    ["{{ URL.x }}", "MERGE_TAG_UNKNOWN_GROUP", "{{ URL.x }}", undefined],
    ["{{ name|'friend }}", "MERGE_TAG_BAD_DEFAULT", "{{ name|'friend }}", "Close the quote: {{ name|'friend' }}"],
    ["{{ name| }}", "MERGE_TAG_BAD_DEFAULT", "{{ name| }}", undefined],
    ["{{{ first_name }}}", "MERGE_TAG_EXTRA_BRACES", "{{{ first_name }}}", undefined],
    ["Hi {first_name},", "MERGE_TAG_SINGLE_BRACES", "{first_name}", "A merge tag has two braces on each side: {{ first_name }}"],
  ])("%s: %s", (text, code, written, hint) => {
    const [mistake, ...more] = mergeTagMistakes(text);
    expect(more).toEqual([]);
    expect(mistake?.code).toBe(code);
    expect(mistake?.text).toBe(written);
    expect(text.slice(mistake?.index ?? -1)).toMatch(new RegExp(`^${written.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    if (hint !== undefined) expect(mistake?.hint).toBe(hint);
  });

  it.each([
    "Hello {{ first_name|'there' }}!",
    "{{ a }} and {{ b }}",
    "Dotted: {{ order.total }}, grouped: {{ text.name }}, {{ url.x }}, {{ attr.y }}",
    "Defaults: {{ a|\"double\" }} {{ b|bare words }} {{ c|'' }}",
    "No tags at all, braces in prose: a { b } c",
    '<p style="color:red">CSS-free content</p>',
  ])("none in %s", (text) => {
    expect(mergeTagMistakes(text)).toEqual([]);
  });

  it("a text or attr tag giving a whole URL; a tag later in a URL is a part of it", () => {
    expect(textTagAsUrl("{{ text.dashboard }}")?.hint).toBe("Put the address under merge_tags.url and write {{ url.dashboard }}");
    expect(textTagAsUrl(" {{ attr.x }}")?.code).toBe("MERGE_TAG_NOT_A_URL");
    expect(textTagAsUrl("{{ url.dashboard }}")).toBeUndefined();
    expect(textTagAsUrl("{{ dashboard }}")).toBeUndefined();
    expect(textTagAsUrl("https://example.com/{{ text.id }}")).toBeUndefined();
  });
});

describe("nearest names", () => {
  it.each([
    ["buton", ["paragraph", "button", "image"], "button"],
    ["bgColor", ["backgroundColor", "color"], "backgroundColor"],
    ["fontsize", ["fontSize", "fontFamily"], "fontSize"],
    ["bodyBackgroundColour", ["bodyBackgroundColor", "backgroundColor"], "bodyBackgroundColor"],
    ["widht", ["width", "verticalAlign"], "width"],
    ["carousel", ["paragraph", "button"], undefined],
    ["user", ["text", "url", "attr"], undefined],
  ])("%s → %s", (name, candidates, nearest) => {
    expect(nearestName(name, candidates)).toBe(nearest);
  });

  it("counts a swap of neighbours once", () => {
    expect(editDistance("ulr", "url")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
});

describe("colours and contrast", () => {
  it("reads every colour form the schema accepts", () => {
    expect(parseColor("#abc")).toEqual({ r: 170, g: 187, b: 204, a: 1 });
    expect(parseColor("#11223380")?.a).toBeCloseTo(0.5, 2);
    expect(parseColor("rgba(0, 0, 0, .5)")).toEqual({ r: 0, g: 0, b: 0, a: 0.5 });
    expect(parseColor("RebeccaPurple")).toEqual({ r: 102, g: 51, b: 153, a: 1 });
    expect(parseColor("transparent")?.a).toBe(0);
    expect(parseColor("not-a-colour")).toBeUndefined();
  });

  it("gives WCAG 2 contrast ratios", () => {
    const ratio = (a: string, b: string) => contrastRatio(parseColor(a)!, parseColor(b)!);
    expect(ratio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(ratio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(ratio("#ffffff", "#007bff")).toBeCloseTo(3.98, 2);
    expect(contrastRatio(over(parseColor("rgba(0,0,0,0.5)")!, parseColor("#ffffff")!), parseColor("#ffffff")!)).toBeCloseTo(3.95, 1);
  });
});

describe("unclosed elements in content HTML", () => {
  it("finds what is never closed, and leaves elements whose end tag HTML makes optional", () => {
    expect(unclosedElements("<p><strong>bold</p><p>next</p>").map((e) => e.tag)).toEqual(["<strong>"]);
    expect(unclosedElements("<p>a <a href='x'>Shop</p>").map((e) => e.tag)).toEqual(["<a href='x'>"]);
    expect(unclosedElements("<ul><li>a<li>b</ul><p>one<p>two")).toEqual([]);
    expect(unclosedElements("<p><em>x</em> <br> <img src=x></p>")).toEqual([]);
  });
});
