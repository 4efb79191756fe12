/**
 * The request's success path by hand: a well-formed request read without building its zod schemas
 * (schema.ts), which a fresh release process would otherwise build for every render (~5 M
 * instructions, a tenth of a render from a saved layout). The reader accepts only what the schema
 * accepts and returns what it would return; anything it does not recognise — an unknown key, a
 * wrong type, a failed bound or refinement, a `__proto__` key (zod drops it from its copy) — is
 * `undefined`, and the caller asks the schema, whose issues are the error. The schema stays the one
 * definition of what is valid and of every error; test/read-request.test.ts checks the two agree on
 * every fixture request and on broken variants of them.
 *
 * The request is returned as read, not copied: it is JSON.parse's fresh object, held by nothing else.
 */
import { RENDER_TARGETS } from "../base/types.js";
import { OUTPUT_FORMATS, REQUEST_ID_MAX_LENGTH, TEMPLATE_REF_MAX_LENGTH } from "./constants.js";
import type { DynamicDataWire, RenderRequest } from "./schema.js";

type Json = Record<string, unknown>;

/** `raw` as `renderRequestSchema()` parses it, or `undefined` when the schema must judge it. */
export function wellFormedRequest(raw: unknown): RenderRequest | undefined {
  if (!isStrictObject(raw, isRequestField) || raw["target"] === undefined) return undefined;
  // The schema's two refinements.
  if (raw["template"] === undefined && (raw["template_ref"] === undefined || raw["saved_layout"] !== undefined || raw["save_layout"] === true)) {
    return undefined;
  }
  return raw as RenderRequest;
}

/** `raw` as `dynamicDataSchema()` parses it, or `undefined` when the schema must judge it. */
export function wellFormedData(raw: unknown): DynamicDataWire | undefined {
  return isStrictObject(raw, isDataField) ? (raw as DynamicDataWire) : undefined;
}

function isRequestField(key: string, value: unknown): boolean {
  switch (key) {
    case "id":
      return typeof value === "string" ? value.length <= REQUEST_ID_MAX_LENGTH : Number.isSafeInteger(value);
    case "template":
      return true;
    case "template_ref":
      return typeof value === "string" && value.length >= 1 && value.length <= TEMPLATE_REF_MAX_LENGTH;
    case "target":
      return (RENDER_TARGETS as readonly unknown[]).includes(value);
    case "dynamic_data":
      return wellFormedData(value) !== undefined;
    case "options":
      return isStrictObject(value, isOption);
    case "output_format":
      return (OUTPUT_FORMATS as readonly unknown[]).includes(value);
    case "saved_layout":
      return typeof value === "string";
    case "layout_parts":
    case "save_layout":
      return typeof value === "boolean";
    default:
      return false;
  }
}

function isOption(key: string, value: unknown): boolean {
  switch (key) {
    case "minify":
    case "strict":
    case "plain_text":
    case "component_props":
    case "checks":
      return typeof value === "boolean";
    case "max_nodes":
    case "max_output_bytes":
      return Number.isSafeInteger(value) && (value as number) >= 1;
    default:
      return false;
  }
}

function isDataField(key: string, value: unknown): boolean {
  if (key === "merge_tags") return isStrictObject(value, isMergeTagGroup);
  return key === "context" && isRecordOf(value, isContextValue);
}

function isMergeTagGroup(key: string, value: unknown): boolean {
  return (key === "text" || key === "url" || key === "attr") && isRecordOf(value, isString);
}

/** A `z.strictObject` of optional fields: every key known, every value given (not `undefined`) valid. */
function isStrictObject(value: unknown, isField: (key: string, field: unknown) => boolean): value is Json {
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    const field = value[key];
    if (field !== undefined && !isField(key, field)) return false;
  }
  return true;
}

const isString = (value: unknown): boolean => typeof value === "string";
const isContextValue = (value: unknown): boolean => typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);

/** A record whose every value passes; a `__proto__` key is left to zod, which drops it from its copy. */
function isRecordOf(value: unknown, isValue: (entry: unknown) => boolean): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) if (key === "__proto__" || !isValue(value[key])) return false;
  return true;
}

/** An object as JSON.parse makes one; any other (an array, a class instance) is left to zod. */
function isPlainObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
