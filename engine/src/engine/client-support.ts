/**
 * Mail-client support (optional, per call): what named client families do not support in the html
 * a template gives, as caniemail's data says (through doiuse-email), and which block, row or the
 * canvas brought it in. What the engine writes for every email is not the template's doing and is
 * left out: each node is rendered alone twice, as written and with only its content (a block's
 * "content" group in its editor description: text, links, images; a row's column widths), and
 * only what its look adds (a gradient, rounded corners, a background image) is a finding. What the
 * html draws for Outlook for Windows in VML (markup/vml.ts) is no finding there: caniemail judges
 * the CSS, which that reader skips for the VML. doiuse-email is an optional dependency, loaded on
 * the first call (a few hundred KB of data, ~30 ms a small document): an engine without it says so.
 */
import { type Finding, finding, valueAt } from "../document/checks/finding.js";
import { isObject, type Json, walkDocument } from "../document/checks/walk.js";
import { parseTemplate } from "../document/parse.js";
import { joinOutput, substitute } from "../markup/substitute.js";
import type { EngineHost } from "./host.js";
import { compileTarget, type EngineCore } from "./pipeline.js";

/** caniemail's client families (doiuse-email's list). */
export const CLIENT_FAMILIES = [
  "apple-mail",
  "gmail",
  "outlook",
  "yahoo",
  "aol",
  "samsung-email",
  "thunderbird",
  "protonmail",
  "hey",
  "fastmail",
  "mail-ru",
  "orange",
  "sfr",
  "laposte",
] as const;

type DoIUseEmail = (html: string, options: { emailClients: string[] }) => { success: boolean; errors?: string[] };

let loaded: DoIUseEmail | undefined;

/** This engine cannot check mail-client support: no Node.js (the QuickJS build), or no doiuse-email package. */
export class ClientChecksUnavailable extends Error {
  override readonly name = "ClientChecksUnavailable";
}

/** doiuse-email, from the host (Node's loads packages; the QuickJS build's does not). */
function doIUseEmail(host: EngineHost): DoIUseEmail {
  if (loaded) return loaded;
  if (host.loadPackage === undefined)
    throw new ClientChecksUnavailable("Mail-client checks need Node.js and the doiuse-email package; this build of the engine has neither");
  try {
    loaded = (host.loadPackage("doiuse-email") as { doIUseEmail: DoIUseEmail }).doIUseEmail;
  } catch {
    throw new ClientChecksUnavailable("Mail-client checks need the doiuse-email package: npm install doiuse-email");
  }
  return loaded;
}

