/**
 * The request's wire format, as zod schemas: the one definition of a valid request and of every
 * error in one, and spec/protocol/v1/request.schema.json is generated from them
 * (engine/scripts/generate-protocol-schema.ts), so code and contract cannot drift. The executable
 * reads a well-formed request without building them (read-request.ts, held to them by a test) and
 * asks them about any other. The response's are in response-schema.ts.
 */
import * as z from "zod/mini";
import { type DynamicData, RENDER_TARGETS } from "../base/types.js";
import { lazy } from "../schema/once.js";
import { OUTPUT_FORMATS, REQUEST_ID_MAX_LENGTH, TEMPLATE_REF_MAX_LENGTH } from "./constants.js";

/**
 * `schema`, given a description (and other JSON Schema keywords) for the generated contract. It
 * registers the instance itself, where classic zod's `.meta()` made a copy: an instance costs the
 * executable at every start.
 */
export function described<S extends z.ZodMiniType>(schema: S, meta: z.core.GlobalMeta): S {
  z.globalRegistry.add(schema, meta);
  return schema;
}

/**
 * Built on first use, as are the request's and the data's schemas: the executable reads a well-formed
 * request without them (read-request.ts) and builds them only to report what is wrong with one.
 */
export const requestId = lazy(() =>
  described(z.union([z.string().check(z.maxLength(REQUEST_ID_MAX_LENGTH)), z.number().check(z.int())]), {
    description: "Chosen by the client; echoed in the response so requests can be pipelined.",
  }),
);

export const dynamicDataSchema = lazy(() => {
  const mergeTagGroup = z.record(z.string(), z.string());
  return described(
    z.strictObject({
      merge_tags: described(
        z.optional(
          z.strictObject({
            text: z.optional(mergeTagGroup),
            url: z.optional(mergeTagGroup),
            attr: z.optional(mergeTagGroup),
          }),
        ),
        {
          description: "Per-recipient merge-tag values by group; escaped by the engine for where they land.",
        },
      ),
      context: described(z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))), {
        description: "Flat map read by visibility rules.",
      }),
    }),
    { description: "Per-recipient data." },
  );
});
export type DynamicDataWire = z.infer<ReturnType<typeof dynamicDataSchema>>;

const positiveInteger = () => z.number().check(z.int(), z.minimum(1));

export const renderRequestSchema = lazy(() =>
  described(
    z
      .strictObject({
        id: z.optional(requestId()),
        // Any JSON value: whether it is a valid template is the engine's call (a RENDER_ERROR with issues),
        // so the executable fails exactly as the library and the golden fixtures do.
        template: described(z.optional(z.unknown()), {
          description: "The template JSON (spec/template/v1). Required unless template_ref names a template this process holds.",
        }),
        template_ref: described(z.optional(z.string().check(z.minLength(1), z.maxLength(TEMPLATE_REF_MAX_LENGTH))), {
          description:
            '--serve only: an opaque key for the template, e.g. "<template_id>@<etag>". With `template`, the process keeps the template under this key; without it, the kept template is used, or the request fails with TEMPLATE_REF_UNKNOWN.',
        }),
        target: z.enum(RENDER_TARGETS),
        dynamic_data: z.optional(dynamicDataSchema()),
        options: z.optional(
          z.strictObject({
            minify: described(z.optional(z.boolean()), {
              description: "Minify the output (default true).",
            }),
            strict: described(z.optional(z.boolean()), {
              description: "Missing merge tags fail the render (default false).",
            }),
            max_nodes: described(z.optional(positiveInteger()), {
              description:
                "Limit on rows, row spacers, columns, blocks and block list entries (default 2000); over it, RENDER_ERROR with issue type too_many_nodes.",
            }),
            max_output_bytes: described(z.optional(positiveInteger()), {
              description: "Limit on the output's UTF-8 size (default 16777216); over it, RENDER_ERROR with issue type output_too_large.",
            }),
            plain_text: described(z.optional(z.boolean()), {
              description: "Also return `text`, the plain-text version of the email (default false).",
            }),
            component_props: described(z.optional(z.boolean()), {
              description:
                "With target react-email: a component whose props are a recipient's merge_tags and context, instead of one recipient's email (default false). Refused (BAD_REQUEST, issue type component_props_conflict) with another target, with dynamic_data holding values, or with strict or plain_text.",
            }),
            checks: described(z.optional(z.boolean()), {
              description:
                "Also return `findings`: the template checks (spec/checks.md) of the template, with dynamic_data as sample data, and this target's output size (default false). Needs `template` in the request.",
            }),
          }),
        ),
        output_format: described(z.optional(z.enum(OUTPUT_FORMATS)), {
          description:
            '"string" (default): the response carries `output`. "layout": it carries `layout` and `values` instead, and the output is layout.parts[0] + values[0] + layout.parts[1] + … ; a process sends a layout\'s parts once, later responses name it by id (see spec/README.md).',
        }),
        layout_parts: described(z.optional(z.boolean()), {
          description: 'With output_format "layout": include the layout\'s parts even if this process sent them before (a client that dropped them).',
        }),
        saved_layout: described(z.optional(z.string()), {
          description:
            "A saved layout of this template from an earlier response (`saved_layout`), sent back as it was received: the engine renders from it without compiling the template when it is intact and was made by this engine and protocol from this template, and ignores it otherwise. Needs `template`.",
        }),
        save_layout: described(z.optional(z.boolean()), {
          description: "Return the layout this render was compiled to as `saved_layout`, for later requests (default false). Needs `template`.",
        }),
      })
      .check(
        z.refine((r) => r.template !== undefined || r.template_ref !== undefined, {
          message: "Either template or template_ref is required",
          path: ["template"],
        }),
        z.refine((r) => r.template !== undefined || (r.saved_layout === undefined && r.save_layout !== true), {
          message: "saved_layout and save_layout need the template in the request (a saved layout is checked against it)",
          path: ["template"],
        }),
      ),
    {
      title: "mailrender engine request, protocol v1",
      description: "One render request: all of stdin in one-shot mode, one line in --serve mode. Either `template` or `template_ref` is required.",
    },
  ),
);
export type RenderRequest = z.infer<ReturnType<typeof renderRequestSchema>>;

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
