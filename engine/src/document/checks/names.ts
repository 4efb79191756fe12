/**
 * Unknown names: block types the registry does not hold (the block is left out of the email) and
 * keys no schema reads (the setting is ignored), on the canvas, rows, columns, row spacers and
 * blocks, in their props and the objects inside them, each with the nearest known name. Keys the
 * Maildeno editor writes that this engine does not read are not reported (`IGNORED` below, and each
 * block's `editorKeys`): a template from the editor is never told it is wrong for being one.
 */
import type * as z from "zod/mini";
import { nearestName } from "../../base/nearest.js";
import type { BlockDefinition } from "../../blocks/block.js";
import type { BlockRegistry } from "../../blocks/registry.js";
import { SHARED_PHONE_KEYS } from "../../schema/common.js";
import { canvasObjectSchema, columnStyleSchema, documentHeaderSchema, rowSpacerSchema, rowStyleSchema } from "../schema.js";
import { type Finding, finding } from "./finding.js";
import { isObject, type Json, walkDocument } from "./walk.js";

/**
 * Keys the Maildeno editor writes on nodes that this engine does not read (packages/editor,
 * composables/emailBuilder: core/useEmailBuilderOperations.ts, transform/pipeline/hydrate.ts):
 * a column's gradient (this engine paints a column's colour and image only) and a row spacer's name.
 */
const IGNORED = { column: ["backgroundGradient"], rowSpacer: ["name"] } as const;

/** The structure keys of each node, beside its style keys. */
const STRUCTURE = {
  row: ["id", "type", "columns"],
  column: ["id", "children", "components"],
  rowSpacer: ["id", "type"],
  component: ["id", "type", "componentType", "props"],
} as const;

interface ZodDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodMiniType>;
  readonly catchall?: z.ZodMiniType;
  readonly innerType?: z.ZodMiniType;
  readonly in?: z.ZodMiniType;
  readonly options?: readonly z.ZodMiniType[];
  readonly element?: z.ZodMiniType;
}

const WRAPPERS = new Set(["default", "prefault", "optional", "nullable", "nonoptional", "readonly", "catch"]);

/** A schema's definition under its defaults, optionality and the input side of its pipes. */
function defOf(schema: z.ZodMiniType): ZodDef {
  let def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  for (;;) {
    if (WRAPPERS.has(def.type) && def.innerType) def = defOf(def.innerType);
    else if (def.type === "pipe" && def.in) def = defOf(def.in);
    else return def;
  }
}

/** The keys an object schema (or a union's object alternatives) reads, or undefined when it is no object. */
export function objectKeys(schema: z.ZodMiniType): string[] | undefined {
  const def = defOf(schema);
  if (def.type === "object") return Object.keys(def.shape ?? {});
  if (def.type === "union") {
    const keys = (def.options ?? []).flatMap((option) => objectKeys(option) ?? []);
    return keys.length > 0 ? [...new Set(keys)] : undefined;
  }
  return undefined;
}

interface Owner {
  /** How messages name it: `the canvas`, `a "button" block`. */
  readonly name: string;
  /** Keys not to report at its top level. */
  readonly ignored: readonly string[];
}

class NameCheck {
  readonly findings: Finding[] = [];

  constructor(private readonly registry: BlockRegistry) {}

  unknown(path: readonly string[], key: string, value: unknown, owner: string, known: readonly string[], hint?: string): void {
    const nearest = nearestName(key, known);
    this.findings.push(
      finding(
        "warning",
        "UNKNOWN_PROP",
        [...path, key],
        value,
        `"${key}" is not a setting of ${owner}: it is ignored`,
        hint ?? (nearest ? `Did you mean "${nearest}"?` : `Remove it; spec/template.md lists the settings of ${owner}`),
      ),
    );
  }

  /** Keys of `raw` that `schema` does not read, and the same inside the objects and lists it reads. */
  props(schema: z.ZodMiniType, raw: unknown, path: readonly string[], owner: Owner, block?: BlockDefinition<unknown>): void {
    const def = defOf(schema);
    if (Array.isArray(raw) && def.type === "array" && def.element) {
      const itemOwner = { name: `an entry of ${owner.name}`, ignored: block?.editorKeys.listItems ?? [] };
      const element = def.element;
      for (const [index, item] of raw.entries()) this.props(element, item, [...path, String(index)], itemOwner, block);
      return;
    }
    if (!isObject(raw)) return;
    if (def.type === "union") {
      const objects = (def.options ?? []).filter((option) => objectKeys(option) !== undefined);
      const known = objectKeys(schema) ?? [];
      for (const [key, value] of Object.entries(raw)) if (!known.includes(key)) this.unknown(path, key, value, owner.name, known);
      if (objects.length === 1) this.props(objects[0]!, raw, path, { ...owner, ignored: [] }, block);
      return;
    }
    if (def.type !== "object" || def.shape === undefined) return;
    const known = Object.keys(def.shape);
    for (const [key, value] of Object.entries(raw)) {
      const field = def.shape[key];
      if (field === undefined) {
        if (def.catchall !== undefined || owner.ignored.includes(key)) continue;
        this.unknown(path, key, value, owner.name, known);
      } else if (key === "mobile" && block !== undefined) this.phoneOverrides(block, value, [...path, key], owner.name);
      else this.props(field, value, [...path, key], { name: `${key} of ${owner.name}`, ignored: [] }, block);
    }
  }

