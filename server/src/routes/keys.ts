import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as z from "zod";
import { ApiError, keyNotFound } from "../errors.js";
import { PERMISSIONS, permissionsOf } from "../roles.js";
import { CreatedKeySchema, KeyIdParams, KeyRoleSchema, KeySchema, KeyTargetSchema, PageQuery } from "../schemas.js";
import { type IssuedKey, issueKey, keyStatus, rotateKey } from "../services/keys.js";
import type { ApiKeyRecord } from "../store/types.js";
import { currentKey, type RouteContext } from "./context.js";
import { errors, HEADERS, SECURED } from "./responses.js";

const KeyName = z.string().min(1).max(100).describe("Human label; convention `{environment}-{service}-{target}`");

/**
 * A render key without targets could fetch templates and render nothing: refused, with the issue a
 * missing or empty list gets, next to the body's other issues (`when`: checked even if others failed).
 */
const TARGETS_NEEDED = {
  path: ["targets"],
  when: ({ value }: { value: unknown }) => typeof value === "object" && value !== null && !Array.isArray(value),
};

const CreateKeyBody = z
  .strictObject({
    name: KeyName,
    role: KeyRoleSchema.default("render").describe(
      "`render` (default): an SDK key, scoped by `targets`. `viewer`, `editor`, `admin`: keys for the studio and the management API",
    ),
    targets: z
      .array(KeyTargetSchema)
      .optional()
      .describe(
        "The render targets the key may render. Required and non-empty for a `render` key: there is no implicit `all`. Optional for the other roles " +
          "(default none: they fetch templates, and render only what is listed here)",
      ),
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
  .refine((body) => body.role !== "render" || body.targets !== undefined, { ...TARGETS_NEEDED, message: "Field required", params: { type: "missing" } })
  .refine((body) => body.role !== "render" || !Array.isArray(body.targets) || body.targets.length > 0, {
    ...TARGETS_NEEDED,
    message: "List should have at least 1 item after validation",
    params: { type: "too_short" },
  })
  // The same rule for the OpenAPI document: a render key (the default role) lists its targets.
  .meta({
    id: "CreateApiKey",
    if: { properties: { role: { const: "render" } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: { required: ["targets"], properties: { targets: { minItems: 1 } } },
  });

const UpdateKeyBody = z
  .strictObject({
    name: KeyName.optional(),
    role: KeyRoleSchema.optional().describe("The key's new role; its targets stay as they are"),
  })
  .refine((body) => body.name !== undefined || body.role !== undefined, { message: "Send `name`, `role` or both", params: { type: "missing" } })
  .meta({ id: "UpdateApiKey", minProperties: 1 });

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

const MeSchema = KeySchema.extend({
  permissions: z.array(z.enum(PERMISSIONS)).describe("What the key's role allows: `templates:read`, `templates:write`, `keys:manage`; none for a render key"),
}).meta({ id: "CallingKey" });

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
    role: record.role,
    targets: record.targets,
    created_at: record.createdAt,
    prefix: record.prefix,
    expires_at: record.expiresAt,
  };
}

/** The answer to a revoke or an update: 404, 409 for the last admin key, or the key as it is now (this server's cached lookups dropped). */
function changed(ctx: RouteContext, id: string, outcome: ApiKeyRecord | "last-admin" | undefined) {
  if (outcome === undefined) throw keyNotFound(id);
  if (outcome === "last-admin") {
    throw new ApiError(409, "LAST_ADMIN_KEY", `API key '${id}' is the last active admin key: create another admin key first, or no key could manage keys`);
  }
  ctx.lookups.keysChanged();
  return publicKey(outcome);
}

/** The calling key (any key), and key management (admin keys only). Secrets appear only in the create and rotate answers. */
export const keyRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, ctx) => {
  const admin = { auth: "keys:manage" } as const;

  app.get(
    "/api/v1/me",
    {
      config: { auth: "key" },
      schema: {
        tags: ["keys"],
        operationId: "getCallingKey",
        summary: "The calling key: its role and what it may do (any key)",
        description: "The studio signs in with this: it shows only what `permissions` allow. Never the secret.",
        security: SECURED,
        response: { 200: MeSchema, ...errors(401, 429) },
      },
    },
    async (request) => {
      const key = currentKey(request);
      return { ...publicKey(key), permissions: [...permissionsOf(key.role)] };
    },
  );

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
      const { name, role, targets = [], expires_at } = request.body;
      const issued = await issueKey(ctx.store, { name, role, targets, expiresAt: expires_at === undefined ? null : new Date(expires_at).toISOString() });
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
        description: "Refused for the last active admin key (409 `LAST_ADMIN_KEY`): create another admin key first.",
        security: SECURED,
        params: KeyIdParams,
        // A body is not needed, but one that is sent is read: too large 413, not JSON 415.
        response: { 200: KeySchema, ...errors(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request) => changed(ctx, request.params.id, await ctx.store.revokeKey(request.params.id, new Date().toISOString())),
  );

  app.patch(
    "/api/v1/keys/:id",
    {
      config: admin,
      schema: {
        tags: ["keys"],
        operationId: "updateKey",
        summary: "Rename a key or change its role",
        description:
          "The change applies at once on this server and within the cache bound (`MAILRENDER_CACHE_TTL_MS`) on the others. A key's targets and " +
          "secret do not change here (rotate gives a new secret). Refused: a `render` role for a key without targets (409 " +
          "`KEY_HAS_NO_TARGETS`), and taking the admin role from the last active admin key (409 `LAST_ADMIN_KEY`).",
        security: SECURED,
        params: KeyIdParams,
        body: UpdateKeyBody,
        response: { 200: KeySchema, ...errors(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { name, role } = request.body;
      if (role === "render") {
        const existing = await ctx.store.getKey(id);
        if (existing === undefined) throw keyNotFound(id);
        // Valid input, but not for this key: its state (no targets) conflicts with the role.
        if (existing.targets.length === 0) {
          throw new ApiError(409, "KEY_HAS_NO_TARGETS", `API key '${id}' has no targets, so it cannot be a render key: create a render key with its targets`);
        }
      }
      return changed(ctx, id, await ctx.store.updateKey(id, { name, role }, new Date().toISOString()));
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
