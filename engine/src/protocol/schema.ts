/**
 * The request's wire format, as zod schemas: the request is parsed with them, and
 * spec/protocol/v1/request.schema.json is generated from them
 * (engine/scripts/generate-protocol-schema.ts), so code and contract cannot drift.
 * The response's are in response-schema.ts.
 */
import * as z from "zod";
import { type DynamicData, RENDER_TARGETS } from "../types.js";
import { OUTPUT_FORMATS, TEMPLATE_REF_MAX_LENGTH } from "./constants.js";

export const requestId = z
  .union([z.string().max(256), z.number().int()])
  .meta({ description: "Chosen by the client; echoed in the response so requests can be pipelined." });

const mergeTagGroup = z.record(z.string(), z.string());

export const dynamicDataSchema = z
  .strictObject({
    merge_tags: z
      .strictObject({ text: mergeTagGroup.optional(), url: mergeTagGroup.optional(), attr: mergeTagGroup.optional() })
      .optional()
      .meta({ description: "Per-recipient merge-tag values by group; escaped by the engine for where they land." }),
    context: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .meta({ description: "Flat map read by visibility rules." }),
  })
  .meta({ description: "Per-recipient data." });
export type DynamicDataWire = z.infer<typeof dynamicDataSchema>;

export const renderRequestSchema = z
  .strictObject({
    id: requestId.optional(),
    // Any JSON value: whether it is a valid template is the engine's call (a RENDER_ERROR with issues),
    // so the executable fails exactly as the library and the golden fixtures do.
    template: z
      .unknown()
      .optional()
      .meta({ description: "The template JSON (spec/template/v1). Required unless template_ref names a template this process holds." }),
    template_ref: z.string().min(1).max(TEMPLATE_REF_MAX_LENGTH).optional().meta({
      description:
        '--serve only: an opaque key for the template, e.g. "<template_id>@<etag>". With `template`, the process keeps the template under this key; without it, the kept template is used, or the request fails with TEMPLATE_REF_UNKNOWN.',
    }),
    target: z.enum(RENDER_TARGETS),
    dynamic_data: dynamicDataSchema.optional(),
    options: z
      .strictObject({
        minify: z.boolean().optional().meta({ description: "Minify the output (default true)." }),
        strict: z.boolean().optional().meta({ description: "Missing merge tags fail the render (default false)." }),
        max_nodes: z.number().int().min(1).optional().meta({
          description:
            "Limit on rows, row spacers, columns, blocks and block list entries (default 2000); over it, RENDER_ERROR with issue type too_many_nodes.",
        }),
        max_output_bytes: z
          .number()
          .int()
          .min(1)
          .optional()
          .meta({ description: "Limit on the output's UTF-8 size (default 16777216); over it, RENDER_ERROR with issue type output_too_large." }),
        plain_text: z.boolean().optional().meta({ description: "Also return `text`, the plain-text version of the email (default false)." }),
      })
      .optional(),
    output_format: z.enum(OUTPUT_FORMATS).optional().meta({
      description:
        '"string" (default): the response carries `output`. "layout": it carries `layout` and `values` instead, and the output is layout.parts[0] + values[0] + layout.parts[1] + … ; a process sends a layout\'s parts once, later responses name it by id (see spec/README.md).',
    }),
    layout_parts: z
      .boolean()
      .optional()
      .meta({ description: 'With output_format "layout": include the layout\'s parts even if this process sent them before (a client that dropped them).' }),
  })
  .refine((r) => r.template !== undefined || r.template_ref !== undefined, {
    message: "Either template or template_ref is required",
    path: ["template"],
  })
  .meta({
    title: "mailrender engine request, protocol v1",
    description: "One render request: all of stdin in one-shot mode, one line in --serve mode. Either `template` or `template_ref` is required.",
  });
export type RenderRequest = z.infer<typeof renderRequestSchema>;

/** zod's optional keys are `T | undefined`; the engine's types (exactOptionalPropertyTypes) want them absent. */
export function toDynamicData(wire: DynamicDataWire): DynamicData {
  const tags = wire.merge_tags;
  return {
    ...(tags === undefined
      ? {}
      : {
          merge_tags: {
            ...(tags.text === undefined ? {} : { text: tags.text }),
            ...(tags.url === undefined ? {} : { url: tags.url }),
            ...(tags.attr === undefined ? {} : { attr: tags.attr }),
          },
        }),
    ...(wire.context === undefined ? {} : { context: wire.context }),
  };
}
