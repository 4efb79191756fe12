/**
 * Why each row, spacer, column and block of a template is shown or hidden for a given context: the
 * studio's visibility panel. The decisions are the render's own (`isVisible`, `evaluateRule`).
 */

import { RenderError } from "../base/diagnostics.js";
import { type Context, evaluateRule, isVisible, type NormalizedContext, normalizeContext } from "../data/visibility.js";
import { DEFAULT_LIMITS } from "../document/limits.js";
import type { ColumnChild, ColumnNode, RowLike } from "../document/model.js";
import type { Visibility, VisibilityRule } from "../schema/common.js";
import { type EngineCore, readTemplate } from "./pipeline.js";

export interface RuleOutcome {
  readonly tag: string;
  readonly operator: string;
  readonly value: string;
  /** The context's value for the tag, or null when the key is missing. */
  readonly actual: string | null;
  readonly passed: boolean;
}

export interface VisibilityDecision {
  readonly id: string;
  /** JSON path into the template document. */
  readonly path: readonly string[];
  readonly kind: "row" | "spacer" | "column" | "component";
  /** The block type, for components. */
  readonly block: string | null;
  readonly visible: boolean;
  /** In words: "no rules", "rules passed (all)", "rules failed (any)", "inside a hidden parent". */
  readonly reason: string;
  readonly match: "all" | "any" | null;
  readonly rules: readonly RuleOutcome[];
  /** Responsive hiding, which the visible set does not decide: the block is in the email but hidden there. */
  readonly hiddenOn: readonly ("desktop" | "mobile")[];
}

function outcome(rule: VisibilityRule, context: NormalizedContext): RuleOutcome {
  return {
    tag: rule.tag,
    operator: rule.operator,
    value: String(rule.value ?? ""),
    actual: context.get(rule.tag.toLowerCase()) ?? null,
    passed: evaluateRule(rule, context),
  };
}

function rulesOf(visibility: Visibility, context: NormalizedContext): RuleOutcome[] {
  return [...visibility.rules, ...visibility.groups.flatMap((group) => group.rules)].map((rule) => outcome(rule, context));
}

/** Every node in document order with its decision; an invalid template throws its RenderError. */
export function explainVisibility(core: EngineCore, json: unknown, context: Context | undefined): VisibilityDecision[] {
  const { result } = readTemplate(core, json, DEFAULT_LIMITS);
  if (!result.template) throw new RenderError("Invalid template", result.issues);
  const normalized = normalizeContext(context);
  const decisions: VisibilityDecision[] = [];

  const visit = (node: RowLike | ColumnNode | ColumnChild, parentVisible: boolean): boolean => {
    const rules = node.condition?.rules;
    const own = rules === undefined ? true : isVisible(rules, normalized);
    const visible = parentVisible && own;
    const props = node.kind === "component" ? (node.props as { desktopHide?: boolean; mobileHide?: boolean }) : {};
    const ruleWord = rules === undefined ? "no rules" : `rules ${own ? "passed" : "failed"} (${rules.match})`;
    decisions.push({
      id: node.id,
      path: [...node.path],
      kind: node.kind === "row-spacer" ? "spacer" : node.kind,
      block: node.kind === "component" ? node.block : null,
      visible,
      reason: parentVisible ? ruleWord : "inside a hidden parent",
      match: rules?.match ?? null,
      rules: rules === undefined ? [] : rulesOf(rules, normalized),
      hiddenOn: [...(props.desktopHide === true ? (["desktop"] as const) : []), ...(props.mobileHide === true ? (["mobile"] as const) : [])],
    });
    return visible;
  };
  const walk = (nodes: readonly (RowLike | ColumnChild)[], parentVisible: boolean): void => {
    for (const node of nodes) {
      const visible = visit(node, parentVisible);
      if (node.kind !== "row") continue;
      for (const column of node.columns) walk(column.children, visit(column, visible));
    }
  };
  walk(result.template.rows, true);
  return decisions;
}
