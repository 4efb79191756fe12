/**
 * The template document as the editor changes it: plain JSON, never mutated (every change copies the
 * objects along its path and shares the rest, so a history step costs little), with every key the
 * editor does not know kept as it was. Nodes are addressed by their path, `rows.0.columns.1.children.2`
 * (the tree's `data-node-path`); the canvas is `canvas`.
 */

export type Doc = Record<string, unknown>;
type Obj = Record<string, unknown>;

export type NodeKind = "canvas" | "row" | "spacer" | "column" | "block";

/** Rows nest inside columns at most this deep (spec/template.md, "Tree"); a top-level row is level 1. */
export const MAX_ROW_DEPTH = 5;

export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function segments(path: string): string[] {
  return path === "" ? [] : path.split(".");
}

export function join(...parts: (string | number)[]): string {
  return parts.filter((p) => p !== "").join(".");
}

export function getAt(doc: unknown, path: string | readonly string[]): unknown {
  let node = doc;
  for (const key of typeof path === "string" ? segments(path) : path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Obj)[key];
  }
  return node;
}

/** `doc` with `value` at `path` (undefined: the key removed), objects and arrays along the way copied. */
export function setAt<T>(doc: T, path: readonly string[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [key, ...rest] = path as [string, ...string[]];
  const current = (doc ?? {}) as unknown;
  if (Array.isArray(current)) {
    const copy = [...current];
    copy[Number(key)] = setAt(copy[Number(key)], rest, value);
    return copy as T;
  }
  const copy: Obj = { ...(isObject(current) ? current : {}) };
  const next = setAt(copy[key], rest, value);
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy as T;
}

/** The children of a column: `children`, or the older `components`. */
export function childrenKey(column: unknown): "children" | "components" {
  return isObject(column) && !Array.isArray(column["children"]) && Array.isArray(column["components"]) ? "components" : "children";
}

export function isRowSpacer(node: unknown): boolean {
  return isObject(node) && node["type"] === "row-spacer";
}

export function isRow(node: unknown): boolean {
  return isObject(node) && !isRowSpacer(node) && (node["type"] === "row" || Array.isArray(node["columns"]));
}

/** A block's type: `componentType`, or the older `type`. */
export function blockType(node: unknown): string {
  if (!isObject(node)) return "";
  return typeof node["componentType"] === "string" ? node["componentType"] : typeof node["type"] === "string" ? node["type"] : "";
}

export function kindAt(doc: Doc, path: string): NodeKind | undefined {
  if (path === "canvas") return "canvas";
  const parts = segments(path);
  const node = getAt(doc, parts);
  if (!isObject(node)) return undefined;
  if (parts.at(-2) === "columns") return "column";
  if (isRowSpacer(node)) return "spacer";
  if (isRow(node)) return "row";
  return "block";
}

/** The path of the list holding a node, and its index there. */
export function parentList(path: string): { list: string; index: number } {
  const parts = segments(path);
  return { list: parts.slice(0, -1).join("."), index: Number(parts.at(-1)) };
}

/** How many rows deep a path is: `rows.0` is 1, a row in one of its columns 2. */
export function rowDepth(path: string): number {
  return segments(path).filter((s) => s === "rows" || s === "children" || s === "components").length;
}

/** The path of the column holding a node (a block, nested row or spacer), if any. */
export function columnOf(path: string): string | undefined {
  const parts = segments(path);
  for (let i = parts.length - 1; i > 0; i--) if (parts[i - 1] === "columns") return parts.slice(0, i + 1).join(".");
  return undefined;
}

/** The top-level row (or row spacer) holding a path. */
export function topLevelOf(path: string): string | undefined {
  const parts = segments(path);
  return parts[0] === "rows" && parts.length >= 2 ? `rows.${parts[1]}` : undefined;
}

/** Where a block's settings live: in `props`; a row's, column's, spacer's and the canvas's on the node itself. */
export function settingsPath(doc: Doc, path: string): string[] {
  return kindAt(doc, path) === "block" ? [...segments(path), "props"] : segments(path);
}

// ---- ids -------------------------------------------------------------------------------------

function collectIds(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectIds(item, into);
  else if (isObject(node)) {
    if (typeof node["id"] === "string") into.add(node["id"]);
    for (const key of ["rows", "columns", "children", "components"]) if (key in node) collectIds(node[key], into);
  }
}

/** Fresh ids in the editor's style (`paragraph-3`), unique in the document. */
export class IdMaker {
  private readonly taken = new Set<string>();
  constructor(doc: Doc) {
    collectIds(doc["rows"], this.taken);
  }
  next(prefix: string): string {
    let n = 1;
    while (this.taken.has(`${prefix}-${n}`)) n++;
    const id = `${prefix}-${n}`;
    this.taken.add(id);
    return id;
  }
}

// ---- new nodes --------------------------------------------------------------------------------

/** Widths of `n` equal columns, whole percentages adding up to 100 (the remainder in the last). */
export function equalWidths(n: number): number[] {
  const each = Math.floor(100 / n);
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? 100 - each * (n - 1) : each));
}

export function newRow(ids: IdMaker, columns: number): Obj {
  return { id: ids.next("row"), type: "row", columns: equalWidths(columns).map((width) => ({ id: ids.next("col"), width, children: [] })) };
}

