/**
 * The response's wire format, as zod schemas: spec/protocol/v1/response.schema.json is generated
 * from them and the tests check every envelope against them; `envelope.ts` writes the envelopes.
 * Apart from the request's (schema.ts): the executable never builds these, as it never parses a
 * response, and building zod schemas is a large part of its cold start.
 */
import * as z from "zod/mini";
import { RENDER_TARGETS } from "../base/types.js";
import { PROTOCOL_VERSION, SAVED_LAYOUT_STATUSES } from "./constants.js";
import { ERROR_CODE_LIST, type ErrorCode } from "./errors.js";
import { described, requestId } from "./schema.js";

const versions = {
  engine_version: z.string(),
  protocol_version: z.literal(PROTOCOL_VERSION),
};

const issueSchema = z.strictObject({
  loc: described(z.array(z.string()), { description: "Path into the request or the template." }),
  msg: z.string(),
  type: described(z.string(), { description: "Machine-readable kind, e.g. missing, invalid_type, too_deep." }),
});

const warningSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  path: z.array(z.string()),
});

const findingSchema = z.strictObject({
  severity: z.enum(["error", "warning", "info"]),
  code: described(z.string(), { description: "Stable; spec/checks.md lists every code with an example." }),
  path: described(z.array(z.string()), { description: "Path into the template: the prop or node at fault ([] for the whole email)." }),
  value: described(z.string(), { description: "The offending value as written, shortened to 80 characters." }),
  message: z.string(),
  hint: described(z.string(), { description: "How to fix it." }),
  target: described(z.optional(z.enum(RENDER_TARGETS)), { description: "For a finding about this target's output (its size)." }),
});

// In wire order: id, ok, the output (whole or as layout + values), then the rest.
const okHead = {
  id: described(z.optional(requestId()), { description: "Present when the request carried one." }),
  ok: z.literal(true),
};
const okTail = {
  text: described(z.optional(z.string()), {
    description: "With options.plain_text: the plain-text version (visible content in reading order, merge values unescaped, wrapped at 78 columns).",
  }),
  target: z.enum(RENDER_TARGETS),
  template_id: z.string(),
  warnings: z.array(warningSchema),
  findings: described(z.optional(z.array(findingSchema)), {
    description: "With options.checks: what the template checks find in the template and in this target's output (spec/checks.md).",
  }),
  saved_layout_status: described(z.optional(z.enum(SAVED_LAYOUT_STATUSES)), {
    description:
      'With saved_layout or save_layout: "used" (rendered from the saved layout), "extended" (the layout was intact but lacked this render: compiled from the template), "ignored" (no layout, or one that was garbled or made by another engine, protocol or template: compiled from the template).',
  }),
  saved_layout: described(z.optional(z.string()), {
    description:
      "With save_layout, unless the request's saved_layout was used as it is: the layout to keep and send with later requests for this template (opaque text).",
  }),
  ...versions,
};

export const okResponseSchema = z.strictObject({
  ...okHead,
  output: described(z.string(), { description: 'The rendered document (output_format "string", the default).' }),
  ...okTail,
});
export type OkResponse = z.infer<typeof okResponseSchema>;
export type SavedLayoutStatus = (typeof SAVED_LAYOUT_STATUSES)[number];

export const okLayoutResponseSchema = described(
  z.strictObject({
    ...okHead,
    layout: z.strictObject({
      id: described(z.number().check(z.int(), z.nonnegative()), { description: "Names this layout within this process." }),
      parts: described(z.optional(z.array(z.string())), {
        description: "The text around the values; present the first time this process sends the layout, or when the request asked for layout_parts.",
      }),
    }),
    values: described(z.array(z.string()), { description: "The recipient's values, escaped for where they land: one fewer than the layout's parts." }),
    ...okTail,
  }),
  { description: 'output_format "layout": the output is layout.parts[0] + values[0] + layout.parts[1] + … + layout.parts[n].' },
);
export type OkLayoutResponse = z.infer<typeof okLayoutResponseSchema>;

export const errorResponseSchema = z.strictObject({
  id: described(z.optional(requestId()), { description: "Present when the request carried a readable one." }),
  ok: z.literal(false),
  error: z.strictObject({
    code: z.enum(ERROR_CODE_LIST),
    message: z.string(),
    issues: z.array(issueSchema),
  }),
  ...versions,
});
export type ErrorResponse = z.infer<typeof errorResponseSchema> & { error: { code: ErrorCode } };

export const responseSchema = described(z.union([okResponseSchema, okLayoutResponseSchema, errorResponseSchema]), {
  title: "mailrender engine response, protocol v1",
  description: "The envelope written for every request, on success and on failure: one JSON document (one line in --serve mode).",
});
export type Response = OkResponse | OkLayoutResponse | ErrorResponse;
