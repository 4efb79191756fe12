/**
 * The document as a tree — the email, its rows, their columns, the blocks and nested rows in them —
 * to select, and to move by drag (mouse or touch: pointer events on the ⠿ handle) or by keyboard
 * (arrows select, Alt+arrows move, Delete removes, Ctrl+D duplicates). Each node carries
 * `data-node-path` (test hook).
 */
import { html } from "htm/preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { Descriptions } from "./description.js";
import { blockType, childrenKey, type Doc, getAt, isObject, isRow, isRowSpacer, join } from "./model.js";

/** Where a dragged node would go: before or after a node, or into a column (at its end). */
export interface DropTarget {
  path: string;
  position: "before" | "after" | "inside";
}

/** Something being dragged: a node of the tree, or a new one from the palette. */
export type DragSource = { kind: "node"; path: string } | { kind: "new"; make: (doc: Doc) => unknown; label: string };

interface DragState {
  source: DragSource;
  startX: number;
  startY: number;
  dragging: boolean;
  target: DropTarget | null;
  ghost: HTMLElement | null;
}

let drag: DragState | null = null;

/** Every node's path in document order: what the arrow keys walk. */
export function nodeOrder(doc: Doc): string[] {
  const order = ["canvas"];
  const walk = (list: unknown, path: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((node, i) => {
      const nodePath = join(path, i);
      order.push(nodePath);
      if (isRow(node)) {
        const columns = (node as Record<string, unknown>)["columns"];
        if (Array.isArray(columns))
          columns.forEach((column, c) => {
            const columnPath = join(nodePath, "columns", c);
            order.push(columnPath);
            walk(isObject(column) ? column[childrenKey(column)] : undefined, join(columnPath, childrenKey(column)));
          });
      }
    });
  };
  walk(doc["rows"], "rows");
  return order;
}

