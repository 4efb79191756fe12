/** Zod issues in the `{loc, msg, type}` shape (FastAPI/pydantic types), with a path prefix. */
import type * as z from "zod/mini";
import type { ValidationIssue } from "../base/diagnostics.js";

type Path = readonly PropertyKey[];

export function toValidationIssues(error: z.core.$ZodError, prefix: Path): ValidationIssue[] {
  return error.issues.flatMap((issue) => convert(issue, prefix));
}

function convert(issue: z.core.$ZodIssue, prefix: Path): ValidationIssue[] {
  const loc = [...prefix, ...issue.path].map(String);
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return [{ loc, msg: "Field required", type: "missing" }];
      return [{ loc, msg: `Input should be a valid ${issue.expected}`, type: `${issue.expected}_type` }];
    case "invalid_value":
      return [
        {
          loc,
          msg: `Input should be ${issue.values
            .map((v) => JSON.stringify(v))
            .join(", ")
            .replace(/, ([^,]*)$/, " or $1")}`,
          type: "literal_error",
        },
      ];
    case "too_small":
      return [
        {
          loc,
          msg: issue.origin === "number" ? `Input should be greater than or equal to ${issue.minimum}` : `Input should have at least ${issue.minimum} item(s)`,
          type: issue.origin === "number" ? "greater_than_equal" : "too_short",
        },
      ];
    case "too_big":
      return [
        {
          loc,
          msg: issue.origin === "number" ? `Input should be less than or equal to ${issue.maximum}` : `Input should have at most ${issue.maximum} item(s)`,
          type: issue.origin === "number" ? "less_than_equal" : "too_long",
        },
      ];
    case "invalid_format":
      return [{ loc, msg: issue.message, type: "string_pattern_mismatch" }];
    case "unrecognized_keys":
      return issue.keys.map((key) => ({ loc: [...loc, key], msg: "Extra inputs are not permitted", type: "extra_forbidden" }));
    case "invalid_union": {
      // An alternative that failed deeper inside the value is the specific problem (an object with a
      // bad field); when all fail at the value itself, the union's own message says what is accepted.
      const alternatives = issue.errors.map((alt) => alt.flatMap((inner) => convert(inner, [...prefix, ...issue.path])));
      const best = [...alternatives].sort((a, b) => depth(b) - depth(a))[0];
      if (best && best.length > 0 && depth(best) > loc.length) return best;
      const first = alternatives[0]?.[0];
      if (first?.type === "missing") return [first];
      return [{ loc, msg: issue.message === "Invalid input" ? (first?.msg ?? issue.message) : issue.message, type: first?.type ?? "union_error" }];
    }
    case "custom":
      // A refinement may name the pydantic type it stands for (an enum read in any case: `literal_error`).
      return [{ loc, msg: issue.message, type: typeof issue.params?.["type"] === "string" ? issue.params["type"] : "value_error" }];
    default:
      return [{ loc, msg: issue.message, type: "value_error" }];
  }
}

function depth(issues: ValidationIssue[]): number {
  return Math.max(0, ...issues.map((i) => i.loc.length));
}
