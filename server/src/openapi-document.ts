import { type JsonSchema, templateJsonSchema } from "@mailrender/engine";
import { jsonValueSchema, withProtoKeyRule } from "./http/json-body.js";
import { documentResponseHeaders } from "./routes/responses.js";

type Document = {
  components?: { schemas?: Record<string, unknown> };
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
};

/**
 * What the route schemas cannot say, added to the generated document: the template document's JSON
 * Schema, the JSON parser's refusal of `__proto__` keys, and the response headers.
 */
export function completeDocument<D extends object>(document: D): D {
  const { components, paths } = document as Document;
  const schemas = components?.schemas;
  if (schemas !== undefined) {
    Object.assign(schemas, templateComponents());
    for (const name of Object.keys(schemas)) schemas[name] = withProtoKeyRule(schemas[name], ANY_VALUE);
    schemas[JSON_VALUE_COMPONENT] = jsonValueSchema(ANY_VALUE.$ref);
  }
  for (const operations of Object.values(paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) media.schema = withProtoKeyRule(media.schema, ANY_VALUE);
    }
  }
  documentResponseHeaders(paths ?? {});
  return document;
}

/**
 * The template document's JSON Schema inside the OpenAPI document, so that one file describes the
 * whole API: the engine's schema (spec/template/v1/template.schema.json) becomes the component
 * `TemplateJson`, its `$defs` kept in it (references rewritten to point there), and `TemplateJsonInput`,
 * the body of a create or replace, is the same document without `template_id` required: the service
 * writes the template's id there.
 */
export const TEMPLATE_COMPONENT = "TemplateJson";
export const TEMPLATE_INPUT_COMPONENT = "TemplateJsonInput";
export const JSON_VALUE_COMPONENT = "JsonValue";
export const ANY_VALUE = { $ref: `#/components/schemas/${JSON_VALUE_COMPONENT}` } as const;
export const DEFS_POINTER = `#/components/schemas/${TEMPLATE_COMPONENT}/$defs/`;

export function templateComponents(): Record<string, JsonSchema> {
  const { $schema: _dialect, $id: _id, ...document } = rewriteRefs(templateJsonSchema(), "#/$defs/", DEFS_POINTER) as JsonSchema;
  const { $defs: _defs, title: _title, ...root } = document;
  const properties = root["properties"] as Record<string, JsonSchema>;
  const input: JsonSchema = {
    ...root,
    description: "A template document as sent to create or replace a template. `template_id` may be left out: the service writes the template's id there.",
    properties: {
      ...properties,
      template_id: {
        ...properties["template_id"],
        minLength: 0,
        pattern: "^(?:|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$",
        description:
          "May be left out or empty: the service writes the template's id here. A UUID v4: on create, the id to create it under (409 if a template has it); on replace, this template's id. The id the Maildeno editor writes, made from the name (`Welcome email` → `welcome_email`), is taken too, and replaced by the service's. Another value is refused (422).",
      },
    },
    required: (root["required"] as string[]).filter((name) => name !== "template_id"),
  };
  return { [TEMPLATE_COMPONENT]: document, [TEMPLATE_INPUT_COMPONENT]: input };
}

/** `value` with every `$ref` starting with `from` starting with `to` instead. */
export function rewriteRefs(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, from, to));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === "$ref" && typeof v === "string" && v.startsWith(from) ? to + v.slice(from.length) : rewriteRefs(v, from, to),
    ]),
  );
}
