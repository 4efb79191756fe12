import * as z from "zod";
import { KEY_ID_PATTERN } from "./auth/keys.js";
import { ERROR_CODES } from "./errors.js";
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

export const TemplateIdParams = z.strictObject({ id: z.uuid({ version: "v4" }).describe("Template id (UUID v4)") });
export const KeyIdParams = z.strictObject({
  id: z.string().regex(KEY_ID_PATTERN).describe("Key id, `key_` followed by a ULID"),
});

export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
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
    role: z.enum(["render", "admin"]),
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
