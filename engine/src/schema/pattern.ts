/**
 * String patterns the template schemas check, compiled when first tested. QuickJS (the executable's
 * runtime) compiles a regular expression when it is built, and the schemas hold many that a given
 * template never tests: built eagerly, every launch would compile them all. A pattern is checked by
 * a refinement whose issue has the type a regular-expression check has (`string_pattern_mismatch`),
 * and the published JSON Schema carries its expression (`json-schema-hints.ts`).
 */
import * as z from "zod/mini";
import { withJsonSchema } from "./json-schema-hints.js";
import { stringSchema } from "./leaves.js";

export interface Pattern {
  /** The expression, as the JSON Schema shows it. */
  readonly source: string;
  readonly flags: string;
  test(value: string): boolean;
}

/** `source` with `flags`, compiled on the first test. */
export function lazyPattern(source: string, flags = ""): Pattern {
  let compiled: RegExp | undefined;
  return {
    source,
    flags,
    test: (value) => {
      compiled ??= new RegExp(source, flags);
      return compiled.test(value);
    },
  };
}

/** The trim every such string starts with: a check holds no state, so one instance serves them all. */
const trim = z.trim();

/** A string, white space trimmed, that must match `pattern` (else `message`). */
export function trimmedMatching(pattern: Pattern, message: string) {
  return withJsonSchema(
    stringSchema.check(
      trim,
      z.refine((value: string) => pattern.test(value), { message, params: { type: "string_pattern_mismatch" } }),
    ),
    { pattern: () => new RegExp(pattern.source, pattern.flags), trimmed: true },
  );
}
