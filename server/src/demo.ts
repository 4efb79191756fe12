import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { hashApiKey } from "./auth/keys.js";
import { issueKey } from "./services/keys.js";
import { createTemplate } from "./services/templates.js";
import type { Store } from "./store/types.js";

export interface DemoState {
  template_id: string;
  render_key: string;
  admin_key: string;
}

/** The starters (server/demo/), also offered by the studio; the newsletter is the one the banner's commands use. */
const DEMO_TEMPLATES = ["newsletter.json", "receipt.json", "password-reset.json"].map((file) => new URL(`../demo/${file}`, import.meta.url));

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

export function demoBanner(baseUrl: string, state: DemoState): string {
  return [
    "",
    `mailrender is listening on ${baseUrl}  (docs: ${baseUrl}/docs)`,
    "",
    `Studio (see, check and try templates in the browser): ${baseUrl}/studio`,
    "  sign in with the admin key below; it stays in that browser tab only",
    "",
    "Render the demo newsletter to HTML (deprecated server-side render):",
    `  curl -sS -X POST ${baseUrl}/v1/sdk/render \\`,
    `    -H 'Authorization: Bearer ${state.render_key}' \\`,
    `    -H 'Content-Type: application/json' \\`,
    `    -d '{"template_id":"${state.template_id}","target":"html","dynamic_data":{"merge_tags":{"text":{"first_name":"Ada"}}}}'`,
    "",
    "Fetch its template JSON (what the client libraries do):",
    `  curl -sS -i '${baseUrl}/v1/sdk/template/${state.template_id}?target=html' -H 'Authorization: Bearer ${state.render_key}'`,
    "",
    `Admin key (manage keys and templates): ${state.admin_key}`,
    `  curl -sS ${baseUrl}/api/v1/templates -H 'Authorization: Bearer ${state.admin_key}'`,
    "",
  ].join("\n");
}
