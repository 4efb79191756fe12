/**
 * `componentProps`: a react-email component that takes a recipient's data as props. Rendered with
 * `@react-email/render` and given a fixture's dynamic data, it reads as the html target for that
 * recipient (text, links, images), over every render fixture; recipient values stay inert; the
 * generated TypeScript type-checks.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Parser } from "htmlparser2";
import { afterAll, describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { type DynamicData, inspectTemplate, RenderError, render } from "../src/index.js";
import { VISIBILITY_OPERATORS } from "../src/schema/common.js";
import { type VisibleContent, visibleContent } from "./support/html-text.js";
import { moduleFolder, renderComponent } from "./support/react-email-module.js";

const modules = moduleFolder(".tmp-component-props");
afterAll(() => modules.remove());

/** The document's title, as a reader's tab shows it. */
function titleOf(html: string): string {
  let title = "";
  let inTitle = false;
  const parser = new Parser({
    onopentag: (name) => (inTitle = name === "title"),
    onclosetag: () => (inTitle = false),
    ontext: (text) => (title += inTitle ? text : ""),
  });
  parser.end(html);
  return title;
}

const shownImages = (content: VisibleContent): string[] => [...new Set([...content.images, ...content.backgrounds])].sort();

async function component(name: string, template: unknown, minify = true) {
  const { output } = await render(template, { target: "react-email", componentProps: true, minify });
  return { source: output, Component: await modules.load(name, output) };
}

describe("a component given a recipient's data reads as the html target for that recipient", () => {
  it.each(listCases("render").map((c) => [c.name, c] as const))("%s", async (name, fixture) => {
    const html = await render(fixture.template, { target: "html", dynamicData: fixture.dynamicData, minify: fixture.minify });
    const { Component } = await component(name, fixture.template, fixture.minify);
    const rendered = await renderComponent(Component, fixture.dynamicData);
    const fromComponent = visibleContent(rendered);
    const fromHtml = visibleContent(html.output);
    expect(titleOf(rendered)).toBe(titleOf(html.output));
    expect(fromComponent.text).toBe(fromHtml.text);
    expect(fromComponent.links).toEqual(fromHtml.links);
    // Images by source, wherever written: the html target writes some as attributes, some in CSS, the react-email one in CSS.
    expect(shownImages(fromComponent)).toEqual(shownImages(fromHtml));
  });
});

const paragraph = (id: string, text: string) => ({ id, type: "component", componentType: "paragraph", props: { content: `<p>${text}</p>` } });
const doc = (id: string, rows: object[]) => ({ template_id: id, template_name: id, schema_version: "1.0", canvas: {}, rows });
const row = (id: string, children: object[], visibility?: object) => ({
  id,
  type: "row",
  ...(visibility ? { visibility } : {}),
  columns: [{ id: `${id}-c`, children }],
});

/** A value for each tag of `template`, in the group it reads. */
function valuesFor(template: unknown, value: (name: string, group: string) => string): DynamicData {
  const merge_tags: Record<string, Record<string, string>> = {};
  for (const tag of inspectTemplate(template).mergeTags) {
    const group = merge_tags[tag.reads] ?? {};
    group[tag.name] = value(tag.name, tag.reads);
    merge_tags[tag.reads] = group;
  }
  return { merge_tags };
}

/** Elements and attributes in `html` that could run code: scripts, event handlers, script URLs. */
function activeMarkup(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser({
    onopentag(name, attribs) {
      if (name === "script" || name === "iframe" || name === "object") found.push(name);
      for (const [attribute, value] of Object.entries(attribs)) {
        if (attribute.startsWith("on")) found.push(`${name} ${attribute}`);
        // A browser ignores control characters and spaces before a scheme.
        const scheme = value.replace(/[^\x21-\x7e]/g, "").toLowerCase();
        if (/^(href|src|background|action)$/.test(attribute) && /^(javascript|data|vbscript):/.test(scheme)) found.push(`${name} ${attribute}=${value}`);
      }
    },
  });
  parser.end(html);
  return found;
}

describe("recipient values stay inert", () => {
  const hostile = [
    "<script>alert(1)</script>",
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "\u0001javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "{alert(1)}",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a value that looks like a template literal
    "${alert(1)}",
    "`alert(1)`",
    '"><img src=x onerror=alert(1)>',
    "}</Text>{alert(1)}<Text>{",
  ];
  const fixture = listCases("render").find((c) => c.name === "merge-tag-positions");
  it.each(hostile.map((value, index) => [index, value] as const))("value %i reads as in the html target and runs nowhere", async (index, value) => {
    const template = fixture?.template;
    const data = valuesFor(template, () => value);
    const { Component } = await component(`hostile-${index}`, template);
    const fromComponent = await renderComponent(Component, data);
    const html = await render(template, { target: "html", dynamicData: data });
    const [shown, expected] = [visibleContent(fromComponent), visibleContent(html.output)];
    expect([shown.text, shown.links, shownImages(shown)]).toEqual([expected.text, expected.links, shownImages(expected)]);
    expect(activeMarkup(fromComponent)).toEqual([]);
  });

  it("a default that looks like code is a string too", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a default that looks like a template literal
    const template = doc("t", [row("r", [paragraph("p", "Hi {{ name|'`${process.exit(1)}`' }}")])]);
    const { source, Component } = await component("hostile-default", template);
    // In the source only as a string literal's content.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the default as written
    expect(source).toContain('"`${process.exit(1)}`"');
    const shown = visibleContent(await renderComponent(Component, {})).text;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the default as read
    expect(shown).toContain("Hi `${process.exit(1)}`");
    expect(shown).toBe(visibleContent((await render(template, { target: "html" })).output).text);
  });
});

