import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hashApiKey } from "./auth/keys.js";
import { issueKey } from "./services/keys.js";
import { createTemplate } from "./services/templates.js";
import type { Store } from "./store/types.js";
import { SERVER_VERSION } from "./version.js";

export interface DemoState {
  template_id: string;
  render_key: string;
  admin_key: string;
}

/** The starters (server/demo/), also offered by the studio; the newsletter is the one the banner's commands use. */
const DEMO_TEMPLATES = ["newsletter.json", "receipt.json", "password-reset.json"].map((file) => new URL(`../demo/${file}`, import.meta.url));
/** A template file the banner's "store your own template" command can send as it is. */
const STARTER_FILE = fileURLToPath(DEMO_TEMPLATES[1] as URL);

/**
 * First start of `make run`: the starter templates, a render key and an admin key. Only hashes go to the
 * database; the plaintext demo secrets are kept in `<dataDir>/demo.json` (mode 0600) so later starts
 * can print the same copy-paste commands. Local development only.
 */
export async function seedDemo(store: Store, dataDir: string): Promise<{ state: DemoState; created: boolean }> {
  const file = path.join(dataDir, "demo.json");
  if (existsSync(file)) {
    const state = JSON.parse(readFileSync(file, "utf8")) as DemoState;
    const stillThere =
      (await store.getTemplate(state.template_id)) !== undefined &&
      (await store.findKeyBySecretHash(hashApiKey(state.render_key))) !== undefined &&
      (await store.findKeyBySecretHash(hashApiKey(state.admin_key))) !== undefined;
    if (stillThere) return { state, created: false };
  }
  const records = [];
  for (const url of DEMO_TEMPLATES) records.push((await createTemplate(store, JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>)).record);
  const record = records[0]!;
  const render = await issueKey(store, { name: "local-demo-all", targets: ["all"] });
  const admin = await issueKey(store, { name: "local-demo-admin", targets: [], role: "admin" });
  const state: DemoState = { template_id: record.id, render_key: render.secret, admin_key: admin.secret };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { state, created: true };
}

export function demoBanner(baseUrl: string, state: DemoState, dataDir: string): string {
  const render = state.render_key;
  const admin = state.admin_key;
  return [
    "",
    `mailrender ${SERVER_VERSION} is running at ${baseUrl}`,
    "",
    `  Studio    ${baseUrl}/studio   (design, preview and check templates; sign in with the admin key)`,
    `  API docs  ${baseUrl}/docs`,
    "",
    `Demo keys (local development only; kept in ${path.join(dataDir, "demo.json")}):`,
    `  render key  ${render}   (fetches templates for every target)`,
    `  admin key   ${admin}   (manages keys and templates)`,
    "",
    "Fetch the demo newsletter's template JSON, as the client libraries do before rendering it locally:",
    `  curl -sS '${baseUrl}/v1/sdk/template/${state.template_id}?target=html' -H 'Authorization: Bearer ${render}'`,
    "",
    "Render it from your code with a client library (clients/js, clients/python, clients/php: each README installs it):",
    `  MAILRENDER_BASE_URL=${baseUrl} MAILRENDER_API_KEY=${render}  template id ${state.template_id}`,
    "",
    "Store your own template (a template JSON file, such as one exported from the Maildeno editor):",
    `  curl -sS -X POST ${baseUrl}/api/v1/templates -H 'Authorization: Bearer ${admin}' \\`,
    `    -H 'Content-Type: application/json' --data-binary @${STARTER_FILE}`,
    "  The answer's id is the template id to fetch or render; the studio lists it.",
    "",
    "Deprecated: rendering on the server (POST /v1/sdk/render; new code renders with a client library):",
    `  curl -sS -X POST ${baseUrl}/v1/sdk/render -H 'Authorization: Bearer ${render}' -H 'Content-Type: application/json' \\`,
    `    -d '{"template_id":"${state.template_id}","target":"html","dynamic_data":{"merge_tags":{"text":{"first_name":"Ada"}}}}'`,
    "",
    "Requests are logged below. Ctrl-C stops the server.",
    "",
  ].join("\n");
}
