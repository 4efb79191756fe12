/**
 * The html target's size, kept structurally: the realistic newsletter within its byte budget, and
 * none of what the html target leaves out (targets/html-waste.ts, the MJML writers' `mjmlAttrs`) in any
 * fixture's html. bench/output-size.ts and bench/first-render.ts print the figures.
 */
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";

/**
 * 50,522 B when set, 1.50× Maildeno's engine (33,721 B, with no Outlook markup): 62,560 B before
 * the html lost what no client reads, 55,901 B with Outlook's VML buttons before row spacers became
 * padding, a heading's wrapper lost the style its heading overrides, empty columns their tables and
 * cells the declarations their tables make (docs/design/html-size.md).
 */
const NEWSLETTER_BUDGET = 50_522;

const cases = listCases("render");

describe("html size", () => {
  it("the realistic newsletter's html stays within its budget", async () => {
    const newsletter = cases.find((c) => c.name === "realistic-newsletter")!;
    const { output } = await render(newsletter.template, { target: "html", dynamicData: newsletter.dynamicData });
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(NEWSLETTER_BUDGET);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: none of what the html target leaves out", async (_name, fixture) => {
    const { output } = await render(fixture.template, { target: "html", dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict });
    expect(output).not.toContain("<tbody>");
    expect(output).not.toContain("noinput.mj-menu-checkbox");
    expect(output).not.toContain("<v:roundrect xmlns:w=");
    expect(output).not.toMatch(/font-size:0;padding:0;(?:word-break|text-align)/);
    expect(output).not.toMatch(/role="presentation"\s+style="vertical-align:\w+;"\s+width="100%"/);
    expect(output).not.toMatch(/width="100%"\s*>\s*<\/table>/);
  });
});
