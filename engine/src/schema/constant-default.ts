/**
 * A field's default when it is a constant (a string, number or boolean). zod's `_default` keeps any
 * default behind a getter that copies it on every read (an object or array default must not be
 * shared between parses), and a template leaves most fields out, so a template read would call that
 * getter for nearly every field it reads. A constant needs no copy: here it is a plain property of
 * the schema's definition, as zod's definition allows, which zod reads as before and the template
 * reader's compiled parsers (fast-parse.ts) take once.
 */
import * as z from "zod/mini";

export function constantDefault<T extends z.ZodMiniType<string | number | boolean>>(
  schema: T,
  value: z.output<T> & (string | number | boolean),
): z.ZodMiniDefault<T> {
  return new z.ZodMiniDefault({ type: "default", innerType: schema, defaultValue: value }) as z.ZodMiniDefault<T>;
}