  /**
   * A block's phone overrides: `null` is the editor's "not set"; a set key must be one its phone
   * rules apply. The editor offers a few that this engine does not apply (each block's
   * `editorKeys.mobile`): noted as `info`, so that the difference from the editor's preview is known.
   */
  phoneOverrides(block: BlockDefinition<unknown>, raw: unknown, path: readonly string[], owner: string): void {
    if (!isObject(raw)) return;
    const applied: readonly string[] = [...SHARED_PHONE_KEYS, ...Object.keys(block.phone.props ?? {})];
    for (const [key, value] of Object.entries(raw)) {
      if (value === null || value === undefined || applied.includes(key)) continue;
      if (block.editorKeys.mobile?.includes(key)) {
        this.findings.push(
          finding(
            "info",
            "PHONE_OVERRIDE_NOT_APPLIED",
            [...path, key],
            value,
            `The phone override of "${key}" on ${owner} is not applied by this engine: phones show the desktop value`,
            "Set it on desktop, or leave it out (spec/template.md, Responsive props, lists the overrides this engine applies)",
          ),
        );
      } else this.unknown(path, key, value, `the phone overrides of ${owner}`, applied);
    }
  }

  /** A node's own keys: its style schema's, its structure's and what the editor writes. */
  node(schema: z.ZodMiniType, raw: Json, path: readonly string[], owner: string, structure: readonly string[], ignored: readonly string[] = []): void {
    this.props(schema, raw, path, { name: owner, ignored: [...structure, ...ignored] });
  }

  block(raw: Json, path: readonly string[], blockType: string, definition: BlockDefinition<unknown> | undefined, typeKey: string): void {
    if (definition === undefined) {
      const nearest = nearestName(blockType, Object.keys(this.registry));
      this.findings.push(
        finding(
          "error",
          "UNKNOWN_BLOCK_TYPE",
          [...path, typeKey],
          blockType,
          `Unknown block type "${blockType}": the block is left out of the email`,
          nearest ? `Did you mean "${nearest}"?` : `The block types are: ${Object.keys(this.registry).join(", ")}`,
        ),
      );
      return;
    }
    const owner = `a "${blockType}" block`;
    const propKeys = objectKeys(definition.props) ?? [];
    for (const [key, value] of Object.entries(raw)) {
      if ((STRUCTURE.component as readonly string[]).includes(key)) continue;
      const belongsInProps = propKeys.includes(key);
      this.unknown(path, key, value, owner, STRUCTURE.component, belongsInProps ? `"${key}" is one of the block's props: move it into props` : undefined);
    }
    this.props(definition.props, raw["props"], [...path, "props"], { name: owner, ignored: definition.editorKeys.props ?? [] }, definition);
  }
}

/** Unknown block types and keys of a template document, as it is written (valid or not). */
export function nameFindings(json: unknown, registry: BlockRegistry): Finding[] {
  const check = new NameCheck(registry);
  if (!isObject(json)) return [];
  const header = objectKeys(documentHeaderSchema()) ?? [];
  for (const [key, value] of Object.entries(json)) if (!header.includes(key)) check.unknown([], key, value, "the template", header);
  walkDocument(json, registry, {
    canvas: (raw, path) => check.props(canvasObjectSchema(), raw, path, { name: "the canvas", ignored: [] }),
    row: (raw, path) => check.node(rowStyleSchema(), raw, path, "a row", STRUCTURE.row),
    column: (raw, path) => check.node(columnStyleSchema(), raw, path, "a column", STRUCTURE.column, IGNORED.column),
    rowSpacer: (raw, path) => check.node(rowSpacerSchema(), raw, path, "a row spacer", STRUCTURE.rowSpacer, IGNORED.rowSpacer),
    block: (raw, path, type, definition, typeKey) => check.block(raw, path, type, definition, typeKey),
  });
  return check.findings;
}
