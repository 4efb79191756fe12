/**
 * What a react-email component (option `componentProps`) adds to the target's module: the props
 * interface (exactly the template's merge tags, in the group each reads, and its context keys), the
 * helpers it renders with, and the function's head that reads the props.
 */

import type { MergeTagGroup } from "../../data/merge-tags.js";
import type { Template } from "../../document/model.js";
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

function contextKeys(template: Template): string[] {
  const keys = new Set<string>();
  for (const { rules } of template.conditions) {
    for (const rule of rules.rules) keys.add(rule.tag);
    for (const group of rules.groups) for (const rule of group.rules) keys.add(rule.tag);
  }
  return [...keys];
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
  const keys = contextKeys(template);
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
