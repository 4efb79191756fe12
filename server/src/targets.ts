import { RENDER_TARGETS, type RenderTarget } from "@mailrender/engine";

export { RENDER_TARGETS, type RenderTarget };

/** A key's scope entries: the render targets, or `all` for every one of them. */
export const KEY_TARGETS = [...RENDER_TARGETS, "all"] as const;
export type KeyTarget = RenderTarget | "all";

/** The concrete targets a scope allows (`all` expands to every target, in the engine's order). */
export function effectiveTargets(scope: readonly KeyTarget[]): RenderTarget[] {
  if (scope.includes("all")) return [...RENDER_TARGETS];
  return RENDER_TARGETS.filter((t) => scope.includes(t));
}

/** Sorted, de-duplicated scope; `all` absorbs the rest so the stored scope reads the way it behaves. */
export function normaliseScope(scope: readonly KeyTarget[]): KeyTarget[] {
  if (scope.includes("all")) return ["all"];
  return RENDER_TARGETS.filter((t) => scope.includes(t));
}
