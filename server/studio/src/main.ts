/**
 * The mailrender studio: sign in with a viewer, editor or admin key (kept in this browser tab's
 * sessionStorage only), manage templates as the key's role allows, and see one rendered for every
 * target with its sample data. Preact + htm, bundled by server/scripts/build-studio.ts; talks only to
 * this server's API.
 */
import { html } from "htm/preact";
import { render } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, api, clearKey, type Issue, type Me, readKey, saveKey } from "./api.js";
import { describeFailure, Issues } from "./issues.js";

interface TemplateMeta {
  id: string;
  name: string;
  version: number;
  etag: string;
  created_at: string;
  updated_at: string;
}

interface Warning {
  code: string;
  message: string;
  path: string[];
}

interface TargetPreview {
  output: string;
  bytes: number;
  warnings: Warning[];
}

interface Decision {
  id: string;
  path: string[];
  kind: string;
  block: string | null;
  visible: boolean;
  reason: string;
  match: string | null;
  rules: { tag: string; operator: string; value: string; actual: string | null; passed: boolean }[];
  hiddenOn: string[];
}

interface Preview {
  targets: { html: TargetPreview; mjml: TargetPreview; "react-email": TargetPreview };
  text: string;
  gmail_clip_bytes: number;
  visibility: Decision[];
}

interface Starter {
  name: string;
  file: string;
  template: Record<string, unknown>;
}

const STUDIO = "/studio";

function templateIdInPath(): string | null {
  const match = /^\/studio\/templates\/([0-9a-f-]{36})$/.exec(location.pathname);
  return match ? match[1]! : null;
}

