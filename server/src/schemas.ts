import * as z from "zod";
import { KEY_ID_PATTERN } from "./auth/keys.js";
import { ERROR_CODES } from "./errors.js";
import { KEY_ROLES } from "./roles.js";
import { KEY_TARGETS, RENDER_TARGETS } from "./targets.js";

/** Shared request/response shapes; each also becomes a named schema in the OpenAPI document. */

export const IssueSchema = z
  .object({
    loc: z.array(z.string()).describe("Where the problem is: `body`, `path`, `query` or `header`, then the field path"),
    msg: z.string(),
    type: z.string().describe("Machine-readable kind, e.g. `missing`, `uuid_parsing`, `literal_error`"),
    input: z.unknown().optional().describe("The offending value, when there is one (text cut to 200 characters; a large object left out)"),
    hint: z.string().optional().describe("How to fix a common mistake (a value outside its group, a unit in a number, a template id that is not a UUID, …)"),
  })
  .meta({ id: "ValidationIssue" });

export const ErrorSchema = z
  .object({
    code: z.enum(ERROR_CODES).describe("Stable error code, see spec/errors.md"),
    message: z.string().describe("For humans; never carries internals"),
    detail: z.string().describe("The same text as `message`"),
    issues: z.array(IssueSchema).optional().describe("Present on 422 only"),
  })
  .meta({ id: "Error" });

export const RenderTargetSchema = z.enum(RENDER_TARGETS).meta({ id: "RenderTarget" });

export const FindingSchema = z
  .object({
    severity: z.enum(["error", "warning", "info"]),
    code: z.string().describe("Stable; spec/checks.md lists every code with an example"),
    path: z.array(z.string()).describe("Path into the template: the prop or node at fault; [] for the whole email"),
    value: z.string().describe("The offending value as written, cut to 80 characters"),
    message: z.string(),
    hint: z.string().describe("How to fix it"),
    target: RenderTargetSchema.optional().describe("For a finding about one target's output (its size)"),
  })
  .meta({ id: "Finding" });
export const KeyTargetSchema = z.enum(KEY_TARGETS).describe("A render target, or `all` for every target").meta({ id: "KeyTarget" });

export const KeyRoleSchema = z
  .enum(KEY_ROLES)
  .describe("`render`: SDK endpoints only. `viewer`: also reads and previews templates. `editor`: also writes templates. `admin`: also manages keys")
  .meta({ id: "KeyRole" });

export const TemplateIdParams = z.strictObject({ id: z.uuid({ version: "v4" }).describe("Template id (UUID v4)") });
export const KeyIdParams = z.strictObject({
  id: z.string().regex(KEY_ID_PATTERN).describe("Key id, `key_` followed by a ULID"),
});

/**
 * Query values arrive as text. Only decimal digits (optionally signed) are read as a number: an empty
 * value (`?offset=`), `1e3`, `0x10` or ` 5` stay text and are refused with `int_parsing`, where
 * `Number()` (zod's coercion) would read 0, 1000, 16 and 5.
 */
function queryInteger(schema: z.ZodNumber, fallback: number, description: string) {
  return z.preprocess((value) => (typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value), schema.default(fallback)).describe(description);
}

export const PageQuery = z.strictObject({
  limit: queryInteger(z.number().int().min(1).max(500), 100, "Page size; decimal digits (an empty value is refused, 422 `int_parsing`)"),
  offset: queryInteger(z.number().int().min(0), 0, "How many to skip; decimal digits (an empty value is refused, 422 `int_parsing`)"),
});

export const TemplateJsonSchema = z
  .record(z.string(), z.unknown())
  .describe("Template JSON, version 1 (spec/template/v1/template.schema.json); opaque to SDK callers")
  .meta({ id: "TemplateJson" });

const iso = z.string().describe("ISO 8601 UTC timestamp");

export const KeySchema = z
  .object({
    id: z.string().describe("`key_` + ULID"),
    name: z.string(),
    targets: z.array(KeyTargetSchema),
    created_at: iso,
    prefix: z.string().describe("First 12 characters of the secret, for recognising it"),
    role: KeyRoleSchema,
    expires_at: iso.nullable(),
    revoked_at: iso.nullable(),
    status: z.enum(["active", "revoked", "expired"]),
  })
  .meta({ id: "ApiKey" });

export const CreatedKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().describe("The secret; shown only in this response"),
    role: KeyRoleSchema,
    targets: z.array(KeyTargetSchema),
    created_at: iso,
    prefix: z.string(),
    expires_at: iso.nullable(),
  })
  .meta({ id: "CreatedApiKey" });

export const TemplateMetaSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    version: z.number().int(),
    etag: z.string(),
    created_at: iso,
    updated_at: iso,
  })
  .meta({ id: "TemplateMeta" });

export const WarningSchema = z.object({ code: z.string(), message: z.string(), path: z.array(z.string()) }).meta({ id: "RenderWarning" });
