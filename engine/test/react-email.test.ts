/**
 * Every `react-email` output is a real React Email module: esbuild compiles it, React renders it with
 * `@react-email/render`, and a reader sees the same text and links as in the `html` output.
 */
import { afterAll, describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { visibleContent } from "./support/html-text.js";
import { moduleFolder, renderComponent } from "./support/react-email-module.js";

const modules = moduleFolder(".tmp-react-email");
afterAll(() => modules.remove());

describe("react-email target renders like the html target", () => {
  it.each(listCases("render").map((c) => [c.name, c] as const))("%s", async (name, fixture) => {
    const options = { dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict };
    const tsx = await render(fixture.template, { ...options, target: "react-email" });
    const html = await render(fixture.template, { ...options, target: "html" });
    const reactHtml = await renderComponent(await modules.load(name, tsx.output));
    const fromReact = visibleContent(reactHtml);
    const fromHtml = visibleContent(html.output);
    expect(fromReact.text).toBe(fromHtml.text);
    expect(fromReact.links).toEqual(fromHtml.links);
  });
});