describe("visibility rules decide as the engine does", () => {
  const values = ["", "pro", "PRO", " pro ", "10", "9.5", "abc", "2024-05-01", "2024-05-01T23:30:00-02:00", "2024-02-30", "pro, free", "a;b\nc"];
  const rows = VISIBILITY_OPERATORS.flatMap((operator) =>
    values.map((value, v) =>
      row(`r-${operator}-${v}`, [paragraph(`p-${operator}-${v}`, `R ${operator} ${v}`)], { enabled: true, rules: [{ tag: "Plan", operator, value }] }),
    ),
  );
  const template = doc("rules", rows);
  const contexts = [{}, ...values.map((value) => ({ plan: value })), { PLAN: "pro", plan: "free" }, { Plan: 10 }, { plan: true }, { plan: null }];
  it.each(contexts.map((context, index) => [index, context] as const))("context %i", async (index, context) => {
    const { Component } = await component(`rules-${index}`, template);
    const data = { context } as DynamicData;
    const html = await render(template, { target: "html", dynamicData: data });
    expect(visibleContent(await renderComponent(Component, data)).text).toBe(visibleContent(html.output).text);
  });
});

describe("options that describe one recipient", () => {
  const template = doc("t", [row("r", [paragraph("p", "Hi {{ name }}")])]);
  it.each([
    [{ target: "html" }, ["target"]],
    [{ target: "mjml" }, ["target"]],
    [{ target: "react-email", dynamicData: { merge_tags: { text: { name: "Ada" } } } }, ["dynamicData"]],
    [{ target: "react-email", dynamicData: { context: { plan: "pro" } } }, ["dynamicData"]],
    [{ target: "react-email", strict: true }, ["strict"]],
    [{ target: "react-email", plainText: true }, ["plainText"]],
  ] as const)("%j is refused, naming the option", async (options, loc) => {
    const error = await render(template, { ...options, componentProps: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).issues).toEqual([expect.objectContaining({ loc, type: "component_props_conflict" })]);
  });

  it("a component that would write too many nodes is refused at the widest row", async () => {
    const columns = Array.from({ length: 12 }, (_, i) => ({
      id: `c${i}`,
      props: { visibility: { enabled: true, rules: [{ tag: `k${i}`, operator: "==", value: "1" }] } },
      children: [paragraph(`p${i}`, `Column ${i}`)],
    }));
    const wide = doc("wide", [row("r0", [paragraph("p", "before")]), { id: "r1", type: "row", columns }]);
    const error = await render(wide, { target: "react-email", componentProps: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).issues).toEqual([expect.objectContaining({ loc: ["rows", "1"], type: "component_too_large" })]);
    expect((await render(wide, { target: "react-email" })).output).toContain("before");
  });

  it("empty data, minify and limits fit a component", async () => {
    const options = {
      target: "react-email",
      componentProps: true,
      dynamicData: { merge_tags: {}, context: {} },
      minify: false,
      limits: { maxNodes: 50 },
    } as const;
    expect((await render(template, options)).output).toContain("export interface TEmailProps");
  });
});

describe("the generated TypeScript type-checks", () => {
  it("under strict settings, and refuses a tag the template does not have", async () => {
    const names = ["realistic-newsletter", "merge-tag-positions", "visibility-node-kinds", "merge-group-fallback", "canvas-defaults"];
    for (const name of names) {
      const fixture = listCases("render").find((c) => c.name === name);
      writeFileSync(`${modules.dir}${name}.tsx`, (await render(fixture?.template, { target: "react-email", componentProps: true })).output);
    }
    writeFileSync(
      `${modules.dir}usage.tsx`,
      [
        `import Positions from "./merge-tag-positions";`,
        `import Kinds from "./visibility-node-kinds";`,
        `export const a = <Positions merge_tags={{ text: { first_name: "Ada" } }} />;`,
        `export const b = <Kinds context={{ plan: "pro" }} />;`,
        `export const c = <Kinds />;`,
        `// @ts-expect-error: not a tag of this template`,
        `export const d = <Positions merge_tags={{ text: { frist_name: "Ada" } }} />;`,
        `// @ts-expect-error: not a context key of this template`,
        `export const e = <Kinds context={{ plna: "pro" }} />;`,
        ``,
      ].join("\n"),
    );
    const compilerOptions = {
      strict: true,
      noEmit: true,
      jsx: "react-jsx",
      module: "esnext",
      moduleResolution: "bundler",
      target: "es2022",
      skipLibCheck: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noImplicitReturns: true,
    };
    writeFileSync(`${modules.dir}tsconfig.json`, JSON.stringify({ compilerOptions, include: ["*.tsx"] }));
    const tsc = new URL("../../node_modules/typescript/bin/tsc", import.meta.url).pathname;
    const result = (() => {
      try {
        return execFileSync(process.execPath, [tsc, "-p", modules.dir], { encoding: "utf8" });
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    })();
    expect(result).toBe("");
  });
});
