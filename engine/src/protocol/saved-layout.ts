/**
 * Saved layouts (spec/README.md, "Saved layouts"): what the engine compiled for a template, target
 * and minification, as a text a client keeps on disk and hands to a later process, which then
 * renders a new recipient at the cost of start-up plus substitution.
 *
 *   mailrender-layout <CRC-32 of the body, hex>\n<body: JSON>
 *
 * The body names the engine and protocol versions and the SHA-256 of the template's JSON text; a
 * layout is used only when all three match and its checksum holds, and is otherwise ignored (the
 * template is compiled again). Its parts are markup written as is, so the checksum is what keeps a
 * garbled file out of an email; the shape is checked too, so that no layout an engine did not write
 * (or wrote differently) can make a recipient's value land unescaped.
 */
import type { RenderWarning } from "../base/diagnostics.js";
import { RENDER_TARGETS, type RenderTarget } from "../base/types.js";
import { MERGE_TAG_GROUPS, type MergeTagGroup } from "../data/merge-tags.js";
import type { Condition } from "../document/model.js";
import type { KnownLayout, LayoutEntry } from "../engine/pipeline.js";
import type { Slot, SlotPosition } from "../markup/emitter.js";
import type { CompiledOutput } from "../markup/substitute.js";
import { VISIBILITY_OPERATORS, type Visibility, type VisibilityRule } from "../schema/common.js";
import { PROTOCOL_VERSION } from "./constants.js";

const HEADER = "mailrender-layout ";

/** Visible sets a layout keeps (the most recently compiled): a template with many outcomes gains a bounded file. */
export const SAVED_LAYOUT_MAX_OUTPUTS = 16;

/** What a saved layout must match to be used: this engine, and the template of the request. */
export interface LayoutBinding {
  readonly engineVersion: string;
  readonly templateSha256: string;
}

export type LayoutCheck = { readonly ok: true; readonly layout: KnownLayout } | { readonly ok: false; readonly reason: string };

interface SlotWire {
  readonly name: string;
  readonly group?: MergeTagGroup;
  readonly default?: string;
  readonly source: string;
  readonly position: SlotPosition;
  readonly path: readonly string[];
}

interface OutputWire {
  readonly visible: string;
  readonly parts: readonly string[];
  readonly slot_ids: readonly number[];
  readonly slots: readonly SlotWire[];
}

/** The text of a layout holding `entry`'s output and, after it, those of `earlier` it does not replace. */
export function encodeSavedLayout(entry: LayoutEntry, earlier: KnownLayout | undefined, binding: LayoutBinding, crc32: (text: string) => string): string {
  const outputs: OutputWire[] = [outputWire(entry.visible, entry.compiled)];
  const sameRender = earlier?.target === entry.target && earlier.minify === entry.minify;
  for (const [visible, compiled] of sameRender ? earlier.outputs : []) {
    if (outputs.length === SAVED_LAYOUT_MAX_OUTPUTS) break;
    if (visible !== entry.visible) outputs.push(outputWire(visible, compiled));
  }
  const body = JSON.stringify({
    engine_version: binding.engineVersion,
    protocol_version: PROTOCOL_VERSION,
    template_sha256: binding.templateSha256,
    target: entry.target,
    minify: entry.minify,
    template_id: entry.templateId,
    nodes: entry.nodes,
    warnings: entry.warnings.map((w) => ({ code: w.code, message: w.message, path: w.path })),
    conditions: entry.conditions.map((c) => ({ slot: c.slot, rules: c.rules })),
    outputs,
  });
  return `${HEADER}${crc32(body)}\n${body}`;
}

function outputWire(visible: string, compiled: CompiledOutput): OutputWire {
  return {
    visible,
    parts: compiled.parts,
    slot_ids: compiled.slotIds,
    slots: compiled.slots.map(({ ref, position, path }) => ({
      name: ref.name,
      ...(ref.group === undefined ? {} : { group: ref.group }),
      ...(ref.fallback === undefined ? {} : { default: ref.fallback }),
      source: ref.source,
      position,
      path,
    })),
  };
}

