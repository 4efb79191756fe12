import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { ApiError, keyNotFound } from "../errors.js";
import { CreatedKeySchema, KeyIdParams, KeySchema, KeyTargetSchema, PageQuery } from "../schemas.js";
import { type IssuedKey, issueKey, keyStatus, rotateKey } from "../services/keys.js";
import type { ApiKeyRecord } from "../store/types.js";
import type { RouteContext } from "./context.js";
import { errors, HEADERS, SECURED } from "./responses.js";

const CreateKeyBody = z
  .strictObject({
    name: z.string().min(1).max(100).describe("Human label; convention `{environment}-{service}-{target}`"),
    targets: z.array(KeyTargetSchema).min(1).describe("Required and non-empty: there is no implicit `all`"),
    expires_at: z.iso
      .datetime({ offset: true, abort: true })
      .refine((v) => Date.parse(v) > Date.now(), { message: "Input should be in the future", params: { type: "datetime_future" } })
      .optional()
      .describe(
        "Optional expiry: an ISO 8601 date-time with offset, in the future. After it the key gives 401. A time that is not in the future is " +
          "refused (422, issue type `datetime_future`): a key expired at birth is always a mistake, and JSON Schema has no keyword for " +
          '"later than now", so this description carries the rule.',
      ),
  })
  .meta({ id: "CreateApiKey" });

const RotateKeyBody = z
  .strictObject({
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .default(0)
      .describe("How long the old secret keeps working; 0 (default) ends it at once"),
  })
  .optional()
  .meta({ id: "RotateApiKey" });

function publicKey(key: ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    targets: key.targets,
    created_at: key.createdAt,
    prefix: key.prefix,
    role: key.role,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
    status: keyStatus(key),
  };
}

function createdKey({ record, secret }: IssuedKey) {
  return {
    id: record.id,
    name: record.name,
    key: secret,
    targets: record.targets,
    created_at: record.createdAt,
    prefix: record.prefix,
    expires_at: record.expiresAt,
  };
}

/** Key management (admin keys only). Secrets appear only in the create and rotate answers. */
export const keyRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const admin = { auth: "admin" } as const;

  app.post(
    "/api/v1/keys",
    {
      config: admin,
      schema: {
        tags: ["keys"],
        operationId: "createKey",
        summary: "Create an API key (the secret is shown once)",
        security: SECURED,
        body: CreateKeyBody,
        response: { 201: CreatedKeySchema, ...errors(401, 403, 413, 415, 422, 429) },
        "x-response-headers": { 201: { Location: HEADERS.location } },
      },
    },
    async (request, reply) => {
      const { name, targets, expires_at } = request.body;
      const issued = await issueKey(ctx.store, { name, targets, expiresAt: expires_at === undefined ? null : new Date(expires_at).toISOString() });
      reply.header("location", `/api/v1/keys/${issued.record.id}`);
      return reply.code(201).send(createdKey(issued));
    },
  );

  app.get(
    "/api/v1/keys",
    {
      config: admin,
      schema: {
        tags: ["keys"],
        operationId: "listKeys",
        summary: "List API keys (never the secrets)",
        security: SECURED,
        querystring: PageQuery,
        response: { 200: z.object({ keys: z.array(KeySchema) }), ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => ({ keys: (await ctx.store.listKeys(request.query)).map(publicKey) }),
  );

  app.get(
    "/api/v1/keys/:id",
    {
      config: admin,
      schema: {
        tags: ["keys"],
        operationId: "getKey",
        summary: "Read one API key",
        security: SECURED,
        params: KeyIdParams,
        response: { 200: KeySchema, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const key = await ctx.store.getKey(request.params.id);
      if (key === undefined) throw keyNotFound(request.params.id);
      return publicKey(key);
    },
  );

  app.delete(
    "/api/v1/keys/:id",
    {
      config: admin,
      schema: {
        tags: ["keys"],
        operationId: "revokeKey",
        summary: "Revoke an API key (401 from that moment; other servers within the cache bound)",
        security: SECURED,
        params: KeyIdParams,
        // A body is not needed, but one that is sent is read: too large 413, not JSON 415.
        response: { 200: KeySchema, ...errors(401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const key = await ctx.store.revokeKey(request.params.id, new Date().toISOString());
      if (key === undefined) throw keyNotFound(request.params.id);
      ctx.lookups.keysChanged();
      return publicKey(key);
    },
  );

  app.post(
    "/api/v1/keys/:id/rotate",
    {
      config: admin,
      schema: {
        tags: ["keys"],
        operationId: "rotateKey",
        summary: "Give a key a new secret (same id, name and targets)",
        description: "The old secret stops working at once, or after `grace_period_seconds`. The body is optional.",
        security: SECURED,
        params: KeyIdParams,
        body: RotateKeyBody,
        response: { 200: CreatedKeySchema, ...errors(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const existing = await ctx.store.getKey(id);
      if (existing === undefined) throw keyNotFound(id);
      if (existing.revokedAt !== null) throw new ApiError(409, "KEY_REVOKED", `API key '${id}' is revoked and cannot be rotated`);
      const issued = await rotateKey(ctx.store, id, request.body?.grace_period_seconds ?? 0);
      if (issued === undefined) throw keyNotFound(id);
      ctx.lookups.keysChanged();
      return createdKey(issued);
    },
  );
};