/** `The \`<feature>\` is not supported by \`gmail.ios\`` → feature, client. */
const UNSUPPORTED = /^`([^`]+)` is not supported by `([^`]+)`/;

/** Features the clients do not support in one html document, with the clients for each. */
function unsupported(host: EngineHost, html: string, clients: string[]): Map<string, Set<string>> {
  const features = new Map<string, Set<string>>();
  let errors: string[];
  try {
    errors = doIUseEmail(host)(html, { emailClients: clients }).errors ?? [];
  } catch (error) {
    // Its CSS parser rejects some valid CSS; such a document is not judged.
    if (error instanceof ClientChecksUnavailable) throw error;
    return features;
  }
  for (const message of errors) {
    const match = UNSUPPORTED.exec(message);
    if (!match) continue;
    const [, feature = "", client = ""] = match;
    features.set(feature, (features.get(feature) ?? new Set()).add(client));
  }
  return features;
}

/** Outlook for Windows: the desktop app and Windows Mail, Word's engine, which reads the `<!--[if mso]>` VML. */
const WORD_CLIENTS: ReadonlySet<string> = new Set(["outlook.windows", "outlook.windows-mail"]);

/** The CSS features one node's html also draws in VML: a gradient's fill, a rounded button's shape. */
function drawnInVml(html: string): Set<string> {
  const features = new Set<string>();
  if (html.includes('<v:fill type="gradient"')) features.add("background-image").add("linear-gradient()");
  if (html.includes("<v:roundrect")) features.add("border-radius");
  return features;
}

/** The html of a document holding only `rows` under `canvas`. */
function htmlOf(core: EngineCore, canvas: unknown, rows: unknown[]): string {
  const parsed = parseTemplate({ template_id: "client-check", template_name: "", schema_version: "1.0", canvas, rows }, core.registry);
  if (parsed.template === undefined) return "";
  const compiled = compileTarget(
    core,
    parsed.template,
    "html",
    true,
    parsed.template.conditions.map(() => true),
  );
  return joinOutput(compiled, substitute(compiled, undefined).values());
}

const row = (children: unknown[]) => ({ type: "row", columns: [{ width: 100, children }] });

/** `outlook.windows`, `outlook.windows-mail` → `outlook (windows, windows-mail)`. */
function byFamily(clients: readonly string[]): string {
  const families = new Map<string, string[]>();
  for (const client of [...clients].sort()) {
    const [family = client, platform = ""] = client.split(".");
    families.set(family, [...(families.get(family) ?? []), platform]);
  }
  return [...families].map(([family, platforms]) => `${family} (${platforms.join(", ")})`).join(", ");
}

/** Unknown family names are a caller's mistake: named, with the families there are. */
export function checkFamilies(families: readonly string[]): void {
  const unknown = families.filter((f) => !(CLIENT_FAMILIES as readonly string[]).includes(f));
  if (unknown.length > 0)
    throw new TypeError(`Unknown mail-client families ${unknown.map((f) => `"${f}"`).join(", ")}: the families are ${CLIENT_FAMILIES.join(", ")}`);
}

export function clientFindings(core: EngineCore, json: unknown, families: readonly string[]): Finding[] {
  checkFamilies(families);
  if (families.length === 0 || !isObject(json)) return [];
  const clients = families.map((family) => `${family}.*`);
  const features = (canvas: unknown, rows: unknown[]) => unsupported(core.host, htmlOf(core, canvas, rows), clients);
  /** The features one node's html needs, less those Outlook for Windows gets from its VML. */
  const asWritten = (canvas: unknown, rows: unknown[]) => {
    const html = htmlOf(core, canvas, rows);
    const needed = unsupported(core.host, html, clients);
    for (const feature of drawnInVml(html)) {
      const where = needed.get(feature);
      for (const client of WORD_CLIENTS) where?.delete(client);
    }
    return needed;
  };
  const findings: Finding[] = [];
  /** What `written` adds over `bare`, reported at `path` for `what`: one finding a node, the features grouped by the clients lacking them. */
  const compare = (path: readonly string[], what: string, written: Map<string, Set<string>>, bare: Map<string, Set<string>>) => {
    const byClients = new Map<string, string[]>();
    for (const [feature, where] of written) {
      const added = [...where].filter((client) => !bare.get(feature)?.has(client));
      if (added.length > 0) byClients.set(byFamily(added), [...(byClients.get(byFamily(added)) ?? []), feature]);
    }
    if (byClients.size === 0) return;
    const lacks = [...byClients].map(([clients, features]) => `${features.join(", ")} not in ${clients}`);
    findings.push(
      finding(
        "warning",
        "CLIENT_UNSUPPORTED",
        path,
        [...new Set([...byClients.values()].flat())].join(", "),
        `Not every client draws ${what} as designed: ${lacks.join("; ")}. Readers there see it without that`,
        "Look at it in those clients; give it a fallback (a solid colour under a gradient), or do without it",
        "html",
      ),
    );
  };
  const emptyRow = row([]);
  const canvas = json["canvas"];
  compare(["canvas"], "the email", asWritten(canvas, [emptyRow]), features({}, [emptyRow]));
  walkDocument(json, core.registry, {
    row: (raw, path) => {
      const columns = Array.isArray(raw["columns"]) ? raw["columns"] : [];
      const emptied = columns.map((c: unknown) => (isObject(c) ? { ...c, children: [], components: undefined } : c));
      const bare = columns.map((c: unknown) => (isObject(c) && typeof c["width"] === "number" ? { width: c["width"] } : {}));
      compare(path, "this row", asWritten({}, [{ ...raw, columns: emptied }]), features({}, [{ type: "row", columns: bare }]));
    },
    block: (raw, path, type, definition) => {
      if (definition === undefined) return;
      const shape: Json = raw["componentType"] !== undefined ? { type: "component", componentType: type } : { type };
      const props = valueAt(raw, ["props"]);
      const content = new Set(definition.editor.groups.filter((g) => g.id === "content").flatMap((g) => g.fields.map((f) => f.prop)));
      const bare = isObject(props) ? Object.fromEntries(Object.entries(props).filter(([key]) => content.has(key))) : {};
      const what = `this ${definition.editor.label.toLowerCase()}`;
      compare(path, what, asWritten({}, [row([{ ...shape, props: props ?? {} }])]), features({}, [row([{ ...shape, props: bare }])]));
    },
  });
  return findings;
}
