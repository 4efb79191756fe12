/**
 * Reads a template document: applies the implicit defaults, reads both the current and the legacy
 * component/column shapes, checks nesting, and collects every problem (not the first) as issues
 * whose `loc` is the path into the document.
 */
import type * as z from "zod/mini";
import type { RenderWarning, ValidationIssue } from "../base/diagnostics.js";
import type { BlockDefinition } from "../blocks/block.js";
import { BLOCKS, type BlockRegistry, blockOf } from "../blocks/registry.js";
import { isUnsafeAuthorUrl } from "../data/escape.js";
import { meaninglessRuleReason } from "../data/visibility.js";
import { ContentHtml } from "../markup/content.js";
import { VISIBILITY_OPERATOR_ALIASES, type Visibility, type VisibilityRule } from "../schema/common.js";
import { type Field, type FieldKind, fieldsOf } from "../schema/editor.js";
import { fastParse, INVALID } from "../schema/fast-parse.js";
import { toValidationIssues } from "./issues.js";
import type { ColumnChild, ColumnNode, ComponentNode, Condition, Path, RowLike, RowNode, SpacerNode, Template } from "./model.js";
import { columnStyleSchema, documentHeaderSchema, MAX_NESTING_DEPTH, rowSpacerSchema, rowStyleSchema } from "./schema.js";

export interface ParseResult {
  readonly template: Template | undefined;
  readonly issues: ValidationIssue[];
  readonly warnings: RenderWarning[];
}

type Json = Record<string, unknown>;

/** Which of a block's props hold URLs (links, images) and content HTML, as its editor description says. */
interface PropKinds {
  readonly urls: readonly string[];
  /** Lists (menu items, social platforms) and the URL keys of their entries. */
  readonly lists: readonly { readonly prop: string; readonly urls: readonly string[] }[];
  /** Content HTML, which renders as its email-safe subset. */
  readonly content: readonly string[];
}

const URL_KINDS: ReadonlySet<FieldKind> = new Set(["url", "imageUrl"]);
const propKindsByBlock = new WeakMap<BlockDefinition<unknown>, PropKinds>();

function propKinds(block: BlockDefinition<unknown>): PropKinds {
  let kinds = propKindsByBlock.get(block);
  if (kinds === undefined) {
    // One loop over the fields (each array method's callback is a call per field in QuickJS).
    const urlsOf = (list: readonly Field[]) => {
      const urls: string[] = [];
      for (const f of list) if (URL_KINDS.has(f.kind)) urls.push(f.prop);
      return urls;
    };
    const lists: { prop: string; urls: readonly string[] }[] = [];
    const content: string[] = [];
    const fields = fieldsOf(block.editor);
    for (const f of fields) {
      if (f.kind === "entries") lists.push({ prop: f.prop, urls: urlsOf(f.fields) });
      else if (f.kind === "richText") content.push(f.prop);
    }
    kinds = { urls: urlsOf(fields), lists, content };
    propKindsByBlock.set(block, kinds);
  }
  return kinds;
}

/** Where a node's visibility object is, below the node or below its props. */
const VISIBILITY = ["visibility"] as const;
const PROPS_VISIBILITY = ["props", "visibility"] as const;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

class Reader {
  constructor(
    private readonly registry: BlockRegistry,
    private readonly content: ContentHtml,
  ) {}

  readonly issues: ValidationIssue[] = [];
  readonly warnings: RenderWarning[] = [];
  readonly conditions: Condition[] = [];

  /** `value` read by `schema`; zod itself runs only when the value is invalid, to report why. */
  parse<S extends z.ZodMiniType>(schema: S, value: unknown, path: Path): z.output<S> | undefined {
    const fast = fastParse(schema, value);
    if (fast !== INVALID) return fast;
    const result = schema.safeParse(value, { reportInput: true });
    if (result.success) return result.data;
    this.issues.push(...toValidationIssues(result.error, path));
    return undefined;
  }

