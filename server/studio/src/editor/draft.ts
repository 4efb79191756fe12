/**
 * The draft kept in this browser (localStorage) while a template has unsaved changes, so that a
 * reload, a crash or a closed tab loses nothing: per template (or `new` for one not saved yet), with
 * the ETag of the version it was based on, so that restoring it over a newer version still asks.
 */
import type { Doc } from "./model.js";

const PREFIX = "mailrender.draft.";

export interface Draft {
  doc: Doc;
  /** The ETag of the stored version the changes were made to (null: a template not saved yet). */
  baseEtag: string | null;
  savedAt: string;
}

export function readDraft(id: string | null): Draft | null {
  try {
    const text = localStorage.getItem(PREFIX + (id ?? "new"));
    if (text === null) return null;
    const draft = JSON.parse(text) as Draft;
    return typeof draft.doc === "object" && draft.doc !== null ? draft : null;
  } catch {
    return null;
  }
}

export function writeDraft(id: string | null, doc: Doc, baseEtag: string | null): void {
  try {
    localStorage.setItem(PREFIX + (id ?? "new"), JSON.stringify({ doc, baseEtag, savedAt: new Date().toISOString() } satisfies Draft));
  } catch {
    // Storage full or disabled: the draft is not kept, the editor works on.
  }
}

export function dropDraft(id: string | null): void {
  try {
    localStorage.removeItem(PREFIX + (id ?? "new"));
  } catch {
    // As above.
  }
}
