/** Validation issues shown with their path into the document and the block (or row) they point at. */
import { html } from "htm/preact";
import { ApiFailure, type Issue } from "./api.js";

export function describeFailure(err: unknown): string {
  if (err instanceof ApiFailure) return `${err.message} (${err.code}, HTTP ${err.status})`;
  if (err instanceof TypeError) return `The server could not be reached: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/** The innermost node with an id on the issue's path: "paragraph p-3" or "row r-1". */
function nodeAt(doc: unknown, loc: readonly string[]): string | null {
  let current: unknown = doc;
  let found: string | null = null;
  // The API's loc starts with where the document was sent ("body").
  for (const step of loc[0] === "body" ? loc.slice(1) : loc) {
    if (typeof current !== "object" || current === null) break;
    current = (current as Record<string, unknown>)[step];
    if (typeof current === "object" && current !== null && typeof (current as { id?: unknown }).id === "string") {
      const node = current as { id: string; componentType?: unknown; type?: unknown };
      const kind = typeof node.componentType === "string" ? node.componentType : typeof node.type === "string" ? node.type : "node";
      found = `${kind} "${node.id}"`;
    }
  }
  return found;
}

export function Issues({ issues, doc }: { issues: Issue[]; doc: unknown }) {
  if (issues.length === 0) return null;
  return html`<ul class="issues" data-testid="issues">
    ${issues.map((issue) => {
      const node = nodeAt(doc, issue.loc);
      return html`<li><span class="mono">${issue.loc.join(".") || "(document)"}</span>: ${issue.msg} <span class="muted">[${issue.type}]</span>${node ? html` — in ${node}` : ""}</li>`;
    })}
  </ul>`;
}
