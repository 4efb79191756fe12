/**
 * The content checks of every block in a template (each block's `check`, blocks/block.ts), with
 * paths into the document: what a template needs so that its blocks mean something to a reader.
 */
import type { ColumnChild, ComponentNode, RowLike, Template } from "../model.js";
import { type Finding, finding } from "./finding.js";

/** Every block of a template in document order, hidden ones (visibility rules, responsive hiding) included. */
export function blocksOf(template: Template): ComponentNode[] {
  const blocks: ComponentNode[] = [];
  const walk = (nodes: readonly (RowLike | ColumnChild)[]): void => {
    for (const node of nodes) {
      if (node.kind === "component") blocks.push(node);
      else if (node.kind === "row") for (const column of node.columns) walk(column.children);
    }
  };
  walk(template.rows);
  return blocks;
}

/** Every block's own findings, located in the document. */
export function blockFindings(template: Template): Finding[] {
  return blocksOf(template).flatMap((node) =>
    node.definition
      .check(node.props)
      .map((found) => finding(found.severity, found.code, [...node.path, "props", ...found.path], found.value, found.message, found.hint)),
  );
}
