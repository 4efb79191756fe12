/** Every `mjml` output is MJML that mjml itself compiles at strict validation with no errors. */
import mjml2html from "mjml";
import { describe, expect, it } from "vitest";
import { render } from "../src/index.js";
import { listCases } from "../scripts/fixture-cases.js";

describe("mjml target compiles with mjml at validationLevel strict", () => {
  it.each(listCases("render").map((c) => [c.name, c] as const))("%s", async (_name, fixture) => {
    for (const minify of [true, false]) {
      const { output } = await render(fixture.template, { target: "mjml", dynamicData: fixture.dynamicData, minify, strict: fixture.strict });
      const result = await mjml2html(output, { validationLevel: "strict", ignoreIncludes: true } as Parameters<typeof mjml2html>[1]);
      expect(result.errors).toEqual([]);
      expect(result.html).toContain("<!doctype html>");
    }
  });
});
