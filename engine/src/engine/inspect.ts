/**
 * What a template expects from its data: the merge tags it uses (with the position each lands in
 * and its default) and the context keys its visibility rules read. Users run this to catch a typo
 * in a tag or key before sending.
 */

import { RenderError, type RenderWarning, type ValidationIssue } from "../base/diagnostics.js";
import type { MergeTagGroup } from "../data/merge-tags.js";
import { DEFAULT_LIMITS } from "../document/limits.js";
import { contextKeysOf } from "../document/model.js";
import type { ParseResult } from "../document/parse.js";
import { Emitter, type SlotPosition } from "../markup/emitter.js";
import { DocumentContext } from "../targets/context.js";
import { renderMjmlDocument } from "../targets/mjml.js";
import { type EngineCore, readTemplate } from "./pipeline.js";

export interface InspectedMergeTag {
  /** The tag's name, without group. */
  readonly name: string;
  /** The group named in the tag, or null for a bare tag. */
  readonly group: MergeTagGroup | null;
  /** The group a bare tag reads first (where it stands), or its own group. */
  readonly reads: MergeTagGroup;
  readonly positions: readonly SlotPosition[];
  readonly default: string | null;
}

export interface InspectResult {
  readonly valid: boolean;
  readonly templateId: string | null;
  readonly mergeTags: readonly InspectedMergeTag[];
  readonly contextKeys: readonly string[];
  readonly issues: readonly ValidationIssue[];
  readonly warnings: readonly RenderWarning[];
}

const GROUP_FOR_POSITION: Record<SlotPosition, MergeTagGroup> = { text: "text", attr: "attr", url: "url", "url-part": "url" };

export function inspect(core: EngineCore, json: unknown): InspectResult {
  let result: ParseResult;
  try {
    result = readTemplate(core, json, DEFAULT_LIMITS).result;
  } catch (error) {
    if (error instanceof RenderError) return { valid: false, templateId: null, mergeTags: [], contextKeys: [], issues: error.issues, warnings: [] };
    throw error;
  }
  const template = result.template;
  if (!template) return { valid: false, templateId: null, mergeTags: [], contextKeys: [], issues: result.issues, warnings: result.warnings };
  // Rendering every node (nothing hidden) records every tag with the position it lands in.
  const out = new Emitter("markup");
  renderMjmlDocument(new DocumentContext(template, out, () => true, core.content));
  const tags = new Map<string, { name: string; group: MergeTagGroup | null; reads: MergeTagGroup; positions: Set<SlotPosition>; default: string | null }>();
  for (const { ref, position } of out.slots) {
    const key = `${ref.group ?? ""}.${ref.name}`;
    const entry = tags.get(key) ?? {
      name: ref.name,
      group: ref.group ?? null,
      reads: ref.group ?? GROUP_FOR_POSITION[position],
      positions: new Set<SlotPosition>(),
      default: ref.fallback ?? null,
    };
    entry.positions.add(position);
    tags.set(key, entry);
  }
  return {
    valid: true,
    templateId: template.id,
    mergeTags: [...tags.values()].map((t) => ({ ...t, positions: [...t.positions] })),
    contextKeys: contextKeysOf(template),
    issues: [],
    warnings: result.warnings,
  };
}
