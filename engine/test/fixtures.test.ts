/** Every golden case renders byte for byte as recorded (goldens change only through `make fixtures`). */
import { describe, expect, it } from "vitest";
import { listCases, RENDER_TARGETS, readExpected, readExpectedError, readExpectedText, readExpectedWarnings } from "../scripts/fixture-cases.js";
import { RenderError, render } from "../src/index.js";

const renderCases = listCases("render");
const errorCases = listCases("errors");

describe("golden fixtures", () => {
  it("has at least 40 cases", () => {
    expect(renderCases.length + errorCases.length).toBeGreaterThanOrEqual(40);
  });

  describe.each(renderCases.map((c) => [c.name, c] as const))("render/%s", (_name, fixture) => {
    it.each(RENDER_TARGETS.map((t) => [t]))("%s equals the golden output", async (target) => {
      const result = await render(fixture.template, {
        target,
        dynamicData: fixture.dynamicData,
        minify: fixture.minify,
        strict: fixture.strict,
        plainText: true,
      });
      expect(result.output).toBe(readExpected(fixture, target));
      expect(result.text).toBe(readExpectedText(fixture));
      expect(result.warnings.map(({ code, path }) => ({ code, path }))).toEqual(readExpectedWarnings(fixture)[target]);
    });
  });

  describe.each(errorCases.map((c) => [c.name, c] as const))("errors/%s", (_name, fixture) => {
    it("fails with the recorded error", async () => {
      const expected = readExpectedError(fixture);
      const error = await render(fixture.template, {
        target: fixture.target ?? "html",
        dynamicData: fixture.dynamicData,
        minify: fixture.minify,
        strict: fixture.strict,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RenderError);
      const renderError = error as RenderError;
      expect({ code: renderError.code, message: renderError.message, issues: renderError.issues }).toEqual(expected);
    });
  });
});
