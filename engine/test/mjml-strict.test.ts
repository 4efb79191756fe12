/** Every `mjml` output is MJML that mjml itself compiles at strict validation with no errors. */
import mjml2html from "mjml";
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { RenderError, render } from "../src/index.js";
import { CSS_COLOR_NAMES } from "../src/schema/color-names.js";

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

describe("colours the template schema accepts", () => {
  it("every colour name, in any case, compiles at strict in the mjml and html targets", async () => {
    const template = {
      template_id: "colours",
      template_name: "Colours",
      schema_version: "1.0",
      canvas: {},
      rows: CSS_COLOR_NAMES.map((name, i) => ({
        id: `r${i}`,
        backgroundColor: i % 2 === 0 ? name : name.toUpperCase(),
        columns: [
          { width: 100, children: [{ type: "component", componentType: "button", props: { backgroundColor: name[0]!.toUpperCase() + name.slice(1) } }] },
        ],
      })),
    };
    const { output } = await render(template, { target: "mjml" });
    const result = await mjml2html(output, { validationLevel: "strict", ignoreIncludes: true } as Parameters<typeof mjml2html>[1]);
    expect(result.errors).toEqual([]);
    await expect(render(template, { target: "html" })).resolves.toBeDefined();
  });

  it("a name that is not a CSS colour is refused at its path in every target, not by mjml", async () => {
    const template = {
      template_id: "c",
      template_name: "C",
      schema_version: "1.0",
      canvas: {},
      rows: [{ columns: [{ width: 100, children: [{ type: "component", componentType: "button", props: { backgroundColor: "notacolour" } }] }] }],
    };
    for (const target of ["html", "mjml", "react-email"] as const) {
      const error = await render(template, { target }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, target).toBeInstanceOf(RenderError);
      expect(
        (error as RenderError).issues.map((i) => i.loc.join(".")),
        target,
      ).toEqual(["rows.0.columns.0.children.0.props.backgroundColor"]);
    }
  });
});
