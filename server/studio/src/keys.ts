/**
 * API keys, for an admin: each key's role (changeable here), targets and state; a new key (its secret
 * shown once), and revoking one. The roles are the server's (server/README.md, "Roles").
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.js";
import { describeFailure } from "./issues.js";

interface Key {
  id: string;
  name: string;
  role: string;
  targets: string[];
  prefix: string;
  created_at: string;
  expires_at: string | null;
  status: string;
}

const ROLES: { value: string; label: string }[] = [
  { value: "viewer", label: "viewer — reads and previews templates" },
  { value: "editor", label: "editor — also designs and saves templates" },
  { value: "admin", label: "admin — also manages keys" },
  { value: "render", label: "render — the SDK only (needs targets)" },
];
const TARGETS = ["html", "react-email", "mjml", "all"];

export function KeysPage({ myKeyId }: { myKeyId: string }) {
  const [keys, setKeys] = useState<Key[] | null>(null);
  const [error, setError] = useState("");
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [form, setForm] = useState({ name: "", role: "viewer", targets: [] as string[] });
  const load = () =>
    api<{ keys: Key[] }>("GET", "/api/v1/keys?limit=500")
      .then((r) => setKeys(r.keys))
      .catch((err: unknown) => setError(describeFailure(err)));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys are loaded once, then after each change
  useEffect(() => void load(), []);
  const run = async (work: () => Promise<unknown>) => {
    setError("");
    try {
      await work();
    } catch (err) {
      setError(describeFailure(err));
    }
    await load();
  };
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const made = await api<{ name: string; key: string }>("POST", "/api/v1/keys", {
        name: form.name.trim(),
        role: form.role,
        ...(form.targets.length > 0 && { targets: form.targets }),
      });
      setCreated({ name: made.name, key: made.key });
      setForm({ name: "", role: "viewer", targets: [] });
    });
  };
  return html`
    <main class="home">
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        ${error && html`<p class="bad" role="alert" data-testid="keys-error">${error}</p>`}
        ${
          keys === null
            ? html`<p class="muted">Loading…</p>`
            : html`<table class="keys" data-testid="keys">
              <thead><tr><th>Name</th><th>Role</th><th>Targets</th><th>Key</th><th>State</th><th></th></tr></thead>
              <tbody>${keys.map(
                (k) => html`<tr data-key-id=${k.id}>
                  <td>${k.name}${k.id === myKeyId && html` <span class="muted">(you)</span>`}</td>
                  <td>${
                    k.status === "active"
                      ? html`<select aria-label=${`Role of ${k.name}`} data-testid=${`role-${k.id}`} value=${k.role}
                          onChange=${(e: Event) => void run(() => api("PATCH", `/api/v1/keys/${k.id}`, { role: (e.target as HTMLSelectElement).value }))}>
                          ${ROLES.map((r) => html`<option value=${r.value}>${r.value}</option>`)}</select>`
                      : k.role
                  }</td>
                  <td>${k.targets.join(", ") || html`<span class="muted">none</span>`}</td>
                  <td class="mono">${k.prefix}…</td>
                  <td>${k.status}${k.expires_at && html`<div class="muted small-text">expires ${new Date(k.expires_at).toLocaleDateString()}</div>`}</td>
                  <td>${
                    k.status === "active" &&
                    html`<button type="button" class="small danger" onClick=${() => {
                      if (confirm(`Revoke "${k.name}"? It stops working at once.`)) void run(() => api("DELETE", `/api/v1/keys/${k.id}`));
                    }}>Revoke</button>`
                  }</td>
                </tr>`,
              )}</tbody>
            </table>`
        }
      </section>
      <section class="card" aria-labelledby="new-key-title">
        <h2 id="new-key-title">New key</h2>
        <form onSubmit=${create}>
          <label for="key-name">Name</label>
          <input id="key-name" data-testid="key-name" required value=${form.name} onInput=${(e: Event) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} />
          <label for="key-role">Role</label>
          <select id="key-role" data-testid="key-role" value=${form.role} onChange=${(e: Event) => setForm({ ...form, role: (e.target as HTMLSelectElement).value })}>
            ${ROLES.map((r) => html`<option value=${r.value}>${r.label}</option>`)}
          </select>
          <fieldset class="targets"><legend>Targets it may render through the SDK</legend>
            ${TARGETS.map(
              (t) => html`<label class="inline"><input type="checkbox" checked=${form.targets.includes(t)}
                onChange=${(e: Event) => setForm({ ...form, targets: (e.target as HTMLInputElement).checked ? [...form.targets, t] : form.targets.filter((x) => x !== t) })} /> ${t}</label>`,
            )}
          </fieldset>
          <div class="row"><button type="submit" class="primary" data-testid="create-key">Create key</button></div>
        </form>
        ${
          created &&
          html`<div class="notice" role="status" data-testid="created-key">
            <p>The key "${created.name}" — copy it now, it is not shown again:</p>
            <input class="mono" readonly value=${created.key} size="72" onFocus=${(e: Event) => (e.target as HTMLInputElement).select()} />
          </div>`
        }
      </section>
    </main>
  `;
}
