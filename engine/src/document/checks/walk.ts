/**
 * The template document as written, node by node, in document order, valid or not: what the
 * checks that read the JSON itself (names, merge tags) walk. Shapes are told apart as the reader
 * tells them (document/parse.ts): a row with or without `type`, a row spacer, a block in the
 * current `{type: "component", componentType}` or the legacy `{type: "<block>"}` shape, a column's
 * `children` or legacy `components`.
 */
import type { BlockDefinition } from "../../blocks/block.js";
import { type BlockRegistry, blockOf } from "../../blocks/registry.js";

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export interface NodeVisitor {
  canvas?(raw: Json, path: readonly string[]): void;
  row?(raw: Json, path: readonly string[]): void;
  column?(raw: Json, path: readonly string[]): void;
  rowSpacer?(raw: Json, path: readonly string[]): void;
  /** A block, known (`definition`) or not; `typeKey` is where its type is written. */
  block?(raw: Json, path: readonly string[], blockType: string, definition: BlockDefinition<unknown> | undefined, typeKey: "componentType" | "type"): void;
}

export function walkDocument(json: unknown, registry: BlockRegistry, visitor: NodeVisitor): void {
  if (!isObject(json)) return;
  if (isObject(json["canvas"])) visitor.canvas?.(json["canvas"], ["canvas"]);
  const rows = json["rows"];
  if (Array.isArray(rows)) for (const [index, row] of rows.entries()) child(row, ["rows", String(index)], true);

  function child(raw: unknown, path: readonly string[], topLevel: boolean): void {
    if (!isObject(raw)) return;
    const type = raw["type"];
    if (type === "row-spacer") {
      visitor.rowSpacer?.(raw, path);
      return;
    }
    if (type === "row" || (type === undefined && (topLevel || Array.isArray(raw["columns"])))) {
      row(raw, path);
      return;
    }
    if (topLevel) return;
    const blockType = raw["componentType"] ?? (type === "component" ? undefined : type);
    if (typeof blockType !== "string") return;
    visitor.block?.(raw, path, blockType, blockOf(registry, blockType), raw["componentType"] !== undefined ? "componentType" : "type");
  }

  function row(raw: Json, path: readonly string[]): void {
    visitor.row?.(raw, path);
    const columns = raw["columns"];
    if (!Array.isArray(columns)) return;
    columns.forEach((column, index) => {
      if (!isObject(column)) return;
      const columnPath = [...path, "columns", String(index)];
      visitor.column?.(column, columnPath);
      const key = column["children"] !== undefined ? "children" : "components";
      const children = column[key];
      if (Array.isArray(children)) for (const [i, c] of children.entries()) child(c, [...columnPath, key, String(i)], false);
    });
  }
}
