/**
 * The studio's home: the templates, and ways to start one — empty (to design in the editor), from a
 * starter, from a JSON file or pasted JSON.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, api, type Issue } from "./api.js";
import { dropDraft } from "./editor/draft.js";
import { describeFailure, Issues } from "./issues.js";
import { type Route, STUDIO } from "./route.js";

interface TemplateMeta {
  id: string;
  name: string;
  version: number;
  etag: string;
  created_at: string;
  updated_at: string;
}

interface Starter {
  name: string;
  file: string;
  template: Record<string, unknown>;
}

/**
 * A document dropped or pasted here becomes a new template: the id it carries (another template's, a
 * file's own name for it) is not the one it gets, so it is left out and the service writes one.
 */
function withoutId(doc: unknown): unknown {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return doc;
  const { template_id: _id, ...rest } = doc as Record<string, unknown>;
  return rest;
}

function TemplateList({ go }: { go: (route: Route) => void }) {
  const [templates, setTemplates] = useState<TemplateMeta[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api<{ templates: TemplateMeta[] }>("GET", "/api/v1/templates?limit=500")
      .then((r) => setTemplates(r.templates))
      .catch((err: unknown) => setError(describeFailure(err)));
  }, []);
  return html`
    <section class="card" aria-labelledby="list-title">
      <h2 id="list-title">Templates</h2>
      ${error && html`<p class="bad" role="alert">${error}</p>`}
      ${
        templates === null
          ? html`<p class="muted">Loading…</p>`
          : templates.length === 0
            ? html`<p class="muted">No templates yet.</p>`
            : html`<table class="templates">
              <thead><tr><th>Name</th><th>Version</th><th>Updated</th></tr></thead>
              <tbody>
                ${templates.map(
                  (t) => html`<tr>
                    <td><a href=${`${STUDIO}/templates/${t.id}`} onClick=${(e: Event) => {
                      e.preventDefault();
                      go({ page: "template", id: t.id });
                    }}>${t.name || "(no name)"}</a><div class="muted mono">${t.id.slice(0, 8)}</div></td>
                    <td>${t.version}</td>
                    <td title=${t.updated_at}>${new Date(t.updated_at).toLocaleString()}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>
  `;
}

/** A template JSON from a dropped or chosen file, or pasted text. */
function TemplateSource({ onSubmit }: { onSubmit: (doc: unknown) => Promise<void> }) {
  const [text, setText] = useState("");
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; issues: Issue[]; doc: unknown } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const submit = async (source: string, name: string) => {
    setProblem(null);
    let doc: unknown;
    try {
      doc = JSON.parse(source);
    } catch (err) {
      setProblem({ message: `${name} is not JSON: ${err instanceof Error ? err.message : String(err)}`, issues: [], doc: undefined });
      return;
    }
    setBusy(true);
    try {
      await onSubmit(doc);
      setText("");
    } catch (err) {
      setProblem({ message: describeFailure(err), issues: err instanceof ApiFailure ? err.issues : [], doc });
    } finally {
      setBusy(false);
    }
  };
  const readFile = async (file: File | undefined) => {
    if (file) await submit(await file.text(), file.name);
  };
  return html`
    <div>
      <div
        class=${`drop${over ? " over" : ""}`}
        onDragOver=${(e: DragEvent) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave=${() => setOver(false)}
        onDrop=${(e: DragEvent) => {
          e.preventDefault();
          setOver(false);
          void readFile(e.dataTransfer?.files[0]);
        }}
      >
        Drop a template JSON file here, or
        <button type="button" onClick=${() => fileInput.current?.click()}>choose a file</button>
        <input ref=${fileInput} type="file" accept=".json,application/json" hidden data-testid="new-template-file" onChange=${(e: Event) => void readFile((e.target as HTMLInputElement).files?.[0])} />
      </div>
      <label for="new-template-paste">…or paste the JSON</label>
      <textarea id="new-template-paste" value=${text} onInput=${(e: Event) => setText((e.target as HTMLTextAreaElement).value)} placeholder='{"template_name": "…", "schema_version": "1.0", "canvas": {}, "rows": []}'></textarea>
      <div class="row"><button type="button" class="primary" disabled=${busy || text.trim() === ""} onClick=${() => void submit(text, "The pasted text")}>Create template</button></div>
      ${problem && html`<div role="alert" data-testid="template-problem"><p class="bad">${problem.message}</p><${Issues} issues=${problem.issues} doc=${problem.doc} /></div>`}
    </div>
  `;
}

function NewTemplate({ go }: { go: (route: Route) => void }) {
  const [name, setName] = useState("");
  const [starters, setStarters] = useState<Starter[]>([]);
  const [error, setError] = useState("");
  useEffect(() => {
    api<{ starters: Starter[] }>("GET", "/api/v1/studio/starters")
      .then((r) => setStarters(r.starters))
      .catch(() => setStarters([]));
  }, []);
  const create = async (doc: unknown) => {
    const created = await api<{ id: string }>("POST", "/api/v1/templates", withoutId(doc));
    go({ page: "template", id: created.id });
  };
  return html`
    <section class="card" aria-labelledby="create-title">
      <h2 id="create-title">New template</h2>
      <form class="new-template" onSubmit=${(e: Event) => {
        e.preventDefault();
        // A new design starts empty: an older unsaved new template is replaced.
        dropDraft(null);
        go({ page: "new", name: name.trim() || "Untitled" });
      }}>
        <label for="new-template-name">Name (the email's title)</label>
        <div class="row">
          <input id="new-template-name" data-testid="new-template-name" value=${name} placeholder="Reset your password" onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} />
          <button type="submit" class="primary" data-testid="new-template">Design it</button>
        </div>
      </form>
      ${
        starters.length > 0 &&
        html`<h3>From a starter</h3>
        <div class="row">${starters.map(
          (s) => html`<button type="button" onClick=${() => create(s.template).catch((err: unknown) => setError(describeFailure(err)))}>${s.name}</button>`,
        )}</div>`
      }
      ${error && html`<p class="bad" role="alert">${error}</p>`}
      <h3>From JSON</h3>
      <${TemplateSource} onSubmit=${create} />
    </section>
  `;
}

export function Home({ writable, go }: { writable: boolean; go: (route: Route) => void }) {
  return html`<main class="home">
    <${TemplateList} go=${go} />
    ${writable ? html`<${NewTemplate} go=${go} />` : html`<section class="card"><h2>Read only</h2><p class="muted">This key may read and preview templates; an editor or admin key also designs them.</p></section>`}
  </main>`;
}
