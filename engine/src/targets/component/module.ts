/**
 * What a react-email component (option `componentProps`) adds to the target's module: the props
 * interface (exactly the template's merge tags, in the group each reads, and its context keys), the
 * helpers it renders with, and the function's head that reads the props.
 */

import { RenderError } from "../../base/diagnostics.js";
import type { MergeTagGroup } from "../../data/merge-tags.js";
import { type ColumnChild, contextKeysOf, type Path, type RowLike, type Template } from "../../document/model.js";
import type { Slot, SlotPosition } from "../../markup/emitter.js";
import { componentRuntime, conditionData } from "./runtime.js";

const READS_FIRST: Record<SlotPosition, MergeTagGroup> = { text: "text", attr: "attr", url: "url", "url-part": "url" };

/** Text for a doc comment: `*\/` cannot end it. */
const commentSafe = (text: string): string => text.replace(/\*\//g, "*\\/");

/** The interface's members for the tags: the group a tag is read from, its name and its defaults. */
function tagMembers(slots: readonly Slot[]): string[] {
  const groups = new Map<MergeTagGroup, Map<string, Set<string>>>();
  for (const { ref, position } of slots) {
    const group = ref.group ?? READS_FIRST[position];
    const names = groups.get(group) ?? new Map<string, Set<string>>();
    groups.set(group, names);
    const defaults = names.get(ref.name) ?? new Set<string>();
    names.set(ref.name, defaults);
    if (ref.fallback !== undefined) defaults.add(ref.fallback);
  }
  return [...groups].map(([group, names]) => {
    const members = [...names].map(([name, defaults]) => {
      const doc = defaults.size === 0 ? "" : `/** @default ${commentSafe([...defaults].map((d) => JSON.stringify(d)).join(" | "))} */\n`;
      return `${doc}${JSON.stringify(name)}?: TagValue;`;
    });
    return `${group}?: {\n${members.join("\n")}\n};`;
  });
}

export interface ComponentParts {
  /** Between the imports and the component: the props interface and the helpers. */
  readonly preamble: string;
  /** The function's parameter list. */
  readonly parameters: string;
  /** The first statements of its body. */
  readonly head: readonly string[];
}

/** `slots` are every tag the component writes (every node rendered, whatever its rules). */
export function componentParts(template: Template, name: string, slots: readonly Slot[]): ComponentParts {
  const conditions = template.conditions.map((condition) => conditionData(condition.rules));
  const keys = contextKeysOf(template);
  const props = [
    `/** The data of one recipient: merge-tag values by group, and the context the visibility rules read (keys match in any case). */`,
    `export interface ${name}Props {`,
    `merge_tags?: {`,
    ...tagMembers(slots),
    `};`,
    `context?: {`,
    ...keys.map((key) => `${JSON.stringify(key)}?: TagValue | null;`),
    `};`,
    `}`,
  ];
  const head = [
    ...(slots.length > 0 ? ["const tags = props.merge_tags ?? {};"] : []),
    ...(conditions.length > 0 ? ["const shown = shownFor(props.context ?? {});"] : []),
  ];
  return {
    preamble: `${componentRuntime(slots.length > 0, conditions)}${props.join("\n")}\n`,
    parameters: head.length > 0 ? `props: ${name}Props = {}` : `_props: ${name}Props = {}`,
    head,
  };
}

/** How many times the nodes a component writes may outnumber the template's limit on nodes. */
export const COMPONENT_NODE_FACTOR = 4;

/**
 * Refuses a template whose component would write more than COMPONENT_NODE_FACTOR × `maxNodes`
 * nodes: a row with n conditional columns is written 2ⁿ times, with everything it holds, so a few
 * such rows nested in each other multiply. Counted before anything is written.
 */
export function checkComponentSize(template: Template, maxNodes: number): void {
  const max = maxNodes * COMPONENT_NODE_FACTOR;
  let widest: { path: Path; columns: number } = { path: [], columns: 0 };
  const written = (node: RowLike | ColumnChild): number => {
    if (node.kind !== "row") return 1;
    const conditional = node.columns.filter((column) => column.condition !== undefined).length;
    if (conditional > widest.columns) widest = { path: node.path, columns: conditional };
    const inside = node.columns.reduce((sum, column) => sum + 1 + column.children.reduce((n, child) => n + written(child), 0), 1);
    return Math.min(2 ** conditional * inside, Number.MAX_SAFE_INTEGER);
  };
  const count = template.rows.reduce((sum, row) => sum + written(row), 0);
  if (count <= max) return;
  throw new RenderError(`Component too large: it would write ${count} nodes, more than ${max}`, [
    {
      loc: [...widest.path],
      msg: `A component writes a row once per set of its conditional columns shown (this row has ${widest.columns}); the template's component would write ${count} nodes, more than ${COMPONENT_NODE_FACTOR} × the node limit (${max})`,
      type: "component_too_large",
    },
  ]);
}
