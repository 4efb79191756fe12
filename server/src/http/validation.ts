import type { FastifySchemaCompiler } from "fastify";
import type * as z from "zod";
import type { Issue } from "../errors.js";
import { explained } from "./hints.js";

type ZodIssue = z.core.$ZodIssue;

/** Fastify's request parts, named the way FastAPI names them in `loc`. */
const LOC_ROOT: Record<string, string> = { body: "body", params: "path", querystring: "query", headers: "header" };

const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Thrown by the validator compiler; the error handler turns it into a 422 with `issues`. */
export class RequestValidationError extends Error {
  constructor(readonly issues: Issue[]) {
    super("Request validation failed");
  }
}

export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur = data;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

const TYPE_NAMES: Record<string, [type: string, msg: string]> = {
  string: ["string_type", "Input should be a valid string"],
  number: ["float_type", "Input should be a valid number"],
  int: ["int_type", "Input should be a valid integer"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  object: ["dict_type", "Input should be a valid dictionary"],
  record: ["dict_type", "Input should be a valid dictionary"],
  array: ["list_type", "Input should be a valid list"],
};

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((v) => (typeof v === "string" ? `'${v}'` : String(v)));
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

function sizeIssue(issue: ZodIssue & { code: "too_small" | "too_big" }): [string, string] {
  const small = issue.code === "too_small";
  const bound = Number(small ? (issue as { minimum: unknown }).minimum : (issue as { maximum: unknown }).maximum);
  switch (issue.origin) {
    case "string":
      return small
        ? ["string_too_short", `String should have at least ${bound} character${bound === 1 ? "" : "s"}`]
        : ["string_too_long", `String should have at most ${bound} character${bound === 1 ? "" : "s"}`];
    case "array":
    case "set":
      return small
        ? ["too_short", `List should have at least ${bound} item${bound === 1 ? "" : "s"} after validation`]
        : ["too_long", `List should have at most ${bound} item${bound === 1 ? "" : "s"} after validation`];
    default:
      return small
        ? ["greater_than_equal", `Input should be greater than or equal to ${bound}`]
        : ["less_than_equal", `Input should be less than or equal to ${bound}`];
  }
}

/** Maps one zod issue to pydantic-style issues (unknown keys give one issue per key, as pydantic does). */
function toIssues(issue: ZodIssue, root: string, data: unknown, part: string): Issue[] {
  const loc = [root, ...issue.path.map(String)];
  const value = valueAt(data, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      if (value === undefined || (value === null && issue.path.length === 0 && part === "body")) {
        return [{ loc, msg: "Field required", type: "missing" }];
      }
      // Query and path values arrive as text: a failed number coercion is a parse failure.
      if (issue.expected === "number" && typeof value === "string") {
        return [{ loc, msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" }];
      }
      const [type, msg] = TYPE_NAMES[issue.expected] ?? ["type_error", `Input should be a valid ${issue.expected}`];
      return [{ loc, msg, type }];
    }
    case "unrecognized_keys":
      return issue.keys.map((key) => ({ loc: [...loc, key], msg: "Extra inputs are not permitted", type: "extra_forbidden" }));
    case "invalid_value":
      return [{ loc, msg: `Input should be ${quoteList(issue.values)}`, type: "literal_error" }];
    case "invalid_format":
      if (issue.format === "uuid") {
        return typeof value === "string" && UUID_ANY.test(value)
          ? [{ loc, msg: "UUID version 4 expected", type: "uuid_version" }]
          : [{ loc, msg: "Input should be a valid UUID", type: "uuid_parsing" }];
      }
      if (issue.format === "datetime") {
        return [{ loc, msg: "Input should be a valid datetime in ISO 8601 format", type: "datetime_parsing" }];
      }
      if (issue.format === "regex") {
        return [{ loc, msg: `String should match pattern '${String(issue.pattern ?? "")}'`, type: "string_pattern_mismatch" }];
      }
      return [{ loc, msg: issue.message, type: "value_error" }];
    case "too_small":
    case "too_big": {
      const [type, msg] = sizeIssue(issue);
      return [{ loc, msg, type }];
    }
    case "invalid_union": {
      const expected = issue.errors.flatMap((branch) => branch.flatMap((i) => (i.code === "invalid_type" ? [i.expected] : [])));
      return [{ loc, msg: `Input should be a valid ${expected.join(", ")}`.replace(/, ([^,]*)$/, " or $1"), type: "union_type" }];
    }
    case "custom": {
      const type = typeof issue.params?.["type"] === "string" ? (issue.params["type"] as string) : "value_error";
      return [{ loc, msg: issue.message, type }];
    }
    default:
      return [{ loc, msg: issue.message, type: "value_error" }];
  }
}

export function zodIssuesToIssues(issues: readonly ZodIssue[], part: string, data: unknown): Issue[] {
  const root = LOC_ROOT[part] ?? part;
  return issues.flatMap((issue) => toIssues(issue, root, data, part)).map((issue) => explained(issue, valueAt(data, issue.loc.slice(1))));
}

/**
 * Validates every request part with its zod schema and reports failures as pydantic-style issues
 * (instead of the provider's ajv-like errors), so every 422 has one shape.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    // Fastify passes null for an absent body; a schema with an optional body should see `undefined`.
    const input = data === null && httpPart === "body" && schema.safeParse(undefined).success ? undefined : data;
    const result = schema.safeParse(input);
    // Headers are checked, not replaced: given a value, Fastify would merge it into a new copy of
    // every header at each later read of `request.headers` (the log line reads it on every request).
    // The header schemas only check optional strings; none transforms a value.
    if (result.success) return httpPart === "headers" ? {} : { value: result.data };
    return { error: new RequestValidationError(zodIssuesToIssues(result.error.issues, httpPart ?? "body", data)) };
  };