function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** A few words of what a block shows, for its line in the tree. */
function snippet(props: unknown): string {
  if (!isObject(props)) return "";
  for (const key of ["content", "text", "label", "alt", "src"]) {
    const value = props[key];
    if (typeof value === "string" && value.trim() !== "") {
      const text = key === "src" ? (value.split("/").pop() ?? value) : stripTags(value);
      return text.length > 42 ? `${text.slice(0, 40)}…` : text;
    }
  }
  for (const value of Object.values(props)) if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? "" : "s"}`;
  return "";
}

function hasRules(node: unknown): boolean {
  if (!isObject(node)) return false;
  const visibility = isObject(node["visibility"])
    ? node["visibility"]
    : isObject(node["props"])
      ? (node["props"] as Record<string, unknown>)["visibility"]
      : undefined;
  return isObject(visibility) && (visibility["enabled"] === true || visibility["enabled"] === "true");
}

export function labelOf(doc: Doc, path: string, descriptions: Descriptions): { title: string; detail: string } {
  if (path === "canvas") return { title: "Email", detail: typeof doc["template_name"] === "string" ? doc["template_name"] : "" };
  const node = getAt(doc, path);
  if (!isObject(node)) return { title: "?", detail: "" };
  if (isRowSpacer(node)) return { title: "Row spacer", detail: typeof node["height"] === "number" ? `${node["height"]} px` : "" };
  if (isRow(node)) {
    const columns = Array.isArray(node["columns"]) ? node["columns"].length : 0;
    return { title: typeof node["name"] === "string" && node["name"] !== "" ? node["name"] : "Row", detail: `${columns} column${columns === 1 ? "" : "s"}` };
  }
  if (path.split(".").at(-2) === "columns") return { title: "Column", detail: typeof node["width"] === "number" ? `${node["width"]}%` : "" };
  const type = blockType(node);
  const label = descriptions.blocks.find((b) => b.type === type)?.label ?? `${type || "?"} (unknown)`;
  return { title: label, detail: snippet(node["props"]) };
}

export function Tree({
  doc,
  descriptions,
  selection,
  focusRequest,
  readOnly,
  findingPaths,
  onSelect,
  onMoveBy,
  onDrop,
  onDuplicate,
  onDelete,
  onEnter,
}: {
  doc: Doc;
  descriptions: Descriptions;
  selection: string;
  /** Changed to move the keyboard focus to the selected node. */
  focusRequest: number;
  readOnly: boolean;
  /** Nodes with findings, marked in the tree. */
  findingPaths: ReadonlySet<string>;
  onSelect: (path: string) => void;
  onMoveBy: (path: string, by: -1 | 1) => void;
  onDrop: (source: DragSource, target: DropTarget) => void;
  onDuplicate: (path: string) => void;
  onDelete: (path: string) => void;
  onEnter: () => void;
}) {
  const root = useRef<HTMLDivElement>(null);
  const order = nodeOrder(doc);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only when asked to, not each time the selection moves
  useLayoutEffect(() => {
    if (focusRequest > 0) root.current?.querySelector<HTMLElement>(`[data-node-path="${selection}"]`)?.focus();
  }, [focusRequest]);
  useLayoutEffect(() => {
    // Keyboard users keep the focus on the selection as it moves.
    const tree = root.current;
    if (tree?.contains(document.activeElement) && (document.activeElement as HTMLElement).dataset["nodePath"] !== selection)
      tree.querySelector<HTMLElement>(`[data-node-path="${selection}"]`)?.focus();
    tree?.querySelector(`[data-node-path="${selection}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selection]);

  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).dataset?.["nodePath"] === undefined) return;
    // The selection, not the focused element: keys pressed faster than the focus follows (a held
    // Alt+↑) act on the node that moved, not on the one that took its place.
    const path = selection;
    const at = order.indexOf(path);
    const mod = e.ctrlKey || e.metaKey;
    if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
      if (!readOnly && path !== "canvas") onMoveBy(path, e.key === "ArrowUp" ? -1 : 1);
    } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      const next = order[Math.max(0, Math.min(order.length - 1, at + (e.key === "ArrowUp" ? -1 : 1)))];
      if (next !== undefined) onSelect(next);
    } else if (e.key === "Home") onSelect(order[0]!);
    else if (e.key === "End") onSelect(order.at(-1)!);
    else if ((e.key === "Delete" || e.key === "Backspace") && !readOnly && path !== "canvas" && !path.endsWith(".columns.0")) onDelete(path);
    else if (mod && (e.key === "d" || e.key === "D") && !readOnly && path !== "canvas") onDuplicate(path);
    else if (e.key === "Enter" || e.key === " ") onEnter();
    else return;
    e.preventDefault();
  };

  const onClick = (e: MouseEvent) => {
    const node = (e.target as HTMLElement).closest<HTMLElement>("[data-node-path]");
    if (node && !(e.target as HTMLElement).closest(".handle")) onSelect(node.dataset["nodePath"]!);
  };

  const item = (path: string, level: number, children: unknown) => {
    const { title, detail } = labelOf(doc, path, descriptions);
    const node = getAt(doc, path);
    const selected = path === selection;
    const kind = path === "canvas" ? "canvas" : isRowSpacer(node) ? "spacer" : isRow(node) ? "row" : path.split(".").at(-2) === "columns" ? "column" : "block";
    return html`<li key=${path}>
      <div
        class=${`node kind-${kind}${selected ? " selected" : ""}`}
        role="treeitem"
        aria-level=${level}
        aria-selected=${selected}
        tabindex=${selected ? 0 : -1}
        data-node-path=${path}
      >
        ${!readOnly && path !== "canvas" && html`<span class="handle" aria-hidden="true" title="Drag to move" onPointerDown=${(e: PointerEvent) => startDrag(e, { kind: "node", path }, onDrop)}>⠿</span>`}
        <span class="node-title">${title}</span>
        ${detail && html`<span class="node-detail">${detail}</span>`}
        ${hasRules(node) && html`<span class="badge" title="Shown only to some recipients (visibility rules)">if</span>`}
        ${findingPaths.has(path) && html`<span class="badge warn" title="The checks found something here">!</span>`}
      </div>
      ${children}
    </li>`;
  };

  const list = (items: unknown, path: string, level: number): unknown => {
    if (!Array.isArray(items) || items.length === 0) return null;
    return html`<ul role="group">${items.map((node, i) => {
      const nodePath = join(path, i);
      if (!isRow(node)) return item(nodePath, level, null);
      const columns = (node as Record<string, unknown>)["columns"];
      return item(
        nodePath,
        level,
        Array.isArray(columns) && columns.length > 0
          ? html`<ul role="group">${columns.map((column, c) => {
              const columnPath = join(nodePath, "columns", c);
              const key = childrenKey(column);
              const inside = isObject(column) ? column[key] : undefined;
              return item(
                columnPath,
                level + 1,
                Array.isArray(inside) && inside.length > 0
                  ? list(inside, join(columnPath, key), level + 2)
                  : html`<p class="empty-column muted">Empty: add a block, or drop one here</p>`,
              );
            })}</ul>`
          : null,
      );
    })}</ul>`;
  };

  return html`
    <div class="tree" ref=${root} role="tree" aria-label="The template's structure" onKeyDown=${onKeyDown} onClick=${onClick}>
      <ul role="group" class="tree-root">
        ${item("canvas", 1, null)}
      </ul>
      ${list(doc["rows"], "rows", 1) ?? html`<p class="muted empty-rows">No rows yet: add one with the palette.</p>`}
    </div>
  `;
}

