import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { requireTarget } from "../auth/authenticate.js";
import { templateNotFound } from "../errors.js";
import { RenderTargetSchema, TemplateIdParams, TemplateJsonSchema } from "../schemas.js";
import type { TemplateRecord } from "../store/types.js";
import { effectiveTargets } from "../targets.js";
import { ifNoneMatchMatches } from "./conditional.js";
import { currentKey, type RouteContext } from "./context.js";
import { errors, HEADERS, SECURED } from "./responses.js";

/** GET /v1/sdk/template/{id}: the hot path of every client; served from the lookup cache. */
export const sdkTemplateRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  app.get(
    "/v1/sdk/template/:id",
    {
      config: { auth: "key" },
      schema: {
        tags: ["sdk"],
        operationId: "getSdkTemplate",
        summary: "Fetch a template's JSON for client-side rendering",
        description:
          "Any valid key may fetch. With `?target=` the key's scope is checked (403 when excluded). The response carries " +
          "`ETag` (answer `If-None-Match` with 304) and `X-Key-Targets`, the key's allowed targets, so a client can enforce " +
          "the scope on renders from its cache.",
        security: SECURED,
        params: TemplateIdParams,
        querystring: z.strictObject({ target: RenderTargetSchema.optional().describe("The target the caller is about to render") }),
        headers: z.object({ "if-none-match": z.string().optional().describe("The ETag of the caller's cached copy: 304 while it is current") }),
        response: {
          200: TemplateJsonSchema,
          304: z.null().describe("Not Modified: the cached copy is current"),
          ...errors(401, 403, 404, 422, 429),
        },
        "x-response-headers": {
          200: { ETag: HEADERS.etag, "Cache-Control": HEADERS.cacheControl, "X-Key-Targets": HEADERS.keyTargets },
          304: { ETag: HEADERS.etag, "Cache-Control": HEADERS.cacheControl, "X-Key-Targets": HEADERS.keyTargets },
        },
      },
    },
    (request, reply) => {
      const key = currentKey(request);
      const { id } = request.params;
      const { target } = request.query;
      if (target !== undefined) requireTarget(key, target);
      const answer = (template: TemplateRecord | null): void => {
        if (template === null) throw templateNotFound(id);
        reply.header("etag", template.etag);
        reply.header("x-key-targets", effectiveTargets(key.targets).join(","));
        reply.header("cache-control", "private, no-cache");
        if (ifNoneMatchMatches(request.headers["if-none-match"], template.etag)) {
          // No payload at all: a serialised `null` would announce `content-length: 4` with no body, and
          // keep-alive peers would wait for those bytes.
          reply.code(304).send(undefined as never);
          return;
        }
        // The stored text is already JSON, its ETag computed when it was stored: sent as-is (Fastify
        // skips serialisation for JSON strings).
        reply.type("application/json; charset=utf-8");
        reply.send(template.body as unknown as Record<string, unknown>);
      };
      // A cached template is answered in the same turn; only a miss waits for the store.
      const template = ctx.lookups.template(id);
      return template instanceof Promise ? template.then(answer) : answer(template);
    },
  );
};
