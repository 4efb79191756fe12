/**
 * The deprecated render endpoint's request: its schemas (which the OpenAPI document shows too), and
 * reading one from the body's bytes. The render threads do the reading (see pool.ts), so the event
 * loop never decodes, parses or validates a body of up to the body limit.
 */
import type { DynamicData } from "@mailrender/engine";
import * as z from "zod";
import type { Issue } from "../errors.js";
import { parseJsonText } from "../http/json-body.js";
import { zodIssuesToIssues } from "../http/validation.js";
import { RenderTargetSchema } from "../schemas.js";

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

export type RenderRequest = z.output<typeof RenderRequestSchema>;

/** zod's optional fields may hold `undefined`; the engine's types (exact optional properties) may not. */
export function toDynamicData(input: z.output<typeof DynamicDataSchema> | undefined): DynamicData | undefined {
  if (input === undefined) return undefined;
  const tags = input.merge_tags;
  const mergeTags =
    tags === undefined ? undefined : { ...(tags.text && { text: tags.text }), ...(tags.url && { url: tags.url }), ...(tags.attr && { attr: tags.attr }) };
  return { ...(mergeTags && { merge_tags: mergeTags }), ...(input.context && { context: input.context }) };
}

const decoder = new TextDecoder();

/** A render request from the body's bytes (none: `undefined`), or the 422 issues a JSON body would get from the other routes. */
export function readRenderRequest(body: Uint8Array | undefined): { request: RenderRequest } | { issues: Issue[] } {
  const parsed = body === undefined ? { value: undefined } : parseJsonText(decoder.decode(body));
  if ("issues" in parsed) return parsed;
  const result = RenderRequestSchema.safeParse(parsed.value);
  return result.success ? { request: result.data } : { issues: zodIssuesToIssues(result.error.issues, "body", parsed.value) };
}
