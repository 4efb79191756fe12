/**
 * A component is for every recipient: the options that describe one recipient's email do not fit
 * it, and asking for both is an error naming the option (never one of them silently ignored).
 * `minify` and the limits apply as to any render.
 */

import type { ValidationIssue } from "../../base/diagnostics.js";
import type { DynamicData, RenderOptions } from "../../base/types.js";

/** The library's option names; the CLI and the protocol name them their own way. */
export type ComponentConflict = "target" | "dynamicData" | "strict" | "plainText";

/** Why each option does not fit, given the option's name and componentProps' own. */
const REASONS: Record<ComponentConflict, (name: string, self: string) => string> = {
  target: (name, self) => `${self} writes a react-email component: ${name} must be react-email`,
  dynamicData: (name, self) => `${self} writes a component for every recipient: pass a recipient's merge tags and context to it as props, not in ${name}`,
  strict: (name, self) =>
    `${self} cannot check a recipient's merge tags with ${name}: the component gets them as props (a tag without a value renders its default)`,
  plainText: (name, self) => `${self} writes no plain text (${name}): the plain text is one recipient's; render without ${self} for it`,
};

/** How a layer names the options: each conflicting one (its path) and componentProps itself. */
export type OptionNames = Readonly<Record<ComponentConflict, readonly string[]>> & { readonly self: string };

const hasEntries = (values: object | undefined): boolean => values !== undefined && values !== null && Object.keys(values).length > 0;

/** Data for one recipient: any merge-tag value or context entry (an empty object is none). */
function holdsData(data: DynamicData | undefined): boolean {
  const tags = data?.merge_tags;
  return hasEntries(data?.context) || hasEntries(tags?.text) || hasEntries(tags?.url) || hasEntries(tags?.attr);
}

const LIBRARY_NAMES: OptionNames = {
  self: "componentProps",
  target: ["target"],
  dynamicData: ["dynamicData"],
  strict: ["strict"],
  plainText: ["plainText"],
};

/**
 * The options given with `componentProps` that it cannot honour, as issues located at each option
 * by the names `names` gives it (the library's by default); empty when they fit.
 */
export function componentOptionConflicts(options: RenderOptions, names: OptionNames = LIBRARY_NAMES): ValidationIssue[] {
  const conflicts: ComponentConflict[] = [];
  if (options.target !== "react-email") conflicts.push("target");
  if (holdsData(options.dynamicData)) conflicts.push("dynamicData");
  if (options.strict === true) conflicts.push("strict");
  if (options.plainText === true) conflicts.push("plainText");
  return conflicts.map((conflict) => ({
    loc: names[conflict],
    msg: REASONS[conflict](names[conflict].join("."), names.self),
    type: "component_props_conflict",
  }));
}
