import { hashApiKey, isWellFormedApiKey } from "./auth/keys.js";
import { ConfigError } from "./config.js";
import { issueKey } from "./services/keys.js";
import type { Store } from "./store/types.js";

/**
 * Registers MAILRENDER_ADMIN_KEY as an admin key unless it is already known, so a deployment can
 * inject its admin secret. Idempotent across restarts and across servers sharing one database.
 */
export async function ensureAdminKey(store: Store, adminKey: string | undefined): Promise<"absent" | "created" | "existing"> {
  if (adminKey === undefined) return "absent";
  if (!isWellFormedApiKey(adminKey)) {
    throw new ConfigError("MAILRENDER_ADMIN_KEY is malformed: expected 'sk_live_' followed by 64 lowercase hex characters (generate one with `mailrender-server create-admin-key --print-only`)");
  }
  if ((await store.findKeyBySecretHash(hashApiKey(adminKey))) !== undefined) return "existing";
  try {
    await issueKey(store, { name: "bootstrap-admin", targets: [], role: "admin", secret: adminKey });
    return "created";
  } catch (err) {
    // Another server registered it at the same moment (unique hash): that is the outcome we wanted.
    if ((await store.findKeyBySecretHash(hashApiKey(adminKey))) !== undefined) return "existing";
    throw err;
  }
}
