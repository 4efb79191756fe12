/**
 * The content checks of every block in a template (each block's `check`, blocks/block.ts), with
 * paths into the document: what a template needs so that its blocks mean something to a reader.
 */
import type { BlockFinding } from "../blocks/block.js";
import type { ColumnChild, RowLike, Template } from "./model.js";

/** A block's finding, located in the template. */
export interface Finding extends BlockFinding {
  /** JSON path into the template document: the block's path, `props`, then the path in its props. */
  readonly path: readonly string[];
  /** The block's type and id. */
  readonly block: string;
  readonly id: string;
}

/** Every block's findings, in document order; hidden blocks (visibility rules, responsive hiding) included. */
export function blockFindings(template: Template): Finding[] {
  const findings: Finding[] = [];
  const walk = (nodes: readonly (RowLike | ColumnChild)[]): void => {
    for (const node of nodes) {
      if (node.kind === "component") {
        for (const found of node.definition.check(node.props))
          findings.push({ ...found, path: [...node.path, "props", ...found.path], block: node.block, id: node.id });
      } else if (node.kind === "row") for (const column of node.columns) walk(column.children);
    }
  };
  walk(template.rows);
  return findings;
}