  issue(loc: Path, msg: string, type: string): void {
    this.issues.push({ loc: [...loc], msg, type });
  }

  /**
   * The visibility object's path is `at` then `within` (made only for a condition: most nodes have
   * none); `raw` is its JSON, for what parsing normalises away.
   */
  condition(visibility: Visibility | undefined, at: Path, within: readonly string[], raw: unknown): Condition | undefined {
    if (!visibility?.enabled) return undefined;
    if (visibility.rules.length === 0 && visibility.groups.length === 0) return undefined;
    const path = [...at, ...within];
    this.matchWarning(raw, path);
    this.ruleWarnings(visibility.rules, rawRules(raw), [...path, "rules"]);
    visibility.groups.forEach((group, index) => {
      const rawGroup = isObject(raw) && Array.isArray(raw["groups"]) ? raw["groups"][index] : undefined;
      this.matchWarning(rawGroup, [...path, "groups", String(index)]);
      this.ruleWarnings(group.rules, rawRules(rawGroup), [...path, "groups", String(index), "rules"]);
    });
    const condition = { rules: visibility, slot: this.conditions.length };
    this.conditions.push(condition);
    return condition;
  }

  /**
   * Author-written URL props with a scheme other than http, https, mailto or tel are refused as a
   * merge value would be: the prop reads as empty (no link, no image) and a warning names its path.
   */
  refuseUnsafeUrls(props: Json, keys: readonly string[], path: Path): void {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const value = props[key];
      if (typeof value === "string" && isUnsafeAuthorUrl(value)) {
        props[key] = "";
        this.warnings.push({ code: "UNSAFE_URL", message: `URL without an allowed scheme (http, https, mailto, tel) was dropped`, path: [...path, key] });
      }
    }
  }

  /** `match` other than exactly "all"/"any" reads as "all", as in the editor and its engine. */
  matchWarning(raw: unknown, path: Path): void {
    const match = isObject(raw) ? raw["match"] : undefined;
    if (typeof match === "string" && match !== "all" && match !== "any") {
      this.warnings.push({
        code: "VISIBILITY_SPELLING",
        message: `match "${match}" is read as "all", as the Maildeno editor and engine read it; write "all" or "any"`,
        path: [...path, "match"],
      });
    }
  }

  ruleWarnings(rules: readonly VisibilityRule[], raw: readonly unknown[], path: Path): void {
    rules.forEach((rule, index) => {
      const rulePath = [...path, String(index)];
      const reason = meaninglessRuleReason(rule);
      if (reason) this.warnings.push({ code: "MEANINGLESS_VISIBILITY_RULE", message: `Visibility rule ${reason}`, path: rulePath });
      const operator = raw[index];
      const written = isObject(operator) && typeof operator["operator"] === "string" ? operator["operator"].trim().toLowerCase() : "";
      if ("alwaysTrue" in rule) {
        this.warnings.push({
          code: "VISIBILITY_SPELLING",
          message: `Operator "${String(isObject(operator) ? operator["operator"] : "")}" is not spelled in lower case: the Maildeno editor and engine do not know it and treat the rule as true, and so does this engine; write "${written}"`,
          path: [...rulePath, "operator"],
        });
      } else if (Object.hasOwn(VISIBILITY_OPERATOR_ALIASES, written)) {
        this.warnings.push({
          code: "VISIBILITY_OPERATOR_ALIAS",
          message: `Operator "${written}" is read as "${rule.operator}"; the Maildeno engine does not know it and treats the rule as true, so write "${rule.operator}"`,
          path: [...rulePath, "operator"],
        });
      }
    });
  }

  rows(value: unknown[], path: Path, depth: number): RowLike[] {
    const rows: RowLike[] = [];
    for (let index = 0; index < value.length; index++) {
      const node = this.rowLike(value[index], [...path, String(index)], depth);
      if (node) rows.push(node);
    }
    return rows;
  }

  /** A top-level entry: a row (with or without `type`) or a row spacer. */
  rowLike(raw: unknown, path: Path, depth: number): RowLike | undefined {
    if (!isObject(raw)) return void this.issue(path, "Input should be a valid object", "model_type");
    if (raw["type"] === "row-spacer") return this.spacer(raw, path);
    if (raw["type"] === undefined || raw["type"] === "row") return this.row(raw, path, depth);
    return void this.issue([...path, "type"], `Input should be "row" or "row-spacer"`, "literal_error");
  }

  row(raw: Json, path: Path, depth: number): RowNode | undefined {
    if (depth > MAX_NESTING_DEPTH) {
      return void this.issue(path, `Rows nest at most ${MAX_NESTING_DEPTH} levels deep`, "nesting_too_deep");
    }
    const style = this.parse(rowStyleSchema(), raw, path);
    const columnsRaw = raw["columns"] ?? [];
    if (!Array.isArray(columnsRaw)) return void this.issue([...path, "columns"], "Input should be a valid array", "list_type");
    const columns: ColumnNode[] = [];
    for (let index = 0; index < columnsRaw.length; index++) {
      const column = this.column(columnsRaw[index], [...path, "columns", String(index)], depth);
      if (column) columns.push(column);
    }
    if (!style) return undefined;
    return { kind: "row", id: idOf(raw, path), path, condition: this.condition(style.visibility, path, VISIBILITY, raw["visibility"]), style, columns };
  }

  spacer(raw: Json, path: Path): SpacerNode | undefined {
    const parsed = this.parse(rowSpacerSchema(), raw, path);
    if (!parsed) return undefined;
    if (parsed.height === undefined || parsed.height <= 0) {
      this.warnings.push({ code: "EMPTY_ROW_SPACER", message: "Row spacer without a positive height is dropped", path });
      return undefined;
    }
    return {
      kind: "row-spacer",
      id: idOf(raw, path),
      path,
      condition: this.condition(parsed.visibility, path, VISIBILITY, raw["visibility"]),
      height: parsed.height,
      backgroundColor: parsed.backgroundColor,
      backgroundGradient: parsed.backgroundGradient,
      dark: parsed.dark,
    };
  }

  column(raw: unknown, path: Path, depth: number): ColumnNode | undefined {
    if (!isObject(raw)) return void this.issue(path, "Input should be a valid object", "model_type");
    const style = this.parse(columnStyleSchema(), raw, path);
    // Current shape: `children`; legacy shape: `components`.
    const key = raw["children"] !== undefined ? "children" : "components";
    const childrenRaw = raw[key] ?? [];
    if (!Array.isArray(childrenRaw)) return void this.issue([...path, key], "Input should be a valid array", "list_type");
    const children: ColumnChild[] = [];
    for (let index = 0; index < childrenRaw.length; index++) {
      const node = this.child(childrenRaw[index], [...path, key, String(index)], depth);
      if (node) children.push(node);
    }
    if (!style) return undefined;
    return {
      kind: "column",
      id: idOf(raw, path),
      path,
      condition: this.condition(style.props.visibility, path, PROPS_VISIBILITY, isObject(raw["props"]) ? raw["props"]["visibility"] : undefined),
      width: style.width,
      style,
      children,
    };
  }

  child(raw: unknown, path: Path, depth: number): ColumnChild | undefined {
    if (!isObject(raw)) return void this.issue(path, "Input should be a valid object", "model_type");
    const type = raw["type"];
    if (type === "row") return this.row(raw, path, depth + 1);
    if (type === "row-spacer") return this.spacer(raw, path);
    if (type === undefined && Array.isArray(raw["columns"])) return this.row(raw, path, depth + 1);
    // Current shape: `{type: "component", componentType}`; legacy shape: `{type: "<block>"}`.
    const blockType = raw["componentType"] ?? (type === "component" ? undefined : type);
    if (typeof blockType !== "string") {
      const loc = type === "component" || raw["componentType"] !== undefined ? "componentType" : "type";
      return void this.issue(
        [...path, loc],
        blockType === undefined ? "Field required" : "Input should be a valid string",
        blockType === undefined ? "missing" : "string_type",
      );
    }
    return this.component(raw, blockType, path);
  }

  component(raw: Json, blockType: string, path: Path): ComponentNode | undefined {
    const definition = blockOf(this.registry, blockType);
    if (definition === undefined) {
      // A template from a newer editor still renders: the unknown block is left out and reported.
      this.warnings.push({ code: "UNKNOWN_BLOCK_TYPE", message: `Unknown block type "${blockType}" was not rendered`, path });
      return undefined;
    }
    const propsRaw = raw["props"] ?? {};
    const propsPath = [...path, "props"];
    const props = this.parse(definition.props as z.ZodMiniType, propsRaw, propsPath) as { visibility?: Visibility } | undefined;
    if (!props) return undefined;
    // Index loops: QuickJS makes an iterator for each `for…of`, empty lists included, for every block.
    const { content, urls, lists } = propKinds(definition);
    for (let i = 0; i < content.length; i++) this.contentWarning((props as Json)[content[i]!], propsPath, content[i]!);
    this.refuseUnsafeUrls(props as Json, urls, propsPath);
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      const entries = (props as Json)[list.prop];
      if (!Array.isArray(entries)) continue;
      for (let index = 0; index < entries.length; index++) {
        const entry: unknown = entries[index];
        if (isObject(entry)) this.refuseUnsafeUrls(entry, list.urls, [...propsPath, list.prop, String(index)]);
      }
    }
    return {
      kind: "component",
      id: idOf(raw, path),
      path,
      condition: this.condition(props.visibility, propsPath, VISIBILITY, isObject(propsRaw) ? propsRaw["visibility"] : undefined),
      block: blockType,
      definition,
      props,
    };
  }

  /** `html` is the prop `field` of the props at `at`. */
  contentWarning(html: unknown, at: Path, field: string): void {
    if (typeof html !== "string" || html === "") return;
    const removed = this.content.removals(html);
    if (removed.length === 0) return;
    this.warnings.push({
      code: "UNSAFE_CONTENT",
      message: `Content HTML outside the email-safe subset was removed: ${[...new Set(removed)].join("; ")}`,
      path: [...at, field],
    });
  }
}

