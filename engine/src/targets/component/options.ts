/**
 * A component is for every recipient: the options that describe one recipient's email do not fit
 * it, and asking for both is an error naming the option (never one of them silently ignored).
 * `minify` and the limits apply as to any render.
 */

import type { ValidationIssue } from "../../base/diagnostics.js";
import type { DynamicData, RenderOptions } from "../../base/types.js";

/** The library's option names; the protocol maps them to its own (src/executable/handler.ts). */
export type ComponentConflict = "target" | "dynamicData" | "strict" | "plainText";

const REASONS: Record<ComponentConflict, string> = {
  target: "componentProps writes a react-email component: it needs target react-email",
  dynamicData: "componentProps writes a component for every recipient: pass a recipient's merge tags and context to it as props, not as dynamicData",
  strict: "componentProps cannot check a recipient's merge tags (the component gets them as props, and tags without a value render their default or nothing)",
  plainText: "componentProps writes no plain text: the plain text is one recipient's (render without componentProps for it)",
};

const hasEntries = (values: object | undefined): boolean => values !== undefined && values !== null && Object.keys(values).length > 0;

/** Data for one recipient: any merge-tag value or context entry (an empty object is none). */
function holdsData(data: DynamicData | undefined): boolean {
  const tags = data?.merge_tags;
  return hasEntries(data?.context) || hasEntries(tags?.text) || hasEntries(tags?.url) || hasEntries(tags?.attr);
}

/** The options given with `componentProps` that it cannot honour. */
export function componentConflicts(options: RenderOptions): ComponentConflict[] {
  const conflicts: ComponentConflict[] = [];
  if (options.target !== "react-email") conflicts.push("target");
  if (holdsData(options.dynamicData)) conflicts.push("dynamicData");
  if (options.strict === true) conflicts.push("strict");
  if (options.plainText === true) conflicts.push("plainText");
  return conflicts;
}

/** The conflicts as issues located at the option, by the names `names` gives (the library's by default). */
export function componentOptionConflicts(
  options: RenderOptions,
  names: Readonly<Record<ComponentConflict, readonly string[]>> = {
    target: ["target"],
    dynamicData: ["dynamicData"],
    strict: ["strict"],
    plainText: ["plainText"],
  },
): ValidationIssue[] {
  return componentConflicts(options).map((conflict) => ({ loc: names[conflict], msg: REASONS[conflict], type: "component_props_conflict" }));
}