/** The layout in `text` if it is intact, written by this engine and protocol, for this template; else why not. */
export function decodeSavedLayout(text: string, binding: LayoutBinding, crc32: (text: string) => string): LayoutCheck {
  const newline = text.indexOf("\n");
  if (!text.startsWith(HEADER) || newline === -1) return refused("not a saved layout");
  const body = text.slice(newline + 1);
  if (text.slice(HEADER.length, newline) !== crc32(body)) return refused("checksum mismatch");
  let wire: unknown;
  try {
    wire = JSON.parse(body);
  } catch {
    return refused("body is not JSON");
  }
  if (!isRecord(wire)) return refused("body is not an object");
  if (wire["engine_version"] !== binding.engineVersion) return refused("another engine version");
  if (wire["protocol_version"] !== PROTOCOL_VERSION) return refused("another protocol version");
  if (wire["template_sha256"] !== binding.templateSha256) return refused("another template");
  const layout = readBody(wire);
  return layout === undefined ? refused("malformed") : { ok: true, layout };
}

function refused(reason: string): LayoutCheck {
  return { ok: false, reason };
}

function readBody(wire: Record<string, unknown>): KnownLayout | undefined {
  const { target, minify, template_id: templateId, nodes, warnings, conditions, outputs } = wire;
  if (!RENDER_TARGETS.includes(target as RenderTarget) || typeof minify !== "boolean" || typeof templateId !== "string" || !isCount(nodes)) return undefined;
  if (!isArrayOf(warnings, isWarning) || !isArrayOf(conditions, isCondition) || !isArrayOf(outputs, isOutput)) return undefined;
  const flavor = target === "react-email" ? "jsx" : "markup";
  const byVisible = new Map<string, CompiledOutput>();
  for (const output of outputs) {
    if (output.visible.length !== conditions.length) return undefined;
    const slots: Slot[] = output.slots.map((slot) => ({
      ref: { name: slot.name, group: slot.group, fallback: slot.default, source: slot.source },
      position: slot.position,
      path: slot.path,
    }));
    byVisible.set(output.visible, { parts: output.parts, slotIds: output.slot_ids, slots, flavor });
  }
  return { templateId, target: target as RenderTarget, minify, nodes, warnings, conditions, outputs: byVisible };
}

// Shape checks: each says whether a JSON value is what an engine of this version writes.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isArrayOf<T>(value: unknown, item: (value: unknown) => value is T): value is T[] {
  return Array.isArray(value) && value.every(item);
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isWarning(value: unknown): value is RenderWarning {
  // Any code: a warning's code is reported, never acted on.
  return isRecord(value) && isString(value["code"]) && isString(value["message"]) && isArrayOf(value["path"], isString);
}

function isCondition(value: unknown): value is Condition {
  return isRecord(value) && isCount(value["slot"]) && isVisibility(value["rules"]);
}

function isVisibility(value: unknown): value is Visibility {
  return (
    isRecord(value) &&
    typeof value["enabled"] === "boolean" &&
    isMatch(value["match"]) &&
    isArrayOf(value["rules"], isRule) &&
    isArrayOf(
      value["groups"],
      (group): group is Visibility["groups"][number] => isRecord(group) && isMatch(group["match"]) && isArrayOf(group["rules"], isRule),
    )
  );
}

function isMatch(value: unknown): value is "all" | "any" {
  return value === "all" || value === "any";
}

function isRule(value: unknown): value is VisibilityRule {
  if (!isRecord(value) || !isString(value["tag"]) || !(VISIBILITY_OPERATORS as readonly unknown[]).includes(value["operator"])) return false;
  const ruleValue = value["value"];
  return (
    (isString(ruleValue) || typeof ruleValue === "number" || typeof ruleValue === "boolean") &&
    (value["alwaysTrue"] === undefined || value["alwaysTrue"] === true)
  );
}

const POSITIONS: readonly unknown[] = ["text", "attr", "url", "url-part"] satisfies readonly SlotPosition[];

function isSlot(value: unknown): value is SlotWire {
  return (
    isRecord(value) &&
    isString(value["name"]) &&
    (value["group"] === undefined || (MERGE_TAG_GROUPS as readonly unknown[]).includes(value["group"])) &&
    (value["default"] === undefined || isString(value["default"])) &&
    isString(value["source"]) &&
    POSITIONS.includes(value["position"]) &&
    isArrayOf(value["path"], isString)
  );
}

/** Parts around slot tokens, each token naming one of the output's slots. */
function isOutput(value: unknown): value is OutputWire {
  if (!isRecord(value) || !isString(value["visible"]) || !/^[01]*$/.test(value["visible"])) return false;
  const { parts, slot_ids: slotIds, slots } = value;
  if (!isArrayOf(parts, isString) || !isArrayOf(slots, isSlot) || !isArrayOf(slotIds, isCount)) return false;
  return parts.length === slotIds.length + 1 && slotIds.every((id) => id < slots.length);
}