function navigate(id: string | null): void {
  history.pushState(null, "", id === null ? STUDIO : `${STUDIO}/templates/${id}`);
  dispatchEvent(new PopStateEvent("popstate"));
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** What the signed-in key's role lets the page offer. */
function canWrite(me: Me): boolean {
  return me.permissions.includes("templates:write");
}

function App() {
  const [me, setMe] = useState<Me | null>(null);
  const [meError, setMeError] = useState("");
  const [selected, setSelected] = useState<string | null>(templateIdInPath());
  const [listVersion, setListVersion] = useState(0);
  useEffect(() => {
    const onPop = () => setSelected(templateIdInPath());
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  // A key kept from earlier in this tab: who it is (a 401 signs the tab out, see api()).
  useEffect(() => {
    if (readKey() !== null && me === null) {
      api<Me>("GET", "/api/v1/me")
        .then(setMe)
        .catch((err: unknown) => setMeError(describeFailure(err)));
    }
  }, [me]);
  if (readKey() === null) return html`<${SignIn} onSignedIn=${setMe} />`;
  if (me === null)
    return html`<section class="card"><p class=${meError ? "bad" : "muted"} role=${meError ? "alert" : "status"}>${meError || "Signing in…"}</p></section>`;
  const signOut = () => {
    clearKey();
    setMe(null);
  };
  const changed = () => setListVersion((v) => v + 1);
  return html`
    <header class="top">
      <h1><a href=${STUDIO} onClick=${(e: Event) => {
        e.preventDefault();
        navigate(null);
      }}>mailrender studio</a></h1>
      <span class="spacer"></span>
      <span class="muted" data-testid="signed-in-as">${me.name} · ${me.role}${canWrite(me) ? "" : " (read only)"}</span>
      <a href="/docs">API docs</a>
      <button type="button" onClick=${signOut}>Sign out</button>
    </header>
    <main class="layout">
      <div>
        <${TemplateList} selected=${selected} version=${listVersion} />
        ${
          canWrite(me) &&
          html`<${CreateTemplate} onCreated=${(id: string) => {
            changed();
            navigate(id);
          }} />`
        }
      </div>
      <div>
        ${
          selected === null
            ? html`<section class="card"><h2>No template open</h2><p class="muted">Pick a template on the left${canWrite(me) ? ", or create one from a file, pasted JSON or a starter" : ""}.</p></section>`
            : html`<${TemplateView} key=${selected} id=${selected} writable=${canWrite(me)} onChanged=${changed} onDeleted=${() => {
                changed();
                navigate(null);
              }} />`
        }
      </div>
    </main>
  `;
}

function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState("");
  const submit = async (e: Event) => {
    e.preventDefault();
    setError("");
    try {
      const me = await api<Me>("GET", "/api/v1/me", undefined, value.trim());
      if (!me.permissions.includes("templates:read")) {
        setError(`This is a ${me.role} key, for the SDK only: sign in with a viewer, editor or admin key.`);
        return;
      }
      saveKey(value.trim());
      onSignedIn(me);
    } catch (err) {
      setError(describeFailure(err));
    }
  };
  return html`
    <section class="card signin">
      <h2>Sign in to the mailrender studio</h2>
      <p class="muted">Use a viewer, editor or admin API key: a viewer key reads and previews, an editor key also changes templates. It is kept in this tab only (sessionStorage) and sent as the Bearer header.</p>
      <form onSubmit=${submit}>
        <label for="api-key">API key</label>
        <input id="api-key" data-testid="api-key" type="password" autocomplete="off" spellcheck="false" value=${value} onInput=${(e: Event) => setValue((e.target as HTMLInputElement).value)} required />
        <div class="row"><button class="primary" type="submit">Sign in</button></div>
        <p class="status bad" role="alert">${error}</p>
      </form>
    </section>
  `;
}

function TemplateList({ selected, version }: { selected: string | null; version: number }) {
  const [templates, setTemplates] = useState<TemplateMeta[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api<{ templates: TemplateMeta[] }>("GET", "/api/v1/templates?limit=100")
      .then((r) => setTemplates(r.templates))
      .catch((err: unknown) => setError(describeFailure(err)));
  }, [version, selected]);
  return html`
    <section class="card" aria-labelledby="list-title">
      <h2 id="list-title">Templates</h2>
      ${error && html`<p class="bad" role="alert">${error}</p>`}
      ${
        templates === null
          ? html`<p class="muted">Loading…</p>`
          : templates.length === 0
            ? html`<p class="muted">No templates yet.</p>`
            : html`<table>
              <thead><tr><th>Name</th><th>Version</th><th>Updated</th></tr></thead>
              <tbody>
                ${templates.map(
                  (t) => html`<tr class=${t.id === selected ? "current" : ""}>
                    <td><a href=${`${STUDIO}/templates/${t.id}`} aria-current=${t.id === selected ? "page" : undefined} onClick=${(e: Event) => {
                      e.preventDefault();
                      navigate(t.id);
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
function TemplateSource({ label, action, onSubmit }: { label: string; action: string; onSubmit: (doc: unknown, source: string) => Promise<void> }) {
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
      await onSubmit(doc, source);
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
  const id = label.replace(/\W+/g, "-").toLowerCase();
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
        <input ref=${fileInput} type="file" accept=".json,application/json" hidden data-testid=${`${id}-file`} onChange=${(e: Event) => void readFile((e.target as HTMLInputElement).files?.[0])} />
      </div>
      <label for=${`${id}-paste`}>…or paste the JSON</label>
      <textarea id=${`${id}-paste`} value=${text} onInput=${(e: Event) => setText((e.target as HTMLTextAreaElement).value)} placeholder='{"template_name": "…", "schema_version": "1.0", "canvas": {}, "rows": []}'></textarea>
      <div class="row"><button type="button" class="primary" disabled=${busy || text.trim() === ""} onClick=${() => void submit(text, "The pasted text")}>${action}</button></div>
      ${problem && html`<div role="alert" data-testid="template-problem"><p class="bad">${problem.message}</p><${Issues} issues=${problem.issues} doc=${problem.doc} /></div>`}
    </div>
  `;
}

/**
 * A document dropped or pasted here becomes a new template, or this one's new version: the id it
 * carries (another template's, a file's own name for it) is not the one it gets, so it is left out
 * and the service writes the template's id (it refuses one it cannot keep).
 */
function withoutId(doc: unknown): unknown {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return doc;
  const { template_id: _id, ...rest } = doc as Record<string, unknown>;
  return rest;
}

function CreateTemplate({ onCreated }: { onCreated: (id: string) => void }) {
  const [starters, setStarters] = useState<Starter[]>([]);
  const [error, setError] = useState("");
  useEffect(() => {
    api<{ starters: Starter[] }>("GET", "/api/v1/studio/starters")
      .then((r) => setStarters(r.starters))
      .catch(() => setStarters([]));
  }, []);
  const create = async (doc: unknown) => {
    const created = await api<{ id: string }>("POST", "/api/v1/templates", withoutId(doc));
    onCreated(created.id);
  };
  const fromStarter = async (starter: Starter) => {
    setError("");
    try {
      await create(starter.template);
    } catch (err) {
      setError(describeFailure(err));
    }
  };
  return html`
    <section class="card" aria-labelledby="create-title">
      <h2 id="create-title">New template</h2>
      <${TemplateSource} label="New template" action="Create template" onSubmit=${create} />
      ${
        starters.length > 0 &&
        html`<h3>From a starter</h3>
        <div class="row">${starters.map((s) => html`<button type="button" onClick=${() => void fromStarter(s)}>${s.name}</button>`)}</div>`
      }
      ${error && html`<p class="bad" role="alert">${error}</p>`}
    </section>
  `;
}

function TemplateView({ id, writable, onChanged, onDeleted }: { id: string; writable: boolean; onChanged: () => void; onDeleted: () => void }) {
  const [meta, setMeta] = useState<(TemplateMeta & { template: unknown }) | null>(null);
  const [sample, setSample] = useState<string | null>(null);
  const [sampleState, setSampleState] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<{ message: string; issues: Issue[] } | null>(null);
  const [loadError, setLoadError] = useState("");
  const [showReplace, setShowReplace] = useState(false);
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    Promise.all([
      api<TemplateMeta & { template: unknown }>("GET", `/api/v1/templates/${id}`),
      api<{ dynamic_data: unknown; saved: boolean }>("GET", `/api/v1/templates/${id}/sample`),
    ])
      .then(([template, s]) => {
        setMeta(template);
        setSample((current) => current ?? JSON.stringify(s.dynamic_data, null, 2));
        setSampleState(
          (current) => current || (s.saved ? "Saved sample data" : "Sample data built from the template's merge tags and context keys (not saved yet)"),
        );
      })
      .catch((err: unknown) => setLoadError(describeFailure(err)));
  }, [id, revision]);

  // Live render: every edit of the sample data (once it is JSON) re-renders after a short pause.
  useEffect(() => {
    if (sample === null || meta === null) return;
    let data: unknown;
    try {
      data = JSON.parse(sample);
    } catch (err) {
      setPreviewError({ message: `Sample data is not JSON: ${err instanceof Error ? err.message : String(err)}`, issues: [] });
      return;
    }
    const timer = setTimeout(() => {
      api<Preview>("POST", `/api/v1/templates/${id}/preview`, { dynamic_data: data })
        .then((p) => {
          setPreview(p);
          setPreviewError(null);
        })
        .catch((err: unknown) => setPreviewError({ message: describeFailure(err), issues: err instanceof ApiFailure ? err.issues : [] }));
    }, 250);
    return () => clearTimeout(timer);
  }, [sample, meta, id]);

  const saveSample = async () => {
    try {
      await api("PUT", `/api/v1/templates/${id}/sample`, { dynamic_data: JSON.parse(sample ?? "{}") as unknown });
      setSampleState(`Saved at ${new Date().toLocaleTimeString()}`);
    } catch (err) {
      setSampleState(describeFailure(err));
    }
  };
  const replace = async (doc: unknown) => {
    await api("PUT", `/api/v1/templates/${id}`, withoutId(doc));
    setShowReplace(false);
    setRevision((r) => r + 1);
    onChanged();
  };
  const remove = async () => {
    if (!confirm(`Delete "${meta?.name ?? id}"? Clients fetching it will get 404.`)) return;
    await api("DELETE", `/api/v1/templates/${id}`);
    onDeleted();
  };

  if (loadError) return html`<section class="card"><p class="bad" role="alert">${loadError}</p></section>`;
  if (meta === null) return html`<section class="card"><p class="muted">Loading…</p></section>`;
  const shareUrl = `${location.origin}${STUDIO}/templates/${id}`;
  return html`
    <section class="card" aria-labelledby="template-title">
      <h2 id="template-title">${meta.name || "(no name)"}</h2>
      <div class="muted">id <span class="mono">${meta.id}</span> · version ${meta.version} · updated ${new Date(meta.updated_at).toLocaleString()}</div>
      <div class="row">
        <label for="share-url">Shareable link</label>
        <input id="share-url" class="mono" readonly value=${shareUrl} size="60" onFocus=${(e: Event) => (e.target as HTMLInputElement).select()} />
        ${
          writable &&
          html`<button type="button" aria-expanded=${showReplace} onClick=${() => setShowReplace(!showReplace)}>Replace…</button>
          <button type="button" class="danger" onClick=${() => void remove()}>Delete</button>`
        }
      </div>
      ${writable && showReplace && html`<${TemplateSource} label="Replace template" action="Replace template" onSubmit=${replace} />`}
    </section>
    <section class="card" aria-labelledby="sample-title">
      <h2 id="sample-title">Sample data</h2>
      <label for="sample-data" class="muted">dynamic_data (merge_tags by group, context for visibility rules); previews update as you type${writable ? "" : " (a viewer key cannot save it)"}</label>
      <textarea id="sample-data" spellcheck="false" value=${sample ?? ""} onInput=${(e: Event) => setSample((e.target as HTMLTextAreaElement).value)}></textarea>
      <div class="row">${writable && html`<button type="button" class="primary" onClick=${() => void saveSample()}>Save sample data</button>`}<span class="muted" role="status">${sampleState}</span></div>
    </section>
    ${previewError && html`<section class="card" role="alert" data-testid="preview-error"><p class="bad">${previewError.message}</p><${Issues} issues=${previewError.issues} doc=${meta.template} /></section>`}
    ${preview && html`<${PreviewPanels} preview=${preview} name=${meta.name} />`}
  `;
}

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function SourceBlock({ title, text, file, type }: { title: string; text: string; file: string; type: string }) {
  const [copied, setCopied] = useState("");
  const copy = useCallback(() => {
    navigator.clipboard.writeText(text).then(
      () => setCopied("Copied"),
      () => setCopied("Copy failed: select the text and copy it"),
    );
  }, [text]);
  return html`
    <details>
      <summary>${title} <span class="muted">(${kilobytes(new TextEncoder().encode(text).length)})</span></summary>
      <div class="row"><button type="button" onClick=${copy}>Copy</button><button type="button" onClick=${() => download(file, text, type)}>Download ${file}</button><span role="status" class="muted">${copied}</span></div>
      <pre tabindex="0">${text}</pre>
    </details>
  `;
}

function PreviewPanels({ preview, name }: { preview: Preview; name: string }) {
  const htmlOut = preview.targets.html;
  const clip = preview.gmail_clip_bytes;
  const share = Math.min(100, (htmlOut.bytes / clip) * 100);
  const warnings = new Map<string, Warning>();
  for (const target of Object.values(preview.targets)) for (const w of target.warnings) warnings.set(`${w.code}|${w.message}|${w.path.join("/")}`, w);
  const base = name.replace(/[^\w-]+/g, "-").replace(/^-|-$/g, "") || "template";
  return html`
    <section class="card" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <div class="previews">
        <figure class="frame desktop"><figcaption>Desktop, 800 px</figcaption><iframe title="Desktop preview (800 px)" sandbox="" srcdoc=${htmlOut.output} data-testid="desktop-frame"></iframe></figure>
        <figure class="frame phone"><figcaption>Phone, 375 px</figcaption><iframe title="Phone preview (375 px)" sandbox="" srcdoc=${htmlOut.output} data-testid="phone-frame"></iframe></figure>
      </div>
    </section>
    <section class="card" aria-labelledby="checks-title">
      <h2 id="checks-title">Checks</h2>
      <p data-testid="size">HTML size: <strong>${kilobytes(htmlOut.bytes)}</strong> of Gmail's ${kilobytes(clip)} clipping limit —
        ${htmlOut.bytes > clip ? html`<span class="bad">Gmail will clip this message</span>` : html`<span class="ok">under the limit</span>`}</p>
      <div class="meter" role="meter" aria-label="HTML size against Gmail's clipping limit" aria-valuemin="0" aria-valuemax=${clip} aria-valuenow=${htmlOut.bytes}><span class=${htmlOut.bytes > clip ? "over" : ""} style=${`width:${share}%`}></span></div>
      <h3>Warnings</h3>
      ${
        warnings.size === 0
          ? html`<p class="ok" data-testid="warnings">No warnings.</p>`
          : html`<ul class="warnings" data-testid="warnings">${[...warnings.values()].map((w) => html`<li><strong>${w.code}</strong> ${w.message}${w.path.length ? html` <span class="mono">at ${w.path.join(".")}</span>` : ""}</li>`)}</ul>`
      }
    </section>
    <section class="card" aria-labelledby="text-title">
      <h2 id="text-title">Plain text</h2>
      <pre tabindex="0" data-testid="plain-text">${preview.text}</pre>
      <div class="row"><button type="button" onClick=${() => download(`${base}.txt`, preview.text, "text/plain")}>Download ${base}.txt</button></div>
    </section>
    <section class="card" aria-labelledby="source-title">
      <h2 id="source-title">Source</h2>
      <${SourceBlock} title="MJML" text=${preview.targets.mjml.output} file=${`${base}.mjml`} type="text/plain" />
      <${SourceBlock} title="React Email (TSX)" text=${preview.targets["react-email"].output} file=${`${base}.tsx`} type="text/plain" />
      <${SourceBlock} title="HTML" text=${htmlOut.output} file=${`${base}.html`} type="text/html" />
    </section>
    <${VisibilityPanel} decisions=${preview.visibility} />
  `;
}

function VisibilityPanel({ decisions }: { decisions: Decision[] }) {
  const conditional = decisions.filter((d) => d.rules.length > 0 || !d.visible || d.hiddenOn.length > 0);
  return html`
    <section class="card" aria-labelledby="visibility-title">
      <h2 id="visibility-title">Visibility for this sample</h2>
      <p class="muted">${decisions.filter((d) => d.visible).length} of ${decisions.length} nodes shown. Nodes without rules that are shown are not listed.</p>
      ${
        conditional.length === 0
          ? html`<p>Nothing in this template depends on the context.</p>`
          : html`<table data-testid="visibility">
            <thead><tr><th>Node</th><th>Shown</th><th>Why</th></tr></thead>
            <tbody>
              ${conditional.map(
                (d) => html`<tr class=${d.visible ? "" : "hidden-node"}>
                  <td><span class="mono">${d.id}</span> <span class="muted">${d.block ?? d.kind}</span><div class="muted mono">${d.path.join(".")}</div></td>
                  <td>${d.visible ? html`<span class="ok">shown</span>` : html`<span class="bad">hidden</span>`}${d.hiddenOn.length > 0 ? html`<div class="muted">hidden on ${d.hiddenOn.join(" and ")}</div>` : ""}</td>
                  <td>${d.reason}${
                    d.rules.length > 0 &&
                    html`<ul>${d.rules.map((r) => html`<li class=${r.passed ? "ok" : "bad"}><span class="mono">${r.tag} ${r.operator} ${JSON.stringify(r.value)}</span> — context has ${r.actual === null ? "no value" : JSON.stringify(r.actual)}: ${r.passed ? "passed" : "failed"}</li>`)}</ul>`
                  }</td>
                </tr>`,
              )}
            </tbody>
          </table>`
      }
    </section>
  `;
}

const root = document.getElementById("app")!;
root.textContent = ""; // the "Loading…" placeholder
render(html`<${App} />`, root);
