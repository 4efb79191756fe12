/**
 * The mailrender studio: sign in with a viewer, editor or admin key (kept in this browser tab's
 * sessionStorage only); design templates in the editor, preview them for every reader, and — as an
 * admin — manage keys. The page offers only what the key's role allows. Preact + htm, bundled by
 * server/scripts/build-studio.ts; talks only to this server's API.
 */
import { html } from "htm/preact";
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, clearKey, type Me, readKey, saveKey } from "./api.js";
import { Editor } from "./editor/editor.js";
import { describeFailure } from "./issues.js";
import { KeysPage } from "./keys.js";
import { currentRoute, type Route, routeUrl } from "./route.js";
import { Home } from "./templates.js";

const can = (me: Me, permission: string): boolean => me.permissions.includes(permission);

function App() {
  const [me, setMe] = useState<Me | null>(null);
  const [meError, setMeError] = useState("");
  const [route, setRoute] = useState<Route>(currentRoute());
  /** The address of the page shown. */
  const shown = useRef(routeUrl(route));
  shown.current = routeUrl(route);
  /** The editor stays mounted when its new template gets an id on the first save. */
  const [editorKey, setEditorKey] = useState(0);
  useEffect(() => {
    const onPop = () => {
      const next = currentRoute();
      // A jump link (#preview) is not another page: the editor, and its undo history, stay.
      if (routeUrl(next) === shown.current) return;
      setRoute(next);
      setEditorKey((k) => k + 1);
    };
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
  const go = (next: Route) => {
    history.pushState(null, "", routeUrl(next));
    setRoute(next);
    setEditorKey((k) => k + 1);
    scrollTo(0, 0);
  };
  if (readKey() === null) return html`<${SignIn} onSignedIn=${setMe} />`;
  if (me === null)
    return html`<section class="card"><p class=${meError ? "bad" : "muted"} role=${meError ? "alert" : "status"}>${meError || "Signing in…"}</p></section>`;
  const writable = can(me, "templates:write");
  const signOut = () => {
    clearKey();
    setMe(null);
  };
  const link = (to: Route, label: string) =>
    html`<a href=${routeUrl(to)} aria-current=${route.page === to.page ? "page" : undefined} onClick=${(e: Event) => {
      e.preventDefault();
      go(to);
    }}>${label}</a>`;
  let page: unknown;
  if (route.page === "keys")
    page = can(me, "keys:manage")
      ? html`<${KeysPage} myKeyId=${me.id} />`
      : html`<section class="card"><p class="bad">Only an admin key manages keys.</p></section>`;
  else if (route.page === "template" || route.page === "new")
    page =
      route.page === "new" && !writable
        ? html`<section class="card"><p class="bad">A ${me.role} key cannot create templates.</p></section>`
        : html`<${Editor}
            key=${editorKey}
            id=${route.page === "template" ? route.id : null}
            newName=${route.page === "new" ? route.name : ""}
            writable=${writable}
            onCreated=${(id: string) => {
              // The address of the template from now on, without leaving the editor (its undo history stays).
              history.replaceState(null, "", routeUrl({ page: "template", id }));
              setRoute({ page: "template", id });
            }}
          />`;
  else page = html`<${Home} writable=${writable} go=${go} />`;
  return html`
    <header class="top">
      <h1>${link({ page: "home" }, "mailrender studio")}</h1>
      <nav class="top-nav">${link({ page: "home" }, "Templates")}${can(me, "keys:manage") && link({ page: "keys" }, "API keys")}<a href="/docs">API docs</a></nav>
      <span class="spacer"></span>
      <span class="muted who" data-testid="signed-in-as">${me.name} · ${me.role}${writable ? "" : " (read only)"}</span>
      <button type="button" onClick=${signOut}>Sign out</button>
    </header>
    ${page}
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
      <p class="muted">Use a viewer, editor or admin API key: a viewer key reads and previews, an editor key also designs templates, an admin key also manages keys. It is kept in this tab only (sessionStorage) and sent as the Bearer header.</p>
      <form onSubmit=${submit}>
        <label for="api-key">API key</label>
        <input id="api-key" data-testid="api-key" type="password" autocomplete="off" spellcheck="false" value=${value} onInput=${(e: Event) => setValue((e.target as HTMLInputElement).value)} required />
        <div class="row"><button class="primary" type="submit">Sign in</button></div>
        <p class="status bad" role="alert">${error}</p>
      </form>
    </section>
  `;
}

const root = document.getElementById("app")!;
root.textContent = ""; // the "Loading…" placeholder
render(html`<${App} />`, root);
