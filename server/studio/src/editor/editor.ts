/**
 * The template editor: the tree and the palette, the selected node's form or the JSON, and the
 * previews with the checks — one document, changed only through `change` (so every change is an undo
 * step, kept as a draft in this browser, and previewed). Saving sends the ETag the document was read
 * with: a template someone else saved meanwhile is never overwritten without the user's say.
 */
import { html } from "htm/preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiFailure, api, type Issue } from "../api.js";
import { describeFailure } from "../issues.js";
import { ChecksPanel, SourceBlock, VisibilityPanel } from "../preview/checks.js";
import { type FrameSettings, PreviewFrames } from "../preview/frames.js";
import type { DraftPreview, Finding, SampleData } from "../preview/types.js";
import { type Descriptions, loadDescriptions } from "./description.js";
import { dropDraft, readDraft, writeDraft } from "./draft.js";
import { NodeForm } from "./form.js";
import { type History, record, redo, type Snapshot, startHistory, undo } from "./history.js";
import { JsonPane } from "./json-pane.js";
import {
  childrenKey,
  columnOf,
  type Doc,
  duplicateAt,
  emptyTemplate,
  fitsIn,
  getAt,
  IdMaker,
  insertAt,
  isObject,
  isRow,
  isWithin,
  join,
  kindAt,
  MAX_ROW_DEPTH,
  moveTo,
  newBlock,
  newRow,
  newRowSpacer,
  parentList,
  removeAt,
  rowDepth,
  segments,
  setAt,
  setColumnCount,
  settingsPath,
  topLevelOf,
} from "./model.js";
import { Palette, type PaletteActions } from "./palette.js";
import { configureEditing } from "./rich-text.js";
import { type DragSource, type DropTarget, Tree } from "./tree.js";

interface Stored {
  id: string;
  name: string;
  version: number;
  etag: string;
  updated_at: string;
}

type Change = (doc: Doc, selection: string) => { doc: Doc; selection?: string } | null;

/** Why the template being edited cannot render (a 422 issue at its path), shown like a finding under its field. */
function issueAsFinding(issue: Issue): Finding {
  return { severity: "error", code: issue.type, path: issue.loc, value: undefined, message: issue.msg, hint: issue.hint ?? "" };
}

/** The node a path into the document points into (a finding's, a warning's). */
export function nodePathOf(doc: Doc, path: readonly string[]): string {
  if (path[0] === "canvas") return "canvas";
  for (let i = path.length; i >= 2; i--) {
    const candidate = path.slice(0, i).join(".");
    if (/^\d+$/.test(path[i - 1] ?? "") && kindAt(doc, candidate) !== undefined) return candidate;
  }
  return "canvas";
}

function sampleTags(sample: SampleData | null): string[] {
  const tags = sample?.merge_tags ?? {};
  return [...Object.keys(tags.text ?? {}), ...Object.keys(tags.url ?? {}), ...Object.keys(tags.attr ?? {})];
}

