/**
 * Every `react-email` output is a real React Email module: esbuild compiles it, React renders it with
 * `@react-email/render`, and a reader sees the same text and links as in the `html` output.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { render as renderEmail } from "@react-email/render";
import { transform } from "esbuild";
import { createElement, type FunctionComponent } from "react";
import { afterAll, describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { visibleContent } from "./support/html-text.js";

// Inside the repository so that the module's imports resolve from node_modules.
const TMP = fileURLToPath(new URL("./.tmp-react-email/", import.meta.url));
mkdirSync(TMP, { recursive: true });
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

async function loadComponent(name: string, source: string): Promise<FunctionComponent> {
  const { code } = await transform(source, { loader: "tsx", jsx: "automatic", format: "esm", target: "es2022" });
  const file = `${TMP}${name}.mjs`;
  writeFileSync(file, code);
  const module = (await import(pathToFileURL(file).href)) as { default: FunctionComponent };
  return module.default;
}

describe("react-email target renders like the html target", () => {
  it.each(listCases("render").map((c) => [c.name, c] as const))("%s", async (name, fixture) => {
    const options = { dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict };
    const tsx = await render(fixture.template, { ...options, target: "react-email" });
    const html = await render(fixture.template, { ...options, target: "html" });
    const Component = await loadComponent(name, tsx.output);
    const reactHtml = await renderEmail(createElement(Component));
    const fromReact = visibleContent(reactHtml);
    const fromHtml = visibleContent(html.output);
    expect(fromReact.text).toBe(fromHtml.text);
    expect(fromReact.links).toEqual(fromHtml.links);
  });
});
