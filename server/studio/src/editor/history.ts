/**
 * Undo and redo: the editor's state is the document and the selection, kept whole for each step
 * (documents share their unchanged parts, so a step costs the objects a change copied). Typing in
 * one field makes one step, not one per key: a change with the same `merge` key as the last one,
 * within a moment, replaces it.
 */
import type { Doc } from "./model.js";

/** At least the 100 steps a user can expect to undo. */
export const HISTORY_STEPS = 200;
const MERGE_WITHIN_MS = 1200;

export interface Snapshot {
  doc: Doc;
  selection: string;
}

export interface History {
  present: Snapshot;
  past: Snapshot[];
  future: Snapshot[];
  /** The last change's merge key and time. */
  last: { merge: string; at: number } | null;
}

export function startHistory(present: Snapshot): History {
  return { present, past: [], future: [], last: null };
}

/** A change: `merge` names what was changed (a field of a node), so that typing in it makes one step. */
export function record(history: History, next: Snapshot, merge: string | null, now = Date.now()): History {
  if (next.doc === history.present.doc) return { ...history, present: next };
  const merging = merge !== null && history.last?.merge === merge && now - history.last.at < MERGE_WITHIN_MS && history.past.length > 0;
  const past = merging ? history.past : [...history.past, history.present].slice(-HISTORY_STEPS);
  return { present: next, past, future: [], last: merge === null ? null : { merge, at: now } };
}

export function undo(history: History): History {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return { present: previous, past: history.past.slice(0, -1), future: [history.present, ...history.future], last: null };
}

export function redo(history: History): History {
  const [next, ...future] = history.future;
  if (next === undefined) return history;
  return { present: next, past: [...history.past, history.present], future, last: null };
}
