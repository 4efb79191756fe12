import type { FastifyInstance } from "fastify";
import { type Issue, validationError } from "../errors.js";

/** The media types read as JSON: `application/json` and any `application/*+json`. */
export const JSON_MEDIA_TYPES: readonly (string | RegExp)[] = ["application/json", /^application\/[\w.+-]+\+json$/];

/**
 * JSON is the only body format. Our own parser (instead of Fastify's) so that malformed JSON is a 422
 * `json_invalid` issue with the position, like the FastAPI service.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  for (const type of JSON_MEDIA_TYPES) {
    app.addContentTypeParser(type, { parseAs: "string" }, (_req, body, done) => {
      const parsed = parseJsonText(typeof body === "string" ? body : body.toString("utf8"));
      if ("issues" in parsed) done(validationError(parsed.issues));
      else done(null, parsed.value);
    });
  }
}

/**
 * A request body's text as JSON, by the API's rules; `value` undefined means no body. Shared by the
 * body parser and the render threads, which read the deprecated render endpoint's bodies themselves.
 */
export function parseJsonText(text: string): { value: unknown } | { issues: Issue[] } {
  // An empty body with a JSON Content-Type is no body: clients that set the header on every request
  // (DELETE, a body-less rotate) must not be refused. Routes that need a body say `missing`.
  if (text.trim() === "") return { value: undefined };
  let value: unknown;
  try {
    // `__proto__` keys are refused: template documents are deep-merged over defaults downstream.
    value = text.includes("__proto__") ? JSON.parse(text, rejectProtoKeys) : JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : "invalid JSON";
    const position = /position (\d+)/.exec(detail)?.[1];
    const loc = position === undefined ? ["body"] : ["body", position];
    return { issues: [{ loc, msg: `JSON decode error: ${detail}`, type: "json_invalid" }] };
  }
  // Every body of this API is an object. A JSON `null` is refused here because Fastify hands an absent
  // body to the validators as `null` too, and an optional body must not accept it.
  if (value === null) return { issues: [{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" }] };
  return { value };
}

/** The same rule in JSON Schema, for the OpenAPI document: an object never has this key. */
export const PROTO_KEY_RULE = { not: { const: "__proto__" } } as const;

/** Any JSON value whose objects have no `__proto__` key (`ref` points at this schema), for the keys an open object does not list. */
export function jsonValueSchema(ref: string) {
  return {
    description: "Any JSON value; no object in it has a `__proto__` key",
    anyOf: [
      { type: ["null", "boolean", "number", "string"] },
      { type: "array", items: { $ref: ref } },
      { type: "object", propertyNames: PROTO_KEY_RULE, additionalProperties: { $ref: ref } },
    ],
  };
}

/** Keywords whose value is data, not a schema. */
const VALUE_KEYWORDS = new Set(["default", "const", "enum", "examples", "example", "required"]);

/**
 * `schema` with the `__proto__` rule on every object schema in it that admits keys it does not list:
 * `propertyNames: PROTO_KEY_RULE`, and values of unlisted keys described by `anyValue` (a `$ref` to `jsonValueSchema`).
 */
export function withProtoKeyRule(schema: unknown, anyValue: { $ref: string }): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withProtoKeyRule(item, anyValue));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (VALUE_KEYWORDS.has(key)) out[key] = value;
    else out[key] = key === "properties" || key === "$defs" ? mapValues(value, (v) => withProtoKeyRule(v, anyValue)) : withProtoKeyRule(value, anyValue);
  }
  if (out["type"] !== "object" || out["additionalProperties"] === false || out["propertyNames"] !== undefined) return out;
  return { ...out, propertyNames: PROTO_KEY_RULE, ...(out["additionalProperties"] === undefined && { additionalProperties: anyValue }) };
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fn(value);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
}

function rejectProtoKeys(key: string, value: unknown): unknown {
  if (key === "__proto__") throw new SyntaxError("the key '__proto__' is not allowed");
  return value;
}
