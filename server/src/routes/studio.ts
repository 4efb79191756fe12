/**
 * The studio: a page served at /studio (its assets built by server/scripts/build-studio.ts into
 * server/studio/dist, no CDN), and the endpoints it uses besides template management: a template's
 * sample data, a preview of all three targets with plain text and visibility, a preview of a template
 * being edited, the editor description its forms are generated from, starters.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { editorDescriptions, RENDER_TARGETS, RenderError, type RenderTarget, render } from "@mailrender/engine";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { ApiError, templateNotFound, validationError } from "../errors.js";
import { DynamicDataSchema, toDynamicData } from "../render/request.js";
import { FindingSchema, TemplateIdParams, TemplateJsonSchema, WarningSchema } from "../schemas.js";
import { sampleFromTemplate } from "../services/samples.js";
import { GMAIL_CLIP_BYTES, previewDraft, targetOutput, visibilityDecisions } from "../services/studio-preview.js";
import type { RouteContext } from "./context.js";
import { errors, SECURED } from "./responses.js";

const STUDIO_DIR = new URL("../../studio/", import.meta.url);
const STARTERS_DIR = new URL("../../demo/", import.meta.url);

const ASSET_TYPES: Record<string, string> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8", map: "application/json; charset=utf-8" };

const SampleSchema = z
  .strictObject({ dynamic_data: DynamicDataSchema, saved: z.boolean().describe("false: built from the template's merge tags and context keys, not saved yet") })
  .meta({ id: "TemplateSample" });

const TargetPreviewSchema = z.object({
  output: z.string(),
  bytes: z.number().int().describe("UTF-8 size of the output"),
  warnings: z.array(WarningSchema),
});

const DecisionSchema = z.object({
  id: z.string(),
  path: z.array(z.string()),
  kind: z.enum(["row", "spacer", "column", "component"]),
  block: z.string().nullable(),
  visible: z.boolean(),
  reason: z.string(),
  match: z.enum(["all", "any"]).nullable(),
  rules: z.array(z.object({ tag: z.string(), operator: z.string(), value: z.string(), actual: z.string().nullable(), passed: z.boolean() })),
  hiddenOn: z.array(z.enum(["desktop", "mobile"])),
});

const PreviewSchema = z
  .object({
    targets: z.object({ html: TargetPreviewSchema, mjml: TargetPreviewSchema, "react-email": TargetPreviewSchema }),
    text: z.string().describe("The plain-text version"),
    gmail_clip_bytes: z.number().int(),
    visibility: z.array(DecisionSchema),
  })
  .meta({ id: "TemplatePreview" });

const DraftPreviewSchema = z
  .object({
    html: TargetPreviewSchema,
    text: z.string().describe("The plain-text version"),
    gmail_clip_bytes: z.number().int(),
    visibility: z.array(DecisionSchema),
    findings: z.array(FindingSchema).describe("What the template checks found (spec/checks.md), paths into the template"),
    merge_tags: z.array(
      z.object({ name: z.string(), group: z.enum(["text", "url", "attr"]).nullable(), reads: z.enum(["text", "url", "attr"]), default: z.string().nullable() }),
    ),
    context_keys: z.array(z.string()).describe("The context keys its visibility rules read"),
    sample: DynamicDataSchema.describe("Sample data built from its merge tags and context keys"),
    view: z
      .object({
        target: z.enum(["mjml", "react-email"]),
        source: TargetPreviewSchema,
        html: z.string().nullable().describe("The HTML a reader gets from the source: MJML compiled by mjml, React Email rendered by React"),
        made_by: z.string(),
        error: z.string().nullable().describe("Why `html` could not be made"),
      })
      .nullable()
      .describe("The target asked for, when not html"),
  })
  .meta({ id: "DraftPreview" });

const EditorFieldSchema = z
  .looseObject({
    prop: z.string(),
    label: z.string(),
    kind: z.string().describe("text, richText, url, imageUrl, color, number, enum, boolean, spacing, border, gradient, fontFamily, css, entries, visibility"),
    hint: z.string().optional(),
    phone: z.boolean().optional().describe("Whether `mobile.<prop>` overrides it on phones"),
    dark: z.string().optional().describe("The key of its dark-mode colour"),
    default: z.unknown().optional(),
  })
  .meta({ id: "EditorField" });

const EditorDescriptionSchema = z
  .looseObject({
    label: z.string(),
    description: z.string(),
    groups: z.array(z.object({ id: z.string(), label: z.string(), fields: z.array(EditorFieldSchema) })),
    dark: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        kind: z.optional(z.literal("gradient")).describe("A gradient in the light one's shape; absent: a colour"),
      }),
    ),
  })
  .meta({ id: "EditorDescription" });

const EditorDescriptionsSchema = z
  .object({
    version: z.number().int(),
    canvas: EditorDescriptionSchema,
    row: EditorDescriptionSchema,
    column: EditorDescriptionSchema,
    rowSpacer: EditorDescriptionSchema,
    blocks: z.array(EditorDescriptionSchema.extend({ type: z.string(), example: z.record(z.string(), z.unknown()) })),
  })
  .meta({ id: "EditorDescriptions" });

/** A template the engine refuses, as a 422 whose issues point into the request body at `locRoot`. */
function refused(err: unknown, locRoot: readonly string[]): unknown {
  if (!(err instanceof RenderError)) return err;
  return validationError(
    [...err.issues].map((i) => ({ loc: [...locRoot, ...i.loc], msg: i.msg, type: i.type })),
    err.message,
  );
}