export function newRowSpacer(ids: IdMaker): Obj {
  return { id: ids.next("spacer"), type: "row-spacer", height: 16 };
}

export function newBlock(ids: IdMaker, type: string, example: Record<string, unknown>): Obj {
  return { id: ids.next(type), type: "component", componentType: type, props: structuredClone(example) };
}

export function emptyTemplate(name: string): Doc {
  return { template_id: "", template_name: name, schema_version: "1.0", canvas: {}, rows: [] };
}

/** A deep copy of a node with fresh ids for it and everything inside it. */
export function withFreshIds(node: unknown, ids: IdMaker): unknown {
  if (Array.isArray(node)) return node.map((item) => withFreshIds(item, ids));
  if (!isObject(node)) return node;
  const copy: Obj = { ...node };
  if ("id" in copy) {
    const prefix = isRow(copy) ? "row" : isRowSpacer(copy) ? "spacer" : "children" in copy || "components" in copy ? "col" : blockType(copy) || "node";
    copy["id"] = ids.next(prefix);
  }
  for (const key of ["columns", "children", "components"]) if (key in copy) copy[key] = withFreshIds(copy[key], ids);
  if ("props" in copy) copy["props"] = structuredClone(copy["props"]);
  return copy;
}

// ---- changes to the tree -----------------------------------------------------------------------

function listAt(doc: Doc, list: string): unknown[] {
  const value = getAt(doc, list);
  return Array.isArray(value) ? value : [];
}

export function insertAt(doc: Doc, list: string, index: number, node: unknown): { doc: Doc; path: string } {
  const items = [...listAt(doc, list)];
  const at = Math.max(0, Math.min(index, items.length));
  items.splice(at, 0, node);
  return { doc: setAt(doc, segments(list), items), path: join(list, at) };
}

export function removeAt(doc: Doc, path: string): Doc {
  const { list, index } = parentList(path);
  const items = [...listAt(doc, list)];
  items.splice(index, 1);
  return setAt(doc, segments(list), items);
}

/** Moves a node to `index` of `list` (an index counted before the node is taken out); the node's new path. */
export function moveTo(doc: Doc, from: string, list: string, index: number): { doc: Doc; path: string } {
  const node = getAt(doc, from);
  const source = parentList(from);
  let target = index;
  // Taking the node out shifts what follows it in the same list.
  if (source.list === list && source.index < index) target -= 1;
  // Taking it out may also shift the target list's own path, when it lies after the node in the source list.
  const targetList = shiftedPath(list, source.list, source.index);
  return insertAt(removeAt(doc, from), targetList, target, node);
}

/** `path` after the item at `list.index` is removed. */
function shiftedPath(path: string, list: string, index: number): string {
  const prefix = `${list}.`;
  if (!path.startsWith(prefix)) return path;
  const rest = segments(path.slice(prefix.length));
  const at = Number(rest[0]);
  if (at > index) rest[0] = String(at - 1);
  return join(list, ...rest);
}

/** Whether `path` is `ancestor` or inside it. */
export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`);
}

export function duplicateAt(doc: Doc, path: string): { doc: Doc; path: string } {
  const { list, index } = parentList(path);
  return insertAt(doc, list, index + 1, withFreshIds(getAt(doc, path), new IdMaker(doc)));
}

/** The deepest row level under a node (a block: 0, a row without nested rows: 1). */
export function rowLevels(node: unknown): number {
  if (!isObject(node) || !isRow(node)) return 0;
  let deepest = 0;
  for (const column of Array.isArray(node["columns"]) ? node["columns"] : [])
    for (const child of ((isObject(column) ? column[childrenKey(column)] : undefined) as unknown[] | undefined) ?? [])
      deepest = Math.max(deepest, rowLevels(child));
  return 1 + deepest;
}

/** Whether a node may go into `list` (the document's rows, or a column's children) without breaking the format's rules. */
export function fitsIn(doc: Doc, node: unknown, list: string): boolean {
  const topLevel = list === "rows";
  if (!topLevel && !/\.(children|components)$/.test(list)) return false;
  if (isRow(node) || isRowSpacer(node)) return rowDepth(`${list}.0`) - 1 + Math.max(1, rowLevels(node)) <= MAX_ROW_DEPTH;
  // Blocks live in columns only.
  return !topLevel && getAt(doc, list) !== undefined;
}

/** Sets a row's number of columns: new ones are empty, the blocks of removed ones go to the last one kept; widths become equal. */
export function setColumnCount(doc: Doc, rowPath: string, count: number): Doc {
  const row = getAt(doc, rowPath);
  if (!isObject(row)) return doc;
  const columns = [...((row["columns"] as unknown[] | undefined) ?? [])].filter(isObject);
  const ids = new IdMaker(doc);
  while (columns.length < count) columns.push({ id: ids.next("col"), children: [] });
  if (columns.length > count) {
    const removed = columns.splice(count);
    const last = columns[count - 1]!;
    const key = childrenKey(last);
    const moved = removed.flatMap((column) => (column[childrenKey(column)] as unknown[] | undefined) ?? []);
    columns[count - 1] = { ...last, [key]: [...((last[key] as unknown[] | undefined) ?? []), ...moved] };
  }
  const widths = equalWidths(count);
  return setAt(doc, segments(rowPath), { ...row, columns: columns.map((column, i) => ({ ...column, width: widths[i] })) });
}
