/**
 * Every render fixture in the Maildeno editor's two forms (hydrated and export, test/support/editor-form.ts)
 * renders in all three targets, and a reader sees the same as for the fixture as written: visible
 * text, link targets, image sources (so the same blocks shown and hidden).
 */
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import type { RenderTarget } from "../src/base/types.js";
import { render } from "../src/index.js";
import { compileMjmlToHtml } from "../src/mjml-to-html/index.js";
import { toExport, toHydrated } from "./support/editor-form.js";
import { visibleContent } from "./support/html-text.js";

const cases = listCases("render");
const FORMS = { hydrated: toHydrated, export: toExport } as const;

/** What a reader gets from one target's output (mjml compiled to HTML; react-email by its URL attributes and text). */
function reading(target: RenderTarget, output: string) {
  if (target === "react-email") {
    const urls = [...output.matchAll(/\b(href|src)="([^"]*)"/g)].map((m) => `${m[1]}=${m[2]}`);
    return {
      urls,
      text:
        output
          .replace(/<[^>]*>/g, " ")
          .replace(/\s+/g, " ")
          .replace(/style=\{\{[^}]*\}\}/g, "")
          .trim().length > 0,
    };
  }
  return visibleContent(target === "mjml" ? compileMjmlToHtml(output) : output);
}

describe.each(Object.entries(FORMS))("editor %s form", (_form, transform) => {
  it.each(cases.map((c) => [c.name, c] as const))("%s reads the same in every target", async (_name, fixture) => {
    const template = transform(fixture.template as Record<string, unknown>);
    for (const target of ["html", "mjml", "react-email"] as const) {
      const options = { target, dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict };
      const original = await render(fixture.template, options);
      const edited = await render(template, options);
      expect(reading(target, edited.output), target).toEqual(reading(target, original.output));
    }
  });
});
