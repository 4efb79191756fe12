/**
 * The template's JSON beside the design, editable: each edit that is JSON becomes the document (one
 * undo step while typing), checked by the engine with the next preview; text that is not JSON yet
 * stays in the box with where it breaks, and the design keeps the last good document. Everything in
 * the JSON is kept, the keys the forms do not show included.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Issue } from "../api.js";
import { Issues } from "../issues.js";
import type { Doc } from "./model.js";
import { isObject } from "./model.js";

/** Line and column of a JSON.parse error's position, when the browser says it. */
function where(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${message.replace(/ in JSON at position \d+.*$/, "")} (line ${line}, column ${column})`;
}

export function JsonPane({ doc, issues, readOnly, onApply }: { doc: Doc; issues: Issue[]; readOnly: boolean; onApply: (doc: Doc) => void }) {
  const formatted = JSON.stringify(doc, null, 2);
  const [text, setText] = useState(formatted);
  const [problem, setProblem] = useState("");
  /** The document this box last wrote: another one came from the design (or undo), and replaces the text. */
  const applied = useRef(formatted);
  useEffect(() => {
    if (formatted !== applied.current) {
      applied.current = formatted;
      setText(formatted);
      setProblem("");
    }
  }, [formatted]);

  const onInput = (e: Event) => {
    const next = (e.target as HTMLTextAreaElement).value;
    setText(next);
    let parsed: unknown;
    try {
      parsed = JSON.parse(next);
    } catch (err) {
      setProblem(where(next, err));
      return;
    }
    if (!isObject(parsed)) {
      setProblem("A template is a JSON object: { … }");
      return;
    }
    setProblem("");
    applied.current = JSON.stringify(parsed, null, 2);
    onApply(parsed);
  };

  return html`
    <div class="json-pane">
      <p class="muted small-text">The template as it is saved. Edit it here or in the design: both change together.</p>
      <textarea data-testid="template-json" aria-label="Template JSON" spellcheck=${false} readOnly=${readOnly} value=${text} onInput=${onInput}
        aria-invalid=${problem !== "" || issues.length > 0}></textarea>
      <p class=${problem ? "bad" : issues.length > 0 ? "bad" : "ok"} role="status" data-testid="json-status">
        ${problem ? `Not JSON: ${problem}` : issues.length > 0 ? "JSON, but not a valid template:" : "Valid template JSON."}
      </p>
      ${!problem && html`<${Issues} issues=${issues} doc=${doc} />`}
    </div>
  `;
}
