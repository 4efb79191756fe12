import type { FastifyRequest, FastifySchemaCompiler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { requireTarget } from "../auth/authenticate.js";
import { ApiError, templateNotFound, validationError } from "../errors.js";
import { drainRequest } from "../http/drain.js";
import { JSON_MEDIA_TYPES } from "../http/json-body.js";
import { zodValidatorCompiler } from "../http/validation.js";
import { RenderFailure, type RenderTicket } from "../render/pool.js";
import { RenderRequestSchema } from "../render/request.js";
import { currentKey, type RouteContext } from "./context.js";
import { errors, SECURED } from "./responses.js";

/** The deprecation announcement (RFC 9745 `Deprecation`, RFC 8594 `Sunset`). */
export const DEPRECATION_HEADERS = {
  deprecation: "@1780617600", // 2026-06-05T00:00:00Z
  // At least six months after the release that announced it (2026-11); it keeps working until then.
  sunset: "Tue, 01 Jun 2027 00:00:00 GMT",
  link: '</docs#/sdk/renderTemplate>; rel="deprecation"; type="text/html"',
} as const;

/** Engine issues pass through unchanged, so they match what a client's in-process render reports. */
function renderFailureError(err: RenderFailure): Error {
  switch (err.kind) {
    case "invalid":
      return validationError(err.issues);
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

/** The render each admitted request holds (see the route's onRequest hook). */
const tickets = new WeakMap<FastifyRequest, RenderTicket>();

const CONTENT_TYPES = { html: "text/html; charset=utf-8", "react-email": "text/plain; charset=utf-8", mjml: "text/plain; charset=utf-8" } as const;

/** POST /v1/sdk/render (deprecated): renders on the server with the same engine the clients embed. */
export const sdkRenderRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  // In this route's scope the body stays bytes: a render thread reads and validates it (render/request.ts);
  // the query is validated here, as everywhere.
  app.removeAllContentTypeParsers();
  for (const type of JSON_MEDIA_TYPES) app.addContentTypeParser(type, { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.setValidatorCompiler((route) =>
    route.httpPart === "body" ? (data) => ({ value: data }) : zodValidatorCompiler(route as Parameters<FastifySchemaCompiler<z.ZodType>>[0]),
  );

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
          "`render_timeout`. Renders are admitted before their body is read, up to nine per render thread (one running, eight " +
          "waiting); beyond that the answer is 503 `UNAVAILABLE` with `Retry-After` (seconds, from the recent render time), so " +
          "that a storm of renders never holds up the other endpoints. " +
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
      // After authentication (the global hook), before the body is read: admit the render or refuse it.
      onRequest: async (request, reply) => {
        const ticket = ctx.renderPool.admit();
        if (ticket === undefined) {
          const retryAfter = String(ctx.renderPool.retryAfterSeconds());
          await drainRequest(request.raw, ctx.config.bodyLimitBytes);
          throw new ApiError(503, "UNAVAILABLE", "Too many renders in progress; retry after the time in Retry-After", undefined, { "retry-after": retryAfter });
        }
        tickets.set(request, ticket);
        // Whatever ends the request (an answer without a render, a client gone) gives the ticket back.
        reply.raw.once("close", ticket.release);
      },
      // The announcement goes on every answer of this route, errors included.
      onSend: async (_request, reply, payload) => {
        reply.headers(DEPRECATION_HEADERS);
        return payload;
      },
    },
    async (request, reply) => {
      const key = currentKey(request);
      const ticket = tickets.get(request);
      if (ticket === undefined) throw new Error("render route reached without an admission ticket");
      const body = Buffer.isBuffer(request.body) ? request.body : undefined;
      const plainText = request.query.format === "text";
      try {
        const output = await ticket.render(body, plainText, async ({ templateId, target }) => {
          requireTarget(key, target);
          const template = await ctx.lookups.template(templateId);
          if (template === null) throw templateNotFound(templateId);
          reply.type(plainText ? "text/plain; charset=utf-8" : CONTENT_TYPES[target]);
          return template.body;
        });
        return reply.send(output as unknown as string);
      } catch (err) {
        throw err instanceof RenderFailure ? renderFailureError(err) : err;
      }
    },
  );
};
