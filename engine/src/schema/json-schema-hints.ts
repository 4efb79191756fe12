/**
 * What a refinement or a preprocessing step accepts, for the published JSON Schema: zod cannot read
 * a function, so a schema that checks with one says here what it lets through. The conversion
 * (`json-schema.ts`) refuses a refinement without a hint, so none is lost silently. Nothing is built
 * at load: a pattern is made only when the JSON Schema is generated.
 */
import type * as z from "zod/mini";

export type JsonSchemaHint =
  /** A string matching `pattern` (its flags honoured); `trimmed`: after leading and trailing white space is removed. */
  | { readonly pattern: () => RegExp; readonly trimmed?: boolean }
  /** Any JSON Schema, in place of what zod would write. */
  | { readonly schema: (pattern: (regex: RegExp, trimmed: boolean) => string) => Record<string, unknown> };

export const jsonSchemaHints = new WeakMap<z.core.$ZodType, JsonSchemaHint>();

export function withJsonSchema<S extends z.core.$ZodType>(schema: S, hint: JsonSchemaHint): S {
  jsonSchemaHints.set(schema, hint);
  return schema;
}
