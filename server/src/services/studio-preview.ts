/**
 * The studio's preview of a template as it is being edited (not yet saved): the html target with its
 * plain text, the visibility decision of every node, the template's findings, the merge tags and
 * context keys it reads (the editor's merge-tag picker), and, when asked, one other target as its
 * source and as its reader sees it — MJML compiled by mjml itself, React Email rendered by React.
 */
import { runInNewContext } from "node:vm";
import {
  type DynamicData,
  explainVisibility,
  type Finding,
  inspectTemplate,
  type RenderTarget,
  type RenderWarning,
  render,
  validateTemplate,
} from "@mailrender/engine";
import { sampleFromTemplate } from "./samples.js";

/** Gmail clips a message whose HTML is larger than this (102 KB) behind "View entire message". */
export const GMAIL_CLIP_BYTES = 102 * 1024;

export interface TargetOutput {
  output: string;
  bytes: number;
  warnings: { code: string; message: string; path: string[] }[];
}

/** Another target than html: its source, and the HTML a reader gets from it (null when it could not be made, with why). */
export interface TargetView {
  target: Exclude<RenderTarget, "html">;
  source: TargetOutput;
  html: string | null;
  made_by: string;
  error: string | null;
}

export function targetOutput(output: string, warnings: readonly RenderWarning[]): TargetOutput {
  return { output, bytes: Buffer.byteLength(output), warnings: warnings.map((w) => ({ code: w.code, message: w.message, path: [...w.path] })) };
}

/** What the template checks find (spec/checks.md), with paths into the template. */
export function templateFindings(template: unknown): (Omit<Finding, "path"> & { path: string[] })[] {
  return validateTemplate(template).findings.map((f) => ({ ...f, path: [...f.path] }));
}

export function visibilityDecisions(template: unknown, context: DynamicData["context"]) {
  return explainVisibility(template, context).map((d) => ({ ...d, path: [...d.path], rules: [...d.rules], hiddenOn: [...d.hiddenOn] }));
}

export async function previewDraft(template: unknown, dynamicData: DynamicData, view: RenderTarget) {
  const html = await render(template, { target: "html", dynamicData, plainText: true });
  const inspected = inspectTemplate(template);
  return {
    html: targetOutput(html.output, html.warnings),
    text: html.text ?? "",
    gmail_clip_bytes: GMAIL_CLIP_BYTES,
    visibility: visibilityDecisions(template, dynamicData.context),
    findings: templateFindings(template),
    merge_tags: inspected.mergeTags.map((tag) => ({ name: tag.name, group: tag.group, reads: tag.reads, default: tag.default })),
    context_keys: [...inspected.contextKeys],
    sample: sampleFromTemplate(template),
    view: view === "html" ? null : await targetView(template, dynamicData, view),
  };
}

async function targetView(template: unknown, dynamicData: DynamicData, target: Exclude<RenderTarget, "html">): Promise<TargetView> {
  const rendered = await render(template, { target, dynamicData });
  const source = targetOutput(rendered.output, rendered.warnings);
  try {
    return target === "mjml"
      ? { target, source, html: await compileMjml(rendered.output), made_by: "mjml", error: null }
      : { target, source, html: await renderReactEmail(rendered.output), made_by: "@react-email/render", error: null };
  } catch (err) {
    return { target, source, html: null, made_by: target === "mjml" ? "mjml" : "@react-email/render", error: err instanceof Error ? err.message : String(err) };
  }
}

/** The MJML source compiled by mjml (loaded on first use: it is large, and only the studio needs it). */
async function compileMjml(source: string): Promise<string> {
  const { default: mjml2html } = await import("mjml");
  const result = await mjml2html(source, { validationLevel: "soft" });
  return result.html;
}

/**
 * The React Email source as React renders it: compiled by esbuild, evaluated with only its two
 * imports available (`@react-email/components` and React's JSX runtime), rendered by
 * `@react-email/render`. The source is the engine's, with every value escaped into JSX text or
 * string literals; no recipient value is ever code.
 */
async function renderReactEmail(source: string): Promise<string> {
  const [{ transform }, components, jsxRuntime, react, { render: renderEmail }] = await Promise.all([
    import("esbuild"),
    import("@react-email/components"),
    import("react/jsx-runtime"),
    import("react"),
    import("@react-email/render"),
  ]);
  const { code } = await transform(source, { loader: "tsx", jsx: "automatic", format: "cjs", target: "es2022" });
  const modules: Record<string, unknown> = { "@react-email/components": components, "react/jsx-runtime": jsxRuntime };
  const module: { exports: { default?: unknown } } = { exports: {} };
  const require = (name: string): unknown => {
    if (!(name in modules)) throw new Error(`The React Email source imports ${JSON.stringify(name)}, which a preview does not offer`);
    return modules[name];
  };
  runInNewContext(code, { module, exports: module.exports, require }, { timeout: 2_000 });
  const component = module.exports.default;
  if (typeof component !== "function") throw new Error("The React Email source has no default export");
  return renderEmail(react.createElement(component as () => null));
}