const StarterSchema = z.object({ name: z.string(), file: z.string(), template: TemplateJsonSchema });

function readStudioFile(relative: string): Buffer | undefined {
  const url = new URL(relative, STUDIO_DIR);
  return existsSync(url) ? readFileSync(url) : undefined;
}

export const studioRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const read = { auth: "templates:read" } as const;
  const write = { auth: "templates:write" } as const;
  const page = { schema: { hide: true }, config: { auth: "public" } } as const;
  // The same for the life of the process: the registry of the engine this server runs.
  const descriptions = JSON.parse(JSON.stringify(editorDescriptions())) as z.output<typeof EditorDescriptionsSchema>;

  const index = async (_request: unknown, reply: { type(t: string): { send(b: Buffer | string): unknown }; header(k: string, v: string): unknown }) => {
    const html = readStudioFile("index.html");
    if (html === undefined) throw new ApiError(500, "INTERNAL_ERROR", "The studio page is missing from this installation");
    // The page runs only its own script; previews are sandboxed srcdoc frames without scripts.
    reply.header(
      "content-security-policy",
      "default-src 'self'; img-src * data:; style-src 'self' 'unsafe-inline' https:; font-src * data:; object-src 'none'; base-uri 'none'",
    );
    return reply.type("text/html; charset=utf-8").send(html);
  };
  app.get("/studio", page, index);
  app.get("/studio/templates/:id", page, index);
  app.get("/studio/new", page, index);
  app.get("/studio/keys", page, index);
  app.get("/studio/assets/:file", page, async (request, reply) => {
    const { file } = request.params as { file: string };
    const type = ASSET_TYPES[file.split(".").pop() ?? ""];
    const body = /^[\w.-]+$/.test(file) && type !== undefined ? readStudioFile(`dist/${file}`) : undefined;
    if (body === undefined) throw new ApiError(404, "NOT_FOUND", `No studio asset ${JSON.stringify(file)} (is the studio built? make setup)`);
    return reply.type(type!).header("cache-control", "no-cache").send(body);
  });

  app.get(
    "/api/v1/templates/:id/sample",
    {
      config: read,
      schema: {
        tags: ["studio"],
        operationId: "getTemplateSample",
        summary: "The template's sample dynamic data for the studio (saved, or built from its merge tags and context keys)",
        security: SECURED,
        params: TemplateIdParams,
        response: { 200: SampleSchema, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const saved = await ctx.store.getTemplateSample(id);
      if (saved !== undefined) return { dynamic_data: JSON.parse(saved) as z.output<typeof DynamicDataSchema>, saved: true };
      const template = await ctx.store.getTemplate(id);
      if (template === undefined) throw templateNotFound(id);
      return { dynamic_data: sampleFromTemplate(JSON.parse(template.body)), saved: false };
    },
  );

  app.put(
    "/api/v1/templates/:id/sample",
    {
      config: write,
      schema: {
        tags: ["studio"],
        operationId: "putTemplateSample",
        summary: "Save the template's sample dynamic data",
        security: SECURED,
        params: TemplateIdParams,
        body: z.strictObject({ dynamic_data: DynamicDataSchema }),
        response: { 200: SampleSchema, ...errors(401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const saved = await ctx.store.putTemplateSample(id, JSON.stringify(request.body.dynamic_data), new Date().toISOString());
      if (!saved) throw templateNotFound(id);
      return { dynamic_data: request.body.dynamic_data, saved: true };
    },
  );

  app.post(
    "/api/v1/templates/:id/preview",
    {
      config: read,
      schema: {
        tags: ["studio"],
        operationId: "previewTemplate",
        summary: "Render a stored template to every target with the given dynamic data, with its plain text and visibility decisions",
        security: SECURED,
        params: TemplateIdParams,
        body: z.strictObject({ dynamic_data: DynamicDataSchema.optional() }),
        response: { 200: PreviewSchema, ...errors(401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const record = await ctx.store.getTemplate(id);
      if (record === undefined) throw templateNotFound(id);
      const template = JSON.parse(record.body) as unknown;
      const dynamicData = toDynamicData(request.body.dynamic_data) ?? {};
      try {
        const renders = await Promise.all(
          RENDER_TARGETS.map((target: RenderTarget) => render(template, { target, dynamicData, plainText: target === "html" })),
        );
        const targets = Object.fromEntries(renders.map((r) => [r.target, targetOutput(r.output, r.warnings)])) as z.output<typeof PreviewSchema>["targets"];
        return { targets, text: renders[0]?.text ?? "", gmail_clip_bytes: GMAIL_CLIP_BYTES, visibility: visibilityDecisions(template, dynamicData.context) };
      } catch (err) {
        throw refused(err, []);
      }
    },
  );

  app.post(
    "/api/v1/studio/preview",
    {
      config: read,
      schema: {
        tags: ["studio"],
        operationId: "previewDraft",
        summary: "Preview a template as it is being edited (not stored): html, plain text, visibility, findings, merge tags; one other target on request",
        security: SECURED,
        body: z.strictObject({
          template: TemplateJsonSchema,
          dynamic_data: DynamicDataSchema.optional(),
          target: z.enum(RENDER_TARGETS).default("html").describe("mjml or react-email: also that target's source and the HTML made from it"),
        }),
        response: { 200: DraftPreviewSchema, ...errors(401, 403, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      try {
        return await previewDraft(request.body.template, toDynamicData(request.body.dynamic_data) ?? {}, request.body.target);
      } catch (err) {
        throw refused(err, ["body", "template"]);
      }
    },
  );

  app.get(
    "/api/v1/studio/editor",
    {
      config: read,
      schema: {
        tags: ["studio"],
        operationId: "getEditorDescriptions",
        summary: "How the studio's editor presents the canvas, rows, columns, row spacers and every block of this server's engine: fields, kinds, defaults",
        security: SECURED,
        response: { 200: EditorDescriptionsSchema, ...errors(401, 403, 429) },
      },
    },
    async () => descriptions,
  );

  app.get(
    "/api/v1/studio/starters",
    {
      config: read,
      schema: {
        tags: ["studio"],
        operationId: "listStarters",
        summary: "Starter templates to create a template from",
        security: SECURED,
        response: { 200: z.object({ starters: z.array(StarterSchema) }), ...errors(401, 403, 429) },
      },
    },
    async () => {
      const files = readdirSync(STARTERS_DIR)
        .filter((f) => f.endsWith(".json"))
        .sort();
      const starters = files.map((file) => {
        const template = JSON.parse(readFileSync(new URL(file, STARTERS_DIR), "utf8")) as Record<string, unknown>;
        return { name: typeof template["template_name"] === "string" ? template["template_name"] : file, file, template };
      });
      return { starters };
    },
  );
};
