/**
 * Size limits that keep one template from occupying a renderer: a row needs no content, so a small
 * document can hold enough nodes to take seconds and hundreds of megabytes to render. The node count
 * is checked before the template is parsed (counting stops at the limit, so an oversized document is
 * refused in microseconds); the output size after the render, for what nodes do not bound (long
 * content, long recipient values).
 */
import { RenderError, type ValidationIssue } from "../diagnostics.js";
import type { RenderLimits } from "../types.js";
import { MAX_NESTING_DEPTH } from "./schema.js";

export interface ResolvedLimits {
  readonly maxNodes: number;
  readonly maxOutputBytes: number;
}

export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  /** Rows, row spacers, columns, blocks and the entries of a block's lists: ~5× a long newsletter. */
  maxNodes: 2_000,
  /** 2 MiB of UTF-8; Gmail already clips a message over ~102 KB. */
  maxOutputBytes: 2 * 1024 * 1024,
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
    throw new RenderError(`Invalid limits.${name}: expected a positive integer`, [{ loc: ["limits", name], msg: "Input should be a positive integer", type: "greater_than_equal" }]);
  }
  return value;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const arrayAt = (node: Json, key: string): unknown[] => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []);

/**
 * The path of the first node past `max`, or `undefined` when the document has at most `max` nodes.
 * Walks only the raw structure (no validation: the reader reports shape errors) and stops at the
 * nesting the reader accepts, so its cost is bounded by the limit, not by the document.
 */
export function firstNodeOverLimit(json: unknown, max: number): string[] | undefined {
  if (!isObject(json)) return undefined;
  let count = 0;
  let over: string[] | undefined;
  const visit = (path: string[]): boolean => {
    count++;
    if (count > max) over = path;
    return over === undefined;
  };
  const row = (node: unknown, path: string[], depth: number): boolean => {
    if (!visit(path)) return false;
    if (!isObject(node) || depth > MAX_NESTING_DEPTH) return true;
    return arrayAt(node, "columns").every((column, i) => {
      const at = [...path, "columns", String(i)];
      if (!visit(at)) return false;
      if (!isObject(column)) return true;
      const key = column["children"] !== undefined ? "children" : "components";
      return arrayAt(column, key).every((child, j) => {
        const childPath = [...at, key, String(j)];
        if (isObject(child) && (child["type"] === "row" || (child["type"] === undefined && Array.isArray(child["columns"])))) return row(child, childPath, depth + 1);
        return visit(childPath) && (!isObject(child) || listEntries(child, childPath));
      });
    });
  };
  // A block's lists (list items, menu links, social icons) grow its output like nodes do.
  const listEntries = (block: Json, path: string[]): boolean => {
    const props = block["props"];
    if (!isObject(props)) return true;
    return Object.entries(props).every(([key, value]) => !Array.isArray(value) || value.every((_, i) => visit([...path, "props", key, String(i)])));
  };
  arrayAt(json, "rows").every((node, i) => row(node, ["rows", String(i)], 1));
  return over;
}

export function tooManyNodes(path: readonly string[], max: number): RenderError {
  const issue: ValidationIssue = {
    loc: [...path],
    msg: `The template has more than ${max} nodes (rows, row spacers, columns, blocks and block list entries); this one is over the limit`,
    type: "too_many_nodes",
  };
  return new RenderError(`Template too large: more than ${max} nodes`, [issue]);
}

export function outputTooLarge(bytes: number, max: number): RenderError {
  return new RenderError(`Output too large: ${bytes} bytes, the limit is ${max}`, [
    { loc: [], msg: `The rendered output is ${bytes} bytes of UTF-8, over the limit of ${max}`, type: "output_too_large" },
  ]);
}