function parseSample(text: string | null): { data: SampleData | null; problem: string } {
  if (text === null) return { data: null, problem: "" };
  try {
    const data = JSON.parse(text) as unknown;
    return isObject(data) ? { data: data as SampleData, problem: "" } : { data: null, problem: "Sample data is a JSON object" };
  } catch (err) {
    return { data: null, problem: `Sample data is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function Editor({
  id: initialId,
  newName,
  writable,
  onCreated,
}: {
  /** The stored template, or null for a new one (saved on the first save). */
  id: string | null;
  newName: string;
  writable: boolean;
  onCreated: (id: string) => void;
}) {
  const [id, setId] = useState(initialId);
  const [descriptions, setDescriptions] = useState<Descriptions | null>(null);
  const [stored, setStored] = useState<Stored | null>(null);
  const [savedJson, setSavedJson] = useState<string | null>(null);
  const [history, setHistory] = useState<History | null>(null);
  const [loadError, setLoadError] = useState("");
  const [notice, setNotice] = useState<{ text: string; discard?: Doc } | null>(null);
  const [conflict, setConflict] = useState<Stored | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<{ message: string; issues: Issue[] } | null>(null);
  const [middle, setMiddle] = useState<"form" | "json">("form");
  const [focusRequest, setFocusRequest] = useState(0);
  const [preview, setPreview] = useState<DraftPreview | null>(null);
  const [previewError, setPreviewError] = useState<{ message: string; issues: Issue[] } | null>(null);
  const [rendering, setRendering] = useState(false);
  const [frames, setFrames] = useState<FrameSettings>({ view: "html", scheme: "light", phoneWidth: 375, desktopWidth: 800 });
  const [sampleText, setSampleText] = useState<string | null>(null);
  const [sampleSaved, setSampleSaved] = useState(false);
  const [sampleTouched, setSampleTouched] = useState(false);
  const [sampleState, setSampleState] = useState("");
  const requestSeq = useRef(0);

  // ---- loading ---------------------------------------------------------------------------------
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the editor opens (a new template or another one remounts it)
  useEffect(() => {
    configureEditing();
    loadDescriptions()
      .then(setDescriptions)
      .catch((err: unknown) => setLoadError(describeFailure(err)));
    if (initialId === null) {
      const draft = readDraft(null);
      const doc = draft?.doc ?? emptyTemplate(newName);
      setHistory(startHistory({ doc, selection: "canvas" }));
      setSavedJson(null);
      if (draft) setNotice({ text: `Restored the unsaved new template from ${new Date(draft.savedAt).toLocaleString()}.` });
      return;
    }
    Promise.all([
      api<Stored & { template: Doc }>("GET", `/api/v1/templates/${initialId}`),
      api<{ dynamic_data: SampleData; saved: boolean }>("GET", `/api/v1/templates/${initialId}/sample`),
    ])
      .then(([template, sample]) => {
        const { template: doc, ...meta } = template;
        setStored(meta);
        setSavedJson(JSON.stringify(doc));
        setSampleText(JSON.stringify(sample.dynamic_data, null, 2));
        setSampleSaved(sample.saved);
        setSampleState(sample.saved ? "Saved sample data" : "Built from the template's merge tags and context keys");
        const draft = writable ? readDraft(initialId) : null;
        if (draft && JSON.stringify(draft.doc) !== JSON.stringify(doc)) {
          setHistory(startHistory({ doc: draft.doc, selection: "canvas" }));
          if (draft.baseEtag !== null && draft.baseEtag !== meta.etag) {
            // Someone saved since: the draft is kept, and saving it will ask before overwriting theirs.
            setStored({ ...meta, etag: draft.baseEtag });
            setNotice({
              text: `Restored your unsaved changes from ${new Date(draft.savedAt).toLocaleString()}. The template was saved by someone else since (version ${meta.version}): saving will ask before replacing it.`,
              discard: doc,
            });
          } else setNotice({ text: `Restored your unsaved changes from ${new Date(draft.savedAt).toLocaleString()}.`, discard: doc });
        } else setHistory(startHistory({ doc, selection: "canvas" }));
      })
      .catch((err: unknown) => setLoadError(describeFailure(err)));
  }, []);

  const present: Snapshot | null = history?.present ?? null;
  const doc = present?.doc ?? null;
  const selection = present?.selection ?? "canvas";
  const json = useMemo(() => (doc === null ? "" : JSON.stringify(doc)), [doc]);
  const dirty = doc !== null && json !== savedJson;

  // The draft: kept while there are unsaved changes, dropped once saved. Written after each render,
  // and when the page goes (a reload right after a keystroke comes before the render's effects).
  const keepDraft = () => {
    if (doc === null || !writable) return;
    if (dirty) writeDraft(id, doc, stored?.etag ?? null);
    else dropDraft(id);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the document's JSON says when it changed; the rest is read as it is then
  useEffect(keepDraft, [json, dirty]);
  const latestDraft = useRef(keepDraft);
  latestDraft.current = keepDraft;
  useEffect(() => {
    const onHide = () => latestDraft.current();
    addEventListener("pagehide", onHide);
    return () => removeEventListener("pagehide", onHide);
  }, []);

  // ---- changes -----------------------------------------------------------------------------------
  const change = (fn: Change, merge: string | null = null) => {
    if (!writable) return;
    setHistory((h) => {
      if (h === null) return h;
      const result = fn(h.present.doc, h.present.selection);
      if (result === null) return h;
      return record(h, { doc: result.doc, selection: result.selection ?? h.present.selection }, merge);
    });
  };
  const select = (path: string) => setHistory((h) => (h === null ? h : { ...h, present: { ...h.present, selection: path } }));

  const setSetting = (prop: string, value: unknown) =>
    change((d, sel) => {
      const base = settingsPath(d, sel);
      const parts = prop.split(".");
      let next = setAt(d, [...base, ...parts], value);
      // A phone override or dark colour removed: an empty `mobile` or `dark` is removed with it.
      if (value === undefined && parts.length === 2) {
        const parent = getAt(next, [...base, parts[0]!]);
        if (isObject(parent) && Object.keys(parent).length === 0) next = setAt(next, [...base, parts[0]!], undefined);
      }
      return { doc: next };
    }, `${selection}|${prop}`);

  /** Where a new block goes: after the selection in its column, or at the end of the selected (or last) column. */
  const blockSpot = (d: Doc, sel: string): { list: string; index: number } | null => {
    const kind = kindAt(d, sel);
    if (kind === "column") {
      const column = getAt(d, sel);
      const key = childrenKey(column);
      return { list: join(sel, key), index: ((isObject(column) ? column[key] : undefined) as unknown[] | undefined)?.length ?? 0 };
    }
    if (kind === "row") {
      const columns = (getAt(d, sel) as Record<string, unknown>)["columns"] as unknown[];
      if (Array.isArray(columns) && columns.length > 0) return blockSpot(d, join(sel, "columns", columns.length - 1));
    }
    if ((kind === "block" || kind === "row" || kind === "spacer") && columnOf(sel) !== undefined) {
      const { list, index } = parentList(sel);
      return { list, index: index + 1 };
    }
    // The last column of the last row.
    const rows = (d["rows"] as unknown[] | undefined) ?? [];
    for (let r = rows.length - 1; r >= 0; r--) {
      if (isRow(rows[r])) {
        const columns = (rows[r] as Record<string, unknown>)["columns"] as unknown[];
        if (Array.isArray(columns) && columns.length > 0) return blockSpot(d, join("rows", r, "columns", columns.length - 1));
      }
    }
    return null;
  };

  const addNode = (make: (ids: IdMaker, d: Doc) => unknown, where: "block" | "top" | "nested") => {
    change((d, sel) => {
      const node = make(new IdMaker(d), d);
      let current = d;
      let spot: { list: string; index: number } | null;
      if (where === "top") {
        const top = topLevelOf(sel);
        spot = { list: "rows", index: top === undefined ? ((d["rows"] as unknown[] | undefined)?.length ?? 0) : parentList(top).index + 1 };
      } else {
        spot = blockSpot(d, sel);
        if (spot === null) {
          // No column yet: a row of one column first.
          const row = insertAt(d, "rows", (d["rows"] as unknown[] | undefined)?.length ?? 0, newRow(new IdMaker(d), 1));
          current = row.doc;
          spot = { list: join(row.path, "columns", 0, "children"), index: 0 };
        }
        if (!fitsIn(current, node, spot.list)) return null;
      }
      const inserted = insertAt(current, spot.list, spot.index, node);
      return { doc: inserted.doc, selection: inserted.path };
    });
    setFocusRequest((n) => n + 1);
  };

  const moveBy = (path: string, by: -1 | 1) =>
    change((d) => {
      const { list, index } = parentList(path);
      const items = getAt(d, list) as unknown[];
      const target = index + by;
      if (target >= 0 && target < items.length) {
        const moved = moveTo(d, path, list, by === 1 ? target + 1 : target);
        return { doc: moved.doc, selection: moved.path };
      }
      // At the edge of its column: a block goes on into the neighbouring column of the same row.
      const column = columnOf(path);
      if (column === undefined || !list.startsWith(`${column}.`)) return null;
      const { list: columns, index: c } = parentList(column);
      const neighbour = join(columns, c + by);
      const next = getAt(d, neighbour);
      if (!isObject(next)) return null;
      const key = childrenKey(next);
      const length = ((next[key] as unknown[] | undefined) ?? []).length;
      const moved = moveTo(d, path, join(neighbour, key), by === 1 ? 0 : length);
      return { doc: moved.doc, selection: moved.path };
    }, null);

  const drop = (source: DragSource, target: DropTarget) =>
    change((d) => {
      const node = source.kind === "node" ? getAt(d, source.path) : source.make(d);
      let list: string;
      let index: number;
      if (target.position === "inside") {
        const column = getAt(d, target.path);
        const key = childrenKey(column);
        list = join(target.path, key);
        index = ((isObject(column) ? column[key] : undefined) as unknown[] | undefined)?.length ?? 0;
      } else {
        ({ list, index } = parentList(target.path));
        if (target.position === "after") index += 1;
      }
      const isColumn = source.kind === "node" && source.path.split(".").at(-2) === "columns";
      if (isColumn ? parentList(source.path).list !== list : !fitsIn(d, node, list)) return null;
      if (source.kind === "node") {
        if (isWithin(list, source.path)) return null;
        const moved = moveTo(d, source.path, list, index);
        return { doc: moved.doc, selection: moved.path };
      }
      const inserted = insertAt(d, list, index, node);
      return { doc: inserted.doc, selection: inserted.path };
    });

  const remove = (path: string) =>
    change((d) => {
      const { list, index } = parentList(path);
      const next = removeAt(d, path);
      const left = (getAt(next, list) as unknown[] | undefined)?.length ?? 0;
      const parent = segments(list).slice(0, -1).join(".");
      return { doc: next, selection: left === 0 ? parent || "canvas" : join(list, Math.min(index, left - 1)) };
    });

  const duplicate = (path: string) =>
    change((d) => {
      const copied = duplicateAt(d, path);
      return { doc: copied.doc, selection: copied.path };
    });

  const applyJson = (next: Doc) => change((_d, sel) => ({ doc: next, selection: kindAt(next, sel) === undefined ? "canvas" : sel }), "json");

  // ---- undo, redo, save: buttons and keys ------------------------------------------------------------
  const doUndo = () => setHistory((h) => (h === null ? h : undo(h)));
  const doRedo = () => setHistory((h) => (h === null ? h : redo(h)));

  const save = async (overwrite?: Stored) => {
    if (doc === null || !writable || saving) return;
    setSaving(true);
    setSaveError(null);
    try {
      if (id === null) {
        const { template_id: _none, ...body } = doc;
        const created = await api<Stored>("POST", "/api/v1/templates", body);
        // The service gave it its id: the document says so from now on (not an undo step).
        const saved = { ...doc, template_id: created.id };
        dropDraft(null);
        setHistory((h) => (h === null ? h : { ...h, present: { ...h.present, doc: saved } }));
        setId(created.id);
        setStored(created);
        setSavedJson(JSON.stringify(saved));
        onCreated(created.id);
      } else {
        const etag = overwrite?.etag ?? stored?.etag;
        const written = await api<Stored>("PUT", `/api/v1/templates/${id}`, doc, undefined, etag === undefined ? {} : { "if-match": etag });
        setStored(written);
        setSavedJson(json);
        setConflict(null);
        // A restored draft, once saved, is no news any more.
        setNotice(null);
      }
    } catch (err) {
      if (err instanceof ApiFailure && err.code === "TEMPLATE_CHANGED" && id !== null) {
        const { template: _theirs, ...meta } = await api<Stored & { template: Doc }>("GET", `/api/v1/templates/${id}`);
        setConflict(meta);
      } else setSaveError({ message: describeFailure(err), issues: err instanceof ApiFailure ? err.issues : [] });
    } finally {
      setSaving(false);
    }
  };

  /** Their version replaces the document, as one more step: undo brings the user's back. */
  const takeTheirs = async () => {
    if (id === null) return;
    const { template, ...meta } = await api<Stored & { template: Doc }>("GET", `/api/v1/templates/${id}`);
    setStored(meta);
    setSavedJson(JSON.stringify(template));
    setConflict(null);
    change((_d, sel) => ({ doc: template, selection: kindAt(template, sel) === undefined ? "canvas" : sel }));
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod) return;
      const target = e.target as HTMLElement;
      // The JSON and the sample data are text boxes of their own: there, the keys are the browser's.
      if (target.closest?.('[data-testid="template-json"], #sample-data')) return;
      const key = e.key.toLowerCase();
      if (key === "z" && !e.shiftKey) doUndo();
      else if ((key === "z" && e.shiftKey) || key === "y") doRedo();
      else if (key === "s") void save();
      else return;
      e.preventDefault();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  // ---- preview -------------------------------------------------------------------------------------
  const sample = parseSample(sampleText);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new preview when the document, the sample data or the target change, nothing else
  useEffect(() => {
    if (doc === null || sample.problem) return;
    const seq = ++requestSeq.current;
    setRendering(true);
    const timer = setTimeout(() => {
      const view = frames.view === "text" ? "html" : frames.view;
      // A template not saved yet has no id; the engine wants one.
      const template = doc["template_id"] === "" || doc["template_id"] === undefined ? { ...doc, template_id: id ?? "new-template" } : doc;
      api<DraftPreview>("POST", "/api/v1/studio/preview", { template, dynamic_data: sample.data ?? {}, target: view })
        .then((p) => {
          if (seq !== requestSeq.current) return;
          setPreview(p);
          setPreviewError(null);
          // Until the user writes sample data of their own, it follows the template's tags.
          if (!sampleTouched && !sampleSaved && JSON.stringify(p.sample) !== JSON.stringify(sample.data)) setSampleText(JSON.stringify(p.sample, null, 2));
        })
        .catch((err: unknown) => {
          if (seq !== requestSeq.current) return;
          const issues =
            err instanceof ApiFailure ? err.issues.map((i) => ({ ...i, loc: i.loc[0] === "body" && i.loc[1] === "template" ? i.loc.slice(2) : i.loc })) : [];
          setPreviewError({ message: describeFailure(err), issues });
        })
        .finally(() => {
          if (seq === requestSeq.current) setRendering(false);
        });
    }, 250);
    return () => clearTimeout(timer);
  }, [json, sampleText, frames.view]);

  const saveSample = async () => {
    if (id === null || sample.data === null) return;
    try {
      await api("PUT", `/api/v1/templates/${id}/sample`, { dynamic_data: sample.data });
      setSampleSaved(true);
      setSampleState(`Saved at ${new Date().toLocaleTimeString()}`);
    } catch (err) {
      setSampleState(describeFailure(err));
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the sample's text stands for the sample parsed from it
  const tags = useMemo(() => [...new Set([...(preview?.merge_tags.map((t) => t.name) ?? []), ...sampleTags(sample.data)])].sort(), [preview, sampleText]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  const contextKeys = useMemo(() => [...new Set([...(preview?.context_keys ?? []), ...Object.keys(sample.data?.context ?? {})])].sort(), [preview, sampleText]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the document's JSON stands for the document
  const findingPaths = useMemo(() => new Set(doc === null ? [] : (preview?.findings ?? []).map((f) => nodePathOf(doc, f.path))), [preview, json]);

  const selectPath = (path: readonly string[]) => {
    if (doc === null) return;
    select(nodePathOf(doc, path));
    setMiddle("form");
    setFocusRequest((n) => n + 1);
  };

  // ---- the page ----------------------------------------------------------------------------------------
  // The sticky bar's height, for what sticks or is scrolled to under it (studio.css, --bar-height).
  const barObserver = useRef<ResizeObserver | null>(null);
  const barRef = useCallback((bar: HTMLDivElement | null) => {
    barObserver.current?.disconnect();
    barObserver.current = null;
    if (bar === null) return;
    barObserver.current = new ResizeObserver(() => document.documentElement.style.setProperty("--bar-height", `${bar.offsetHeight}px`));
    barObserver.current.observe(bar);
  }, []);

  if (loadError) return html`<section class="card"><p class="bad" role="alert">${loadError}</p></section>`;
  if (descriptions === null || history === null || doc === null)
    return html`<section class="card"><p class="muted" role="status">Loading the editor…</p></section>`;

  const actions: PaletteActions = {
    addRow: (n, nested) => addNode((ids) => newRow(ids, n), nested ? "block" : "top"),
    addSpacer: (nested) => addNode((ids) => newRowSpacer(ids), nested ? "block" : "top"),
    addBlock: (type) => {
      const block = descriptions.blocks.find((b) => b.type === type);
      if (block) addNode((ids) => newBlock(ids, type, block.example), "block");
    },
    drop,
    newRow: (n) => ({ kind: "new", label: `Row of ${n}`, make: (d) => newRow(new IdMaker(d), n) }),
    newSpacer: () => ({ kind: "new", label: "Row spacer", make: (d) => newRowSpacer(new IdMaker(d)) }),
    newBlock: (type) => {
      const block = descriptions.blocks.find((b) => b.type === type)!;
      return { kind: "new", label: block.label, make: (d) => newBlock(new IdMaker(d), type, block.example) };
    },
  };
  const column = kindAt(doc, selection) === "column" ? selection : columnOf(selection);
  const canNest = column !== undefined && rowDepth(join(column, "children", 0)) <= MAX_ROW_DEPTH;
  const name = typeof doc["template_name"] === "string" ? doc["template_name"] : "";
  const decision = preview?.visibility.find((d) => d.path.join(".") === selection);
  const jsonIssues = previewError?.issues ?? [];
  const base = name.replace(/[^\w-]+/g, "-").replace(/^-|-$/g, "") || "template";

  return html`
    <div class="editor">
      <div class="editor-bar" role="toolbar" aria-label="Template" ref=${barRef}>
        <h2 class="template-name" title=${name}>${name || "(no name)"}</h2>
        <span class=${`save-state${dirty ? " unsaved" : ""}`} data-testid="save-state" role="status">
          ${!writable ? "Read only" : dirty ? (id === null ? "Not saved yet" : "Unsaved changes") : `Saved${stored ? ` · version ${stored.version}` : ""}`}
        </span>
        <span class="spacer"></span>
        ${
          writable &&
          html`<button type="button" data-testid="undo" disabled=${history.past.length === 0} title="Undo (Ctrl+Z)" onClick=${doUndo}>Undo</button>
          <button type="button" data-testid="redo" disabled=${history.future.length === 0} title="Redo (Ctrl+Shift+Z)" onClick=${doRedo}>Redo</button>
          <button type="button" class="primary" data-testid="save" disabled=${saving || (!dirty && id !== null)} title="Save (Ctrl+S)" onClick=${() => void save()}>
            ${saving ? "Saving…" : "Save"}</button>`
        }
        <nav class="jump" aria-label="Editor panels"><a href="#structure">Structure</a><a href="#properties">Properties</a><a href="#preview" data-testid="jump-preview">Preview</a></nav>
      </div>
      ${
        notice &&
        html`<div class="notice" role="status" data-testid="notice">${notice.text}
          ${
            notice.discard &&
            html`<button type="button" class="small" onClick=${() => {
              const discard = notice.discard!;
              change(() => ({ doc: discard, selection: "canvas" }));
              setNotice(null);
            }}>Discard them</button>`
          }
          <button type="button" class="small" aria-label="Dismiss" onClick=${() => setNotice(null)}>×</button></div>`
      }
      ${saveError && html`<div class="notice bad" role="alert" data-testid="save-error">${saveError.message}</div>`}
      ${
        conflict &&
        html`<div class="conflict" role="alertdialog" aria-labelledby="conflict-title" data-testid="conflict">
          <h3 id="conflict-title">Someone else saved this template</h3>
          <p>Version ${conflict.version} was saved at ${new Date(conflict.updated_at).toLocaleString()}, after you opened it. Your changes are not saved yet.</p>
          <div class="row">
            <button type="button" data-testid="conflict-reload" onClick=${() => void takeTheirs()}>Load their version (Undo brings yours back)</button>
            <button type="button" class="danger" data-testid="conflict-overwrite" onClick=${() => void save(conflict)}>Overwrite theirs with mine</button>
            <button type="button" onClick=${() => setConflict(null)}>Decide later</button>
          </div>
        </div>`
      }
      <div class="editor-grid">
        <section class="pane structure" id="structure" aria-label="Structure">
          ${
            writable &&
            html`<div class="node-tools" role="toolbar" aria-label="Selected node">
            <button type="button" class="small" data-testid="move-up" disabled=${selection === "canvas"} onClick=${() => moveBy(selection, -1)} title="Move up (Alt+↑)">↑</button>
            <button type="button" class="small" data-testid="move-down" disabled=${selection === "canvas"} onClick=${() => moveBy(selection, 1)} title="Move down (Alt+↓)">↓</button>
            <button type="button" class="small" data-testid="duplicate" disabled=${selection === "canvas"} onClick=${() => duplicate(selection)} title="Duplicate (Ctrl+D)">Duplicate</button>
            <button type="button" class="small danger" data-testid="delete" disabled=${selection === "canvas"} onClick=${() => remove(selection)} title="Delete (Delete)">Delete</button>
          </div>`
          }
          <div class="structure-body">
          <${Tree} doc=${doc} descriptions=${descriptions} selection=${selection} focusRequest=${focusRequest} readOnly=${!writable} findingPaths=${findingPaths}
            onSelect=${select} onMoveBy=${moveBy} onDrop=${drop} onDuplicate=${duplicate} onDelete=${(path: string) => {
              // Deleted by keyboard: the focus goes on to the node that takes its place.
              remove(path);
              setFocusRequest((n) => n + 1);
            }}
            onEnter=${() => document.querySelector<HTMLElement>(".form [data-prop]")?.focus()} />
          ${writable && html`<${Palette} descriptions=${descriptions} canNest=${canNest} actions=${actions} />`}
          </div>
        </section>
        <section class="pane properties" id="properties" aria-label="Properties">
          <div class="tabs" role="tablist" aria-label="Edit as">
            <button type="button" role="tab" aria-selected=${middle === "form"} class=${middle === "form" ? "current" : ""} data-testid="tab-form" onClick=${() => setMiddle("form")}>Properties</button>
            <button type="button" role="tab" aria-selected=${middle === "json"} class=${middle === "json" ? "current" : ""} data-testid="tab-json" onClick=${() => setMiddle("json")}>JSON</button>
          </div>
          ${
            middle === "form"
              ? html`${
                  selection === "canvas" &&
                  html`<div class="field"><div class="field-label"><label for="field-template_name">Template name</label></div>
                  <input id="field-template_name" data-prop="template_name" type="text" value=${name} readOnly=${!writable}
                    onInput=${(e: Event) => change((d) => ({ doc: { ...d, template_name: (e.target as HTMLInputElement).value } }), "template_name")} /></div>`
                }
                <${NodeForm} doc=${doc} path=${selection} descriptions=${descriptions} context=${{ tags, contextKeys, readOnly: !writable }} decision=${decision}
                  findings=${[...(preview?.findings ?? []), ...jsonIssues.map(issueAsFinding)]} onChange=${setSetting} onColumns=${(n: number) => change((d, sel) => ({ doc: setColumnCount(d, sel, n) }))} />`
              : html`<${JsonPane} doc=${doc} issues=${jsonIssues} readOnly=${!writable} onApply=${applyJson} />`
          }
        </section>
        <section class="pane preview" id="preview" aria-label="Preview">
          ${
            previewError &&
            html`<div class="card" role="alert" data-testid="preview-error"><p class="bad">${previewError.message}</p>
            ${previewError.issues.length > 0 && html`<p class="muted">See the JSON tab for where.</p>`}</div>`
          }
          <${PreviewFrames} preview=${preview} settings=${frames} onSettings=${setFrames} loading=${rendering} />
          ${preview && html`<${ChecksPanel} preview=${preview} onSelect=${selectPath} />`}
          <section class="card" aria-labelledby="sample-title">
            <h2 id="sample-title">Sample data</h2>
            <label for="sample-data" class="muted">dynamic_data: merge_tags by group, context for visibility rules; the preview follows as you type${writable ? "" : " (a viewer key cannot save it)"}</label>
            <textarea id="sample-data" spellcheck=${false} value=${sampleText ?? ""} onInput=${(e: Event) => {
              setSampleTouched(true);
              setSampleState(writable && id !== null ? "Changed, not saved" : "Changed: the previews follow, nothing is saved");
              setSampleText((e.target as HTMLTextAreaElement).value);
            }}></textarea>
            ${sample.problem && html`<p class="bad" role="alert">${sample.problem}</p>`}
            <div class="row">${writable && id !== null && html`<button type="button" onClick=${() => void saveSample()}>Save sample data</button>`}<span class="muted" role="status">${sampleState}</span></div>
          </section>
          ${preview && html`<${VisibilityPanel} decisions=${preview.visibility} onSelect=${selectPath} />`}
          ${
            preview &&
            html`<section class="card" aria-labelledby="source-title">
            <h2 id="source-title">Source</h2>
            <${SourceBlock} title="HTML" text=${preview.html.output} file=${`${base}.html`} type="text/html" />
            ${
              preview.view &&
              html`<${SourceBlock} title=${preview.view.target === "mjml" ? "MJML" : "React Email (TSX)"} text=${preview.view.source.output}
              file=${`${base}.${preview.view.target === "mjml" ? "mjml" : "tsx"}`} type="text/plain" />`
            }
            <${SourceBlock} title="Plain text" text=${preview.text} file=${`${base}.txt`} type="text/plain" />
            <${SourceBlock} title="Template JSON" text=${JSON.stringify(doc, null, 2)} file=${`${base}.json`} type="application/json" />
          </section>`
          }
        </section>
      </div>
    </div>
  `;
}
