import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { requireTarget } from "../auth/authenticate.js";
import { templateNotFound } from "../errors.js";
import { RenderTargetSchema, TemplateIdParams, TemplateJsonSchema } from "../schemas.js";
import type { ApiKeyRecord, TemplateRecord } from "../store/types.js";
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
        const { status, headers, body } = templateAnswer(key, template, request.headers["if-none-match"]);
        // No payload at all on a 304: a serialised `null` would announce `content-length: 4` with no
        // body, and keep-alive peers would wait for those bytes. The stored text is already JSON:
        // sent as-is (Fastify skips serialisation for JSON strings).
        reply
          .code(status)
          .headers(headers)
          .send(body as never);
      };
      // A cached template is answered in the same turn; only a miss waits for the store.
      const template = ctx.lookups.template(id);
      return template instanceof Promise ? template.then(answer) : answer(template);
    },
  );
};

/** A template fetch's answer once the key and the template are known: this route's and its hot path's (sdk-template-hot-path.ts). */
export interface TemplateAnswer {
  readonly status: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  /** The stored JSON text's bytes, its ETag computed when it was stored; none with a 304. */
  readonly body: Buffer | undefined;
}

export function templateAnswer(key: ApiKeyRecord, template: TemplateRecord, ifNoneMatch: string | undefined): TemplateAnswer {
  const { etag } = template;
  const targets = keyTargets(key);
  if (ifNoneMatchMatches(ifNoneMatch, etag))
    return { status: 304, headers: { etag, "x-key-targets": targets, "cache-control": CACHE_CONTROL }, body: undefined };
  const body = bodyBytes(template);
  const headers = {
    etag,
    "x-key-targets": targets,
    "cache-control": CACHE_CONTROL,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(body.length),
  };
  return { status: 200, headers, body };
}

/** Clients revalidate their copy (If-None-Match) before each use; no shared cache keeps it. */
const CACHE_CONTROL = "private, no-cache";

/**
 * Made once per record: the lookup cache hands out the same key and template objects while they are
 * fresh, and the newsletter's body (12 KB) would otherwise be encoded and measured on every answer.
 */
function perRecord<R extends object, V>(make: (record: R) => V): (record: R) => V {
  const made = new WeakMap<R, V>();
  return (record) => {
    let value = made.get(record);
    if (value === undefined) {
      value = make(record);
      made.set(record, value);
    }
    return value;
  };
}

const bodyBytes = perRecord((template: TemplateRecord) => Buffer.from(template.body, "utf8"));
/** X-Key-Targets: the targets the key may render. */
const keyTargets = perRecord((key: ApiKeyRecord) => effectiveTargets(key.targets).join(","));
