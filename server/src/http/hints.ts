/**
 * What a 422 issue adds for the caller (spec/errors.md, "Validation issues"): the offending `input`,
 * as pydantic gives it, and a `hint` for the common mistakes — merge-tag values straight under
 * `merge_tags` or `dynamic_data`, a number written with its unit or in quotes, a template id that is
 * not a UUID, an option misspelled.
 */
import { nearestName } from "@mailrender/engine";
import type { Issue } from "../errors.js";

/** How much of an input an issue carries: text cut to 200 characters, objects and arrays only when small. */
const INPUT_LIMIT = 200;

function shortInput(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value.length <= INPUT_LIMIT ? value : `${value.slice(0, INPUT_LIMIT - 1)}…`;
  if (value === null || typeof value !== "object") return value;
  const json = JSON.stringify(value);
  return json !== undefined && json.length <= INPUT_LIMIT ? value : undefined;
}

const NUMBER_TYPES = new Set(["float_type", "int_type", "number_type", "int_parsing", "float_parsing"]);
const GROUPS = "merge_tags.text (or .url for a link's address, .attr for an attribute's value)";
const TEMPLATE_ID_HINT = "Template ids are the UUIDs the service gives templates: use the id the create response gave (GET /api/v1/templates lists them)";

/** The hint for a common mistake, or undefined. `loc` starts with the request part (`body`, `path`, …). */
export function hintFor(issue: Issue, input: unknown): string | undefined {
  const loc = issue.loc;
  const last = loc.at(-1) ?? "";
  const parent = loc.at(-2);
  if (issue.type === "extra_forbidden" && parent === "merge_tags") return `Merge-tag values go in a group: put ${last} under ${GROUPS}`;
  if (issue.type === "extra_forbidden" && parent === "dynamic_data")
    return `dynamic_data holds merge_tags and context: put ${last} under dynamic_data.${GROUPS}, or under dynamic_data.context if visibility rules read it`;
  if (issue.type === "string_type" && loc.includes("merge_tags") && (typeof input === "number" || typeof input === "boolean"))
    return `Merge-tag values are text: write "${String(input)}"`;
  if (NUMBER_TYPES.has(issue.type) && typeof input === "string") {
    const number = /^\s*(-?\d+(?:\.\d+)?)\s*(px|%|em|rem|pt)?\s*$/i.exec(input);
    if (number?.[2]) return `Write the number without its unit: ${number[1]} (the unit is implied)`;
    // A query value is text by nature: there the mistake is what surrounds the digits, not quotes.
    if (number && loc[0] === "query") return number[1]?.includes(".") ? undefined : `Write it as digits alone: ${number[1]}`;
    if (number) return `Write it as a number, without quotes: ${number[1]}`;
  }
  if ((issue.type === "uuid_parsing" || issue.type === "uuid_version") && (last === "template_id" || (loc[0] === "path" && last === "id")))
    return TEMPLATE_ID_HINT;
  if (issue.type === "literal_error" && typeof input === "string") {
    const options = [...issue.msg.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? "");
    const nearest = nearestName(input, options);
    if (nearest !== undefined) return `Did you mean "${nearest}"?`;
  }
  return undefined;
}

/** An issue with its input (the value at its path in `data`, the request part it starts with) and hint. */
export function explained(issue: Issue, input: unknown): Issue {
  // A missing value has no input (pydantic would show the object it is missing from).
  const shown = issue.type === "missing" ? undefined : shortInput(input);
  const hint = hintFor(issue, input);
  return { ...issue, ...(shown === undefined ? {} : { input: shown }), ...(hint === undefined ? {} : { hint }) };
}
