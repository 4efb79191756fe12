import { randomUUID } from "node:crypto";
import type { Finding } from "@mailrender/engine";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { ApiError, templateChanged, templateNotFound } from "../errors.js";
import { FindingSchema, PageQuery, TemplateIdParams, TemplateJsonSchema, TemplateMetaSchema, WarningSchema } from "../schemas.js";
import { etagFor, prepareTemplate, requestedTemplateId, storeNewTemplate } from "../services/templates.js";
import type { TemplateMeta } from "../store/types.js";
import { ifMatchEtags } from "./conditional.js";
import type { RouteContext } from "./context.js";
import { errors, HEADERS, SECURED } from "./responses.js";

const WrittenTemplateSchema = TemplateMetaSchema.extend({
  warnings: z.array(WarningSchema).describe("Non-fatal findings of the engine's validator, e.g. unknown block types"),
  findings: z
    .array(FindingSchema)
    .describe(
      "What the template checks found (spec/checks.md), paths into the template: unclosed merge tags, unknown props, buttons without links, low contrast, the size against Gmail's clipping, … A template is never refused for a finding",
    ),
}).meta({ id: "WrittenTemplate" });

const written = (findings: readonly Finding[]) => findings.map((f) => ({ ...f, path: [...f.path] }));

const TemplateWithBodySchema = TemplateMetaSchema.extend({ template: TemplateJsonSchema }).meta({ id: "TemplateWithJson" });

function meta(t: TemplateMeta) {
  return { id: t.id, name: t.name, version: t.version, etag: t.etag, created_at: t.createdAt, updated_at: t.updatedAt };
}

/** Template management (read: viewer keys and up; write: editor keys and up): bodies are validated by the engine before they are stored. */
export const templateRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const read = { auth: "templates:read" } as const;
  const write = { auth: "templates:write" } as const;

  app.post(
    "/api/v1/templates",
    {
      config: write,
      schema: {
        tags: ["templates"],
        operationId: "createTemplate",
        summary: "Store a template; the service assigns its id (a UUID v4, written into `template_id`)",
        description:
          "`template_id` in the body may be left out, empty, or the id the Maildeno editor writes (made from the template's name): " +
          "the service gives the template a new UUID v4. A UUID v4 of your own is kept, unless a template has it (409 " +
          "`TEMPLATE_EXISTS`). Any other value is refused (422 `uuid_parsing`, with a hint): the service could not keep " +
          "it, and a later fetch by it would find nothing. The answer carries the template checks' `findings` (spec/checks.md); " +
          "a finding never refuses a template.",
        security: SECURED,
        body: TemplateJsonSchema,
        response: { 201: WrittenTemplateSchema, ...errors(401, 403, 409, 413, 415, 422, 429) },
        "x-response-headers": { 201: { Location: HEADERS.location, ETag: HEADERS.etag } },
      },
    },
    async (request, reply) => {
      // The template is judged first, so that its own issues come as they always have; then the id it asks for.
      let wanted: string | undefined;
      let refused: unknown;
      try {
        wanted = requestedTemplateId(request.body, ["body"]);
      } catch (error) {
        refused = error;
      }
      const id = wanted ?? randomUUID();
      const prepared = prepareTemplate(request.body, id);
      if (refused !== undefined) throw refused;
      if (wanted !== undefined && (await ctx.store.getTemplate(wanted)) !== undefined) {
        throw new ApiError(
          409,
          "TEMPLATE_EXISTS",
          `A template with id ${wanted} exists: replace it with PUT /api/v1/templates/${wanted}, or leave template_id out to create another`,
        );
      }
      const { record, warnings, findings } = await storeNewTemplate(ctx.store, id, prepared);
      reply.header("location", `/api/v1/templates/${record.id}`).header("etag", record.etag);
      return reply.code(201).send({ ...meta(record), warnings: [...warnings].map((w) => ({ ...w, path: [...w.path] })), findings: written(findings) });
    },
  );

  app.put(
    "/api/v1/templates/:id",
    {
      config: write,
      schema: {
        tags: ["templates"],
        operationId: "replaceTemplate",
        summary: "Replace a template (new version, new ETag)",
        description:
          "`template_id` in the body may be left out, empty, the Maildeno editor's id made from the name, or this template's id; " +
          "another is refused (422, issue type `template_id_mismatch`). The answer carries the template checks' `findings`. " +
          "With `If-Match` (the ETag the writer read), the template is replaced only if it has not changed since: " +
          "412 `TEMPLATE_CHANGED` otherwise, so that two editors never overwrite each other's work unknowingly.",
        security: SECURED,
        params: TemplateIdParams,
        headers: z.object({
          "if-match": z.string().optional().describe("The ETag(s) the writer read, or `*`: 412 unless the template still has one of them"),
        }),
        body: TemplateJsonSchema,
        response: { 200: WrittenTemplateSchema, ...errors(401, 403, 404, 412, 413, 415, 422, 429) },
        "x-response-headers": { 200: { ETag: HEADERS.etag } },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const prepared = prepareTemplate(request.body, id);
      // A template that does not exist is not found, whatever its body says.
      if ((await ctx.store.getTemplate(id)) === undefined) throw templateNotFound(id);
      requestedTemplateId(request.body, ["body"], id);
      const record = await ctx.store.replaceTemplate(id, {
        name: prepared.name,
        body: prepared.body,
        etagFor: (version) => etagFor(version, prepared.body),
        updatedAt: new Date().toISOString(),
        ifMatch: ifMatchEtags(request.headers["if-match"]),
      });
      if (record === undefined) throw templateNotFound(id);
      if (record === "etag-mismatch") throw templateChanged(id);
      ctx.lookups.templateChanged(id);
      reply.header("etag", record.etag);
      return { ...meta(record), warnings: [...prepared.warnings].map((w) => ({ ...w, path: [...w.path] })), findings: written(prepared.findings) };
    },
  );

  app.get(
    "/api/v1/templates",
    {
      config: read,
      schema: {
        tags: ["templates"],
        operationId: "listTemplates",
        summary: "List templates (metadata only), oldest first",
        security: SECURED,
        querystring: PageQuery,
        response: { 200: z.object({ templates: z.array(TemplateMetaSchema) }), ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => ({ templates: (await ctx.store.listTemplates(request.query)).map(meta) }),
  );

  app.get(
    "/api/v1/templates/:id",
    {
      config: read,
      schema: {
        tags: ["templates"],
        operationId: "getTemplate",
        summary: "Read a template with its metadata",
        security: SECURED,
        params: TemplateIdParams,
        response: { 200: TemplateWithBodySchema, ...errors(401, 403, 404, 422, 429) },
        "x-response-headers": { 200: { ETag: HEADERS.etag } },
      },
    },
    async (request, reply) => {
      const record = await ctx.store.getTemplate(request.params.id);
      if (record === undefined) throw templateNotFound(request.params.id);
      reply.header("etag", record.etag);
      return { ...meta(record), template: JSON.parse(record.body) as Record<string, unknown> };
    },
  );

  app.delete(
    "/api/v1/templates/:id",
    {
      config: write,
      schema: {
        tags: ["templates"],
        operationId: "deleteTemplate",
        summary: "Delete a template (later fetches answer 404)",
        security: SECURED,
        params: TemplateIdParams,
        // A body is not needed, but one that is sent is read: too large 413, not JSON 415.
        response: { 204: z.null().describe("Deleted"), ...errors(401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const deleted = await ctx.store.deleteTemplate(request.params.id);
      if (!deleted) throw templateNotFound(request.params.id);
      ctx.lookups.templateChanged(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
