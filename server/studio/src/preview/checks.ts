/**
 * Beside the preview: the template's findings (each a link to its node in the tree), the render's
 * warnings, the HTML size against Gmail's clipping, which nodes the sample's context shows or hides
 * and why, and the sources of every target to copy or download.
 */
import { html } from "htm/preact";
import { useCallback, useState } from "preact/hooks";
import type { Decision, DraftPreview, Finding, Warning } from "./types.js";

export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

const SEVERITY_ORDER: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** A link to the node a path points into. */
function NodeLink({ path, onSelect, children }: { path: string[]; onSelect: (path: string[]) => void; children: unknown }) {
  return html`<button type="button" class="link" data-finding-path=${path.join(".")} onClick=${() => onSelect(path)}>${children}</button>`;
}

export function ChecksPanel({ preview, onSelect }: { preview: DraftPreview; onSelect: (path: string[]) => void }) {
  const htmlOut = preview.html;
  const clip = preview.gmail_clip_bytes;
  const share = Math.min(100, (htmlOut.bytes / clip) * 100);
  const findings = [...preview.findings].sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3));
  const warnings = new Map<string, Warning>();
  for (const w of [...htmlOut.warnings, ...(preview.view?.source.warnings ?? [])]) warnings.set(`${w.code}|${w.message}|${w.path.join("/")}`, w);
  return html`
    <section class="card" aria-labelledby="checks-title">
      <h2 id="checks-title">Checks</h2>
      <p data-testid="size">HTML size: <strong>${kilobytes(htmlOut.bytes)}</strong> of Gmail's ${kilobytes(clip)} clipping limit —
        ${htmlOut.bytes > clip ? html`<span class="bad">Gmail will clip this message</span>` : html`<span class="ok">under the limit</span>`}</p>
      <div class="meter" role="meter" aria-label="HTML size against Gmail's clipping limit" aria-valuemin="0" aria-valuemax=${clip} aria-valuenow=${htmlOut.bytes}>
        <span class=${htmlOut.bytes > clip ? "over" : ""} style=${`width:${share}%`}></span></div>
      <h3>Findings</h3>
      ${
        findings.length === 0
          ? html`<p class="ok" data-testid="findings">Nothing found.</p>`
          : html`<ul class="findings" data-testid="findings">${findings.map(
              (f: Finding) => html`<li class=${`severity-${f.severity}`}>
              <span class="severity">${f.severity}</span> <${NodeLink} path=${f.path} onSelect=${onSelect}>${f.message}</${NodeLink}>
              <span class="muted mono small-text">${f.code}</span>${f.hint && html`<div class="muted">${f.hint}</div>`}
            </li>`,
            )}</ul>`
      }
      <h3>Render warnings</h3>
      ${
        warnings.size === 0
          ? html`<p class="ok" data-testid="warnings">No warnings.</p>`
          : html`<ul class="warnings" data-testid="warnings">${[...warnings.values()].map(
              (w) =>
                html`<li><strong>${w.code}</strong> ${w.path.length > 0 ? html`<${NodeLink} path=${w.path} onSelect=${onSelect}>${w.message}</${NodeLink}>` : w.message}</li>`,
            )}</ul>`
      }
    </section>
  `;
}

export function VisibilityPanel({ decisions, onSelect }: { decisions: Decision[]; onSelect: (path: string[]) => void }) {
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
                  <td><${NodeLink} path=${d.path} onSelect=${onSelect}><span class="mono">${d.id}</span></${NodeLink}> <span class="muted">${d.block ?? d.kind}</span></td>
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

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function SourceBlock({ title, text, file, type }: { title: string; text: string; file: string; type: string }) {
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
