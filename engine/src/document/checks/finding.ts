/** A finding of the template checks, located in the document (spec/checks.md). */
import type { RenderTarget } from "../../base/types.js";
import type { Severity } from "../../blocks/block.js";

export type { Severity };

export interface Finding {
  readonly severity: Severity;
  /** Stable, for programs (spec/checks.md lists every code). */
  readonly code: string;
  /**
   * JSON path into the template document: the prop at fault, or the block, row or column; `[]`
   * only for what is about the whole email (its size, a client's support).
   */
  readonly path: readonly string[];
  /** The offending value as written, shortened ("" when there is none to show). */
  readonly value: string;
  /** What is wrong, for a person. */
  readonly message: string;
  /** How to fix it. */
  readonly hint: string;
  /** The target whose output it is about (size, mail clients); absent for the template itself. */
  readonly target?: RenderTarget;
}

/** How much of a value a finding quotes. */
const SHORT = 80;

/** A value as a finding quotes it: text as it is, anything else as JSON, cut to 80 characters. */
export function shorten(value: unknown): string {
  if (value === undefined) return "";
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length <= SHORT ? text : `${text.slice(0, SHORT - 1)}…`;
}

export function finding(
  severity: Severity,
  code: string,
  path: readonly string[],
  value: unknown,
  message: string,
  hint: string,
  target?: RenderTarget,
): Finding {
  return { severity, code, path, value: shorten(value), message, hint, ...(target === undefined ? {} : { target }) };
}

/** The value at a JSON path of a document, or undefined. */
export function valueAt(json: unknown, path: readonly string[]): unknown {
  let node = json;
  for (const key of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** A path as text that sorts in document order: list indices padded, names as they are. */
const sortKey = (path: readonly string[]): string => path.map((key) => (/^\d+$/.test(key) ? key.padStart(8, "0") : key)).join("\u0000");

/** Findings in document order (a node's own before those of what it holds), then by severity, then as found. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, index) => ({ f, index, key: sortKey(f.path) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || ORDER[a.f.severity] - ORDER[b.f.severity] || a.index - b.index)
    .map(({ f }) => f);
}
