import type { DynamicData } from "@mailrender/engine";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { requireTarget } from "../auth/authenticate.js";
import { ApiError, templateNotFound, validationError } from "../errors.js";
import { RenderFailure } from "../render/pool.js";
import { RenderTargetSchema } from "../schemas.js";
import { currentKey, type RouteContext } from "./context.js";
import { errors, SECURED } from "./responses.js";

/** The deprecation announcement (RFC 9745 `Deprecation`, RFC 8594 `Sunset`). */
export const DEPRECATION_HEADERS = {
  deprecation: "@1780617600", // 2026-06-05T00:00:00Z
  // At least six months after the release that announced it (2026-11); it keeps working until then.
  sunset: "Tue, 01 Jun 2027 00:00:00 GMT",
  link: '</docs#/sdk/renderTemplate>; rel="deprecation"; type="text/html"',
} as const;

const MergeTagMap = z.record(z.string(), z.string());

export const DynamicDataSchema = z
  .strictObject({
    merge_tags: z
      .strictObject({ text: MergeTagMap.optional(), url: MergeTagMap.optional(), attr: MergeTagMap.optional() })
      .optional()
      .describe("Merge-tag values by group; a bare tag reads the group that fits where it stands"),
    context: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe("Flat map read by visibility rules"),
  })
  .meta({ id: "DynamicData" });

export const RenderRequestSchema = z
  .strictObject({
    template_id: z.uuid({ version: "v4" }),
    target: RenderTargetSchema.default("html"),
    dynamic_data: DynamicDataSchema.optional(),
  })
  .meta({ id: "RenderRequest" });

/** zod's optional fields may hold `undefined`; the engine's types (exact optional properties) may not. */
function toDynamicData(input: z.output<typeof DynamicDataSchema> | undefined): DynamicData | undefined {
  if (input === undefined) return undefined;
  const tags = input.merge_tags;
  const mergeTags =
    tags === undefined ? undefined : { ...(tags.text && { text: tags.text }), ...(tags.url && { url: tags.url }), ...(tags.attr && { attr: tags.attr }) };
  return { ...(mergeTags && { merge_tags: mergeTags }), ...(input.context && { context: input.context }) };
}

/** Engine issues pass through unchanged, so they match what a client's in-process render reports. */
function renderFailureError(err: RenderFailure): Error {
  switch (err.kind) {
    case "render":
      return validationError(err.issues, err.message);
    case "timeout":
      return validationError([{ loc: ["body", "template_id"], msg: err.message, type: "render_timeout" }], err.message);
    case "memory":
      return validationError([{ loc: ["body", "template_id"], msg: err.message, type: "render_memory" }], err.message);
    case "overloaded":
      return new ApiError(503, "UNAVAILABLE", err.message, undefined, { "retry-after": "1" });
    default:
      return err;
  }
}

/** `?format=text`: the plain-text version instead of the output (a query parameter, since `text/plain` is already the type of two targets' output). */
export const RenderQuerySchema = z.strictObject({
  format: z
    .enum(["output", "text"])
    .default("output")
    .describe("`output` (default): the rendered target. `text`: the email's plain-text version (text/plain; the same for every target)"),
});

const CONTENT_TYPES = { html: "text/html; charset=utf-8", "react-email": "text/plain; charset=utf-8", mjml: "text/plain; charset=utf-8" } as const;

/** POST /v1/sdk/render (deprecated): renders on the server with the same engine the clients embed. */
export const sdkRenderRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  app.post(
    "/v1/sdk/render",
    {
      config: { auth: "key" },
      schema: {
        tags: ["sdk"],
        operationId: "renderTemplate",
        summary: "Render a template on the server (deprecated)",
        description:
          "Deprecated: clients render in-process from `GET /v1/sdk/template/{id}`. Every response carries `Deprecation`, " +
          '`Sunset` and `Link: <…>; rel="deprecation"`. The body of a 200 is the raw output (minified, byte-identical to ' +
          "the clients'), `text/html` for `html` and `text/plain` for `react-email` and `mjml`. Renders run on worker " +
          "threads within a time budget (`MAILRENDER_RENDER_TIMEOUT_MS`, default 10 s): past it, 422 with issue type " +
          "`render_timeout`; 503 when too many renders are waiting. " +
          "With `?format=text` it is the email's plain-text version (`text/plain`), the same the clients return as `text` with their plain-text option.",
        deprecated: true,
        security: SECURED,
        body: RenderRequestSchema,
        querystring: RenderQuerySchema,
        response: {
          200: {
            description: "The rendered output, not wrapped in JSON",
            content: { "text/html": { schema: z.string() }, "text/plain": { schema: z.string() } },
          },
          ...errors(401, 403, 404, 413, 415, 422, 429),
        },
      },
      // The announcement goes on every answer of this route, errors included.
      onSend: async (_request, reply, payload) => {
        reply.headers(DEPRECATION_HEADERS);
        return payload;
      },
    },
    async (request, reply) => {
      const key = currentKey(request);
      const { template_id: id, target, dynamic_data } = request.body;
      const plainText = request.query.format === "text";
      requireTarget(key, target);
      const template = await ctx.lookups.template(id);
      if (template === null) throw templateNotFound(id);
      try {
        const output = await ctx.renderPool.render(template.body, { target, dynamicData: toDynamicData(dynamic_data), minify: true, plainText });
        return reply.type(plainText ? "text/plain; charset=utf-8" : CONTENT_TYPES[target]).send(output);
      } catch (err) {
        throw err instanceof RenderFailure ? renderFailureError(err) : err;
      }
    },
  );
};
