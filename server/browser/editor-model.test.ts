/**
 * The editor's document changes and its undo history, without a browser: moves within and across
 * lists, duplicates with fresh ids, the format's nesting limit, column counts, and an undo history
 * deep enough for a long session (at least the 100 steps a user expects), typing merged into one step.
 */
import { templateJsonSchema } from "@mailrender/engine";
import { describe, expect, it } from "vitest";
import { HISTORY_STEPS, record, redo, startHistory, undo } from "../studio/src/editor/history.js";
import {
  type Doc,
  duplicateAt,
  emptyTemplate,
  fitsIn,
  getAt,
  IdMaker,
  insertAt,
  MAX_ROW_DEPTH,
  moveTo,
  newBlock,
  newRow,
  setAt,
  setColumnCount,
} from "../studio/src/editor/model.js";

/** Two rows: the first of two columns with blocks a, b, c in the first column. */
function sample(): Doc {
  let doc = emptyTemplate("t");
  const ids = new IdMaker(doc);
  doc = insertAt(doc, "rows", 0, newRow(ids, 2)).doc;
  doc = insertAt(doc, "rows", 1, newRow(ids, 1)).doc;
  for (const [i, text] of ["a", "b", "c"].entries()) doc = insertAt(doc, "rows.0.columns.0.children", i, newBlock(ids, "paragraph", { content: text })).doc;
  return doc;
}

const contents = (doc: Doc, list: string) => (getAt(doc, list) as { props: { content: string } }[]).map((b) => b.props.content);

function ids(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) ids(item, out);
  else if (typeof node === "object" && node !== null) {
    const record = node as Record<string, unknown>;
    if (typeof record["id"] === "string") out.push(record["id"]);
    for (const key of ["rows", "columns", "children", "components"]) ids(record[key], out);
  }
  return out;
}

describe("the editor's document changes", () => {
  it("moves a block down, up, and into another column, with its new path", () => {
    const doc = sample();
    const down = moveTo(doc, "rows.0.columns.0.children.0", "rows.0.columns.0.children", 2);
    expect(contents(down.doc, "rows.0.columns.0.children")).toEqual(["b", "a", "c"]);
    expect(down.path).toBe("rows.0.columns.0.children.1");
    const up = moveTo(doc, "rows.0.columns.0.children.2", "rows.0.columns.0.children", 0);
    expect(contents(up.doc, "rows.0.columns.0.children")).toEqual(["c", "a", "b"]);
    const across = moveTo(doc, "rows.0.columns.0.children.1", "rows.0.columns.1.children", 0);
    expect(contents(across.doc, "rows.0.columns.0.children")).toEqual(["a", "c"]);
    expect(contents(across.doc, "rows.0.columns.1.children")).toEqual(["b"]);
    expect(across.path).toBe("rows.0.columns.1.children.0");
    // A row moved before the row it came from: the target list's path shifts as the row is taken out.
    const rowDown = moveTo(doc, "rows.0", "rows", 2);
    expect(rowDown.path).toBe("rows.1");
    expect(contents(rowDown.doc, "rows.1.columns.0.children")).toEqual(["a", "b", "c"]);
  });

  it("duplicates a row with fresh ids for everything inside it", () => {
    const { doc, path } = duplicateAt(sample(), "rows.0");
    expect(path).toBe("rows.1");
    const all = ids(doc["rows"]);
    expect(new Set(all).size).toBe(all.length);
    expect(contents(doc, "rows.1.columns.0.children")).toEqual(["a", "b", "c"]);
  });

  it("keeps rows within the format's nesting limit and blocks out of the top level", () => {
    let doc = sample();
    const idMaker = new IdMaker(doc);
    expect(fitsIn(doc, newBlock(idMaker, "paragraph", {}), "rows")).toBe(false);
    let column = "rows.0.columns.0.children";
    let depth = 1;
    while (fitsIn(doc, newRow(idMaker, 1), column)) {
      const inserted = insertAt(doc, column, 0, newRow(idMaker, 1));
      doc = inserted.doc;
      column = `${inserted.path}.columns.0.children`;
      depth += 1;
      expect(depth).toBeLessThan(10);
    }
    // As deep as the engine reads rows, and no deeper.
    expect(depth).toBe(MAX_ROW_DEPTH);
    expect(String(templateJsonSchema().description)).toContain(`Rows nest at most ${MAX_ROW_DEPTH} deep`);
  });

  it("changes a row's column count: removed columns' blocks go to the last kept, widths stay whole and add up to 100", () => {
    const three = setColumnCount(sample(), "rows.0", 3);
    expect((getAt(three, "rows.0.columns") as { width: number }[]).map((c) => c.width)).toEqual([33, 33, 34]);
    const moved = moveTo(three, "rows.0.columns.0.children.0", "rows.0.columns.2.children", 0).doc;
    const one = setColumnCount(moved, "rows.0", 1);
    expect((getAt(one, "rows.0.columns") as unknown[]).length).toBe(1);
    expect(contents(one, "rows.0.columns.0.children").sort()).toEqual(["a", "b", "c"]);
  });
});

describe("the editor's undo history", () => {
  it(`undoes and redoes ${HISTORY_STEPS} steps, and no fewer than 100`, () => {
    expect(HISTORY_STEPS).toBeGreaterThanOrEqual(100);
    const start = sample();
    let history = startHistory({ doc: start, selection: "canvas" });
    let doc = start;
    for (let i = 1; i <= HISTORY_STEPS + 50; i++) {
      doc = setAt(doc, ["canvas", "preheaderText"], `step ${i}`);
      history = record(history, { doc, selection: "canvas" }, null, i * 10_000);
    }
    for (let i = 0; i < HISTORY_STEPS; i++) history = undo(history);
    expect(history.present.doc["canvas"]).toEqual({ preheaderText: "step 50" });
    expect(undo(history)).toBe(history);
    for (let i = 0; i < HISTORY_STEPS; i++) history = redo(history);
    expect(history.present.doc["canvas"]).toEqual({ preheaderText: `step ${HISTORY_STEPS + 50}` });
  });

  it("makes typing in one field one step, and a pause or another field a new one", () => {
    let history = startHistory({ doc: sample(), selection: "canvas" });
    let doc = history.present.doc;
    const type = (field: string, text: string, at: number) => {
      doc = setAt(doc, ["canvas", field], text);
      history = record(history, { doc, selection: "canvas" }, `canvas|${field}`, at);
    };
    type("preheaderText", "H", 1_000);
    type("preheaderText", "Hi", 1_200);
    type("preheaderText", "Hi!", 1_400);
    type("language", "en", 1_500);
    type("language", "en-GB", 9_000);
    expect(history.past.length).toBe(3);
    history = undo(history);
    expect(history.present.doc["canvas"]).toEqual({ preheaderText: "Hi!", language: "en" });
    history = undo(history);
    history = undo(history);
    expect(history.present.doc["canvas"]).toEqual({});
  });
});
