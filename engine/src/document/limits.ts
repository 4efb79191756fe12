/**
 * Size limits that keep one template from occupying a renderer: a row needs no content, so a small
 * document can hold enough nodes to take seconds and hundreds of megabytes to render. The node count
 * is checked before the template is parsed (counting stops at the limit, so an oversized document is
 * refused in milliseconds, and the count is kept with the parse); the output size after the render,
 * for what nodes do not bound (long content, long recipient values).
 */
import { RenderError, type ValidationIssue } from "../base/diagnostics.js";
import type { RenderLimits } from "../base/types.js";
import { MAX_NESTING_DEPTH } from "./schema.js";

export interface ResolvedLimits {
  readonly maxNodes: number;
  readonly maxOutputBytes: number;
}

export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  /** Rows, row spacers, columns, blocks and the entries of a block's lists (the newsletter fixture has 110). */
  maxNodes: 2_000,
  /**
   * 16 MiB of UTF-8: twice the executable's request limit, so a template whose own text is large (long
   * content) still renders, while a render cannot grow without bound in a library caller's memory.
   */
  maxOutputBytes: 16 * 1024 * 1024,
});

export function resolveLimits(limits: RenderLimits | undefined): ResolvedLimits {
  if (limits === undefined) return DEFAULT_LIMITS;
  return {
    maxNodes: positiveOr(limits.maxNodes, "maxNodes", DEFAULT_LIMITS.maxNodes),
    maxOutputBytes: positiveOr(limits.maxOutputBytes, "maxOutputBytes", DEFAULT_LIMITS.maxOutputBytes),
  };
}

function positiveOr(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RenderError(`Invalid limits.${name}: expected a positive integer`, [
      { loc: ["limits", name], msg: "Input should be a positive integer", type: "greater_than_equal" },
    ]);
  }
  return value;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const arrayAt = (node: Json, key: string): readonly unknown[] => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []);
const isRow = (child: Json): boolean => child["type"] === "row" || (child["type"] === undefined && Array.isArray(child["columns"]));

/**
 * The document's node count when it is at most `max`; otherwise `over`, the path of the first node
 * past the limit. Walks only the raw structure (no validation: the reader reports shape errors) and
 * stops at the nesting the reader accepts and at the limit, so its cost is bounded by the limit, not
 * by the document. The path is written only past the limit, each level adding its part as the walk
 * returns: a template within the limit (every render's) makes no path at all.
 */
export function countNodes(json: unknown, max: number): { count: number; over: string[] | undefined } {
  let count = 0;
  /** The path past the limit, innermost part first. */
  const reversed: string[] = [];
  const row = (node: unknown, depth: number): boolean => {
    if (++count > max) return false;
    if (!isObject(node) || depth > MAX_NESTING_DEPTH) return true;
    const columns = arrayAt(node, "columns");
    for (let i = 0; i < columns.length; i++) {
      if (!column(columns[i], depth)) {
        reversed.push(String(i), "columns");
        return false;
      }
    }
    return true;
  };
  const column = (node: unknown, depth: number): boolean => {
    if (++count > max) return false;
    if (!isObject(node)) return true;
    const key = node["children"] !== undefined ? "children" : "components";
    const children = arrayAt(node, key);
    for (let j = 0; j < children.length; j++) {
      const child = children[j];
      if (isObject(child) && isRow(child) ? !row(child, depth + 1) : !block(child)) {
        reversed.push(String(j), key);
        return false;
      }
    }
    return true;
  };
  // A block's lists (list items, menu links, social icons) grow its output like nodes do.
  const block = (node: unknown): boolean => {
    if (++count > max) return false;
    const props = isObject(node) ? node["props"] : undefined;
    if (!isObject(props)) return true;
    // Values, not keys: one call for the block's props (a key is looked for only past the limit).
    const values = Object.values(props);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (!Array.isArray(value)) continue;
      if (count + value.length <= max) count += value.length;
      else {
        reversed.push(String(max - count), Object.keys(props)[i]!, "props");
        count = max + 1;
        return false;
      }
    }
    return true;
  };
  const rows = isObject(json) ? arrayAt(json, "rows") : [];
  for (let i = 0; i < rows.length; i++) {
    if (!row(rows[i], 1)) {
      reversed.push(String(i), "rows");
      return { count, over: reversed.reverse() };
    }
  }
  return { count, over: undefined };
}

export function tooManyNodes(path: readonly string[], max: number): RenderError {
  const issue: ValidationIssue = {
    loc: [...path],
    msg: `The template has more than ${max} nodes (rows, row spacers, columns, blocks and block list entries); this one is over the limit`,
    type: "too_many_nodes",
  };
  return new RenderError(`Template too large: more than ${max} nodes`, [issue]);
}

/**
 * `bytes` is the document's size, or with `atLeast` what was counted before the count passed the
 * limit (the rest is never computed); `plainText` when the document is the plain-text version.
 */
export function outputTooLarge(bytes: number, max: number, { atLeast = false, plainText = false } = {}): RenderError {
  const size = atLeast ? `at least ${bytes}` : String(bytes);
  return new RenderError(`${plainText ? "Plain text" : "Output"} too large: ${size} bytes, the limit is ${max}`, [
    {
      loc: [],
      msg: `The ${plainText ? "plain-text version" : "rendered output"} would be ${size} bytes of UTF-8, over the limit of ${max}`,
      type: "output_too_large",
    },
  ]);
}
