/** The parsed document: defaults applied, legacy shapes read, each node knowing its path. */

import type { BlockDefinition } from "../blocks/block.js";
import type { Gradient, Visibility } from "../schema/common.js";
import type { DarkColors } from "../schema/dark.js";
import type { Canvas, ColumnStyle, RowStyle } from "./schema.js";

export type Path = readonly string[];

/** A visibility rule set that can hide its node; `slot` is its bit in the visible-set key. */
export interface Condition {
  readonly rules: Visibility;
  readonly slot: number;
}

interface NodeBase {
  readonly id: string;
  readonly path: Path;
  readonly condition: Condition | undefined;
}

export interface RowNode extends NodeBase {
  readonly kind: "row";
  readonly style: RowStyle;
  readonly columns: readonly ColumnNode[];
}

export interface SpacerNode extends NodeBase {
  readonly kind: "row-spacer";
  readonly height: number;
  readonly backgroundColor: string;
  readonly backgroundGradient: Gradient;
  readonly dark: DarkColors | undefined;
}

export interface ComponentNode extends NodeBase {
  readonly kind: "component";
  /** The block type, as the template names it. */
  readonly block: string;
  /** Its definition in the registry the template was read with: every walker takes the block from here. */
  readonly definition: BlockDefinition<unknown>;
  /** Its props, parsed by the definition's schema (defaults applied). */
  readonly props: unknown;
}

export interface ColumnNode extends NodeBase {
  readonly kind: "column";
  readonly width: number | undefined;
  readonly style: ColumnStyle;
  readonly children: readonly ColumnChild[];
}

/** Whether a node is in the recipient's visible set (its visibility rules, for their context). */
export type Shown = (node: { readonly condition: { readonly slot: number } | undefined }) => boolean;

export type RowLike = RowNode | SpacerNode;
export type ColumnChild = RowNode | SpacerNode | ComponentNode;

export interface Template {
  readonly id: string;
  readonly name: string;
  readonly schemaVersion: string;
  readonly canvas: Canvas;
  readonly rows: readonly RowLike[];
  /** Every enabled visibility rule set in the document, indexed by its `slot`. */
  readonly conditions: readonly Condition[];
}

/** The context keys a template's visibility rules read, in document order, each once. */
export function contextKeysOf(template: Template): string[] {
  const keys = new Set<string>();
  for (const { rules } of template.conditions) {
    for (const rule of rules.rules) keys.add(rule.tag);
    for (const group of rules.groups) for (const rule of group.rules) keys.add(rule.tag);
  }
  return [...keys];
}