// ---- dragging ----------------------------------------------------------------------------------

/** Starts following the pointer; a move of a few pixels makes it a drag (a click stays a click). */
export function startDrag(e: PointerEvent, source: DragSource, onDrop: (source: DragSource, target: DropTarget) => void): void {
  if (e.button !== 0) return;
  drag = { source, startX: e.clientX, startY: e.clientY, dragging: false, target: null, ghost: null };
  const move = (ev: PointerEvent) => followPointer(ev);
  const end = (ev: PointerEvent) => {
    removeEventListener("pointermove", move);
    removeEventListener("pointerup", end);
    removeEventListener("pointercancel", end);
    removeEventListener("keydown", cancel);
    const state = drag;
    drag = null;
    clearMarks();
    state?.ghost?.remove();
    if (state?.dragging) {
      // The click that ends a drag is not a click on what lies under the pointer.
      const swallow = (c: Event) => c.stopPropagation();
      addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => removeEventListener("click", swallow, { capture: true }), 0);
      if (state.target && ev.type === "pointerup") onDrop(state.source, state.target);
    }
  };
  const cancel = (ev: KeyboardEvent) => {
    if (ev.key !== "Escape" || drag === null) return;
    drag.target = null;
    end(new PointerEvent("pointercancel"));
  };
  addEventListener("pointermove", move);
  addEventListener("pointerup", end);
  addEventListener("pointercancel", end);
  addEventListener("keydown", cancel);
}

function clearMarks(): void {
  for (const el of document.querySelectorAll(".drop-before, .drop-after, .drop-inside")) el.classList.remove("drop-before", "drop-after", "drop-inside");
}

function followPointer(e: PointerEvent): void {
  if (drag === null) return;
  if (!drag.dragging) {
    if (Math.hypot(e.clientX - drag.startX, e.clientY - drag.startY) < 5) return;
    drag.dragging = true;
    drag.ghost = document.createElement("div");
    drag.ghost.className = "drag-ghost";
    drag.ghost.textContent =
      drag.source.kind === "new" ? drag.source.label : (document.querySelector(`[data-node-path="${drag.source.path}"] .node-title`)?.textContent ?? "");
    document.body.appendChild(drag.ghost);
  }
  e.preventDefault();
  if (drag.ghost) drag.ghost.style.transform = `translate(${e.clientX + 12}px, ${e.clientY + 8}px)`;
  clearMarks();
  drag.target = null;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const nodeEl = under?.closest<HTMLElement>(".tree [data-node-path]");
  const emptyColumn = under?.closest(".empty-column")?.closest("li")?.querySelector<HTMLElement>("[data-node-path]");
  const target = emptyColumn ?? nodeEl;
  if (!target) return;
  const path = target.dataset["nodePath"]!;
  if (path === "canvas" || (drag.source.kind === "node" && (path === drag.source.path || path.startsWith(`${drag.source.path}.`)))) return;
  const box = target.getBoundingClientRect();
  const isColumn = path.split(".").at(-2) === "columns";
  const movingColumn = drag.source.kind === "node" && drag.source.path.split(".").at(-2) === "columns";
  const position: DropTarget["position"] = isColumn && !movingColumn ? "inside" : e.clientY < box.top + box.height / 2 ? "before" : "after";
  drag.target = { path, position };
  target.classList.add(`drop-${position}`);
}