function rawRules(visibility: unknown): readonly unknown[] {
  return isObject(visibility) && Array.isArray(visibility["rules"]) ? visibility["rules"] : [];
}

function idOf(raw: Json, path: Path): string {
  const id = raw["id"];
  return typeof id === "string" || typeof id === "number" ? String(id) : path.join(".");
}

/**
 * Reads a template with the blocks of `registry` (block types it does not hold are left out with a
 * warning), checking content HTML with `content`.
 */
export function parseTemplate(json: unknown, registry: BlockRegistry = BLOCKS, content: ContentHtml = new ContentHtml()): ParseResult {
  const reader = new Reader(registry, content);
  if (!isObject(json)) {
    reader.issue([], "Input should be a valid object", "model_type");
    return { template: undefined, issues: reader.issues, warnings: reader.warnings };
  }
  const header = reader.parse(documentHeaderSchema(), json, []);
  const rows = Array.isArray(json["rows"]) ? reader.rows(json["rows"], ["rows"], 1) : [];
  if (!header || reader.issues.length > 0) return { template: undefined, issues: reader.issues, warnings: reader.warnings };
  return {
    template: {
      id: header.template_id,
      name: header.template_name,
      schemaVersion: header.schema_version,
      canvas: header.canvas,
      rows,
      conditions: reader.conditions,
    },
    issues: reader.issues,
    warnings: reader.warnings,
  };
}
