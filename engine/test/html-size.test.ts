/**
 * The html target's size, kept structurally: the realistic newsletter within its byte budget, and
 * none of what the html target leaves out (targets/html-waste.ts, targets/mjml-lean.ts) in any
 * fixture's html. bench/output-size.ts and bench/first-render.ts print the figures.
 */
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";

/**
 * 55,901 B when set: 53,920 B of html once it lost what no client reads (62,560 B before), plus
 * Outlook's VML for its rounded buttons (spec/template.md, "In Outlook for Windows"); Maildeno's
 * engine: 33,721 B, with no VML.
 */
const NEWSLETTER_BUDGET = 56_000;

const cases = listCases("render");

describe("html size", () => {
  it("the realistic newsletter's html stays within its budget", async () => {
    const newsletter = cases.find((c) => c.name === "realistic-newsletter")!;
    const { output } = await render(newsletter.template, { target: "html", dynamicData: newsletter.dynamicData });
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(NEWSLETTER_BUDGET);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s: no tbody tag, no unused menu rule", async (_name, fixture) => {
    const { output } = await render(fixture.template, { target: "html", dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict });
    expect(output).not.toContain("<tbody>");
    expect(output).not.toContain("noinput.mj-menu-checkbox");
  });
});
