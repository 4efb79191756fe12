import { hashApiKey, isWellFormedApiKey } from "./auth/keys.js";
import { ConfigError } from "./config.js";
import { issueKey } from "./services/keys.js";
import type { Store } from "./store/types.js";

export interface BootstrapOutcome {
  outcome: "absent" | "created" | "existing" | "retired";
  /** One line for the start-up log; says why a retired secret was not registered again. */
  message: string;
}

/**
 * Registers MAILRENDER_ADMIN_KEY as an admin key unless it is already known, so a deployment can
 * inject its admin secret. Idempotent across restarts and across servers sharing one database.
 * A secret that was rotated out or revoked stays known (its hash is kept), so a restart with the
 * old value in the environment does not bring it back.
 */
export async function ensureAdminKey(store: Store, adminKey: string | undefined, now: number = Date.now()): Promise<BootstrapOutcome> {
  if (adminKey === undefined) return { outcome: "absent", message: "MAILRENDER_ADMIN_KEY is not set; no bootstrap admin key" };
  if (!isWellFormedApiKey(adminKey)) {
    throw new ConfigError(
      "MAILRENDER_ADMIN_KEY is malformed: expected 'sk_live_' followed by 64 lowercase hex characters (generate one with `mailrender-server create-admin-key --print-only`)",
    );
  }
  const known = await describeKnown(store, adminKey, now);
  if (known !== undefined) return known;
  try {
    const { record } = await issueKey(store, { name: "bootstrap-admin", targets: [], role: "admin", secret: adminKey });
    return { outcome: "created", message: `MAILRENDER_ADMIN_KEY registered as admin key ${record.id}` };
  } catch (err) {
    // Another server registered it at the same moment (unique hash): that is the outcome we wanted.
    const raced = await describeKnown(store, adminKey, now);
    if (raced !== undefined) return raced;
    throw err;
  }
}

async function describeKnown(store: Store, adminKey: string, now: number): Promise<BootstrapOutcome | undefined> {
  const hit = await store.findKeyBySecretHash(hashApiKey(adminKey));
  if (hit === undefined) return undefined;
  const { key, secret } = hit;
  const nowIso = new Date(now).toISOString();
  const notAgain = "not registered again; remove or replace MAILRENDER_ADMIN_KEY";
  if (key.revokedAt !== null) {
    return { outcome: "retired", message: `MAILRENDER_ADMIN_KEY belongs to admin key ${key.id}, revoked at ${key.revokedAt}: ${notAgain}` };
  }
  if (secret.expiresAt !== null && secret.expiresAt <= nowIso) {
    return { outcome: "retired", message: `MAILRENDER_ADMIN_KEY is a secret of key ${key.id} rotated out at ${secret.expiresAt}: ${notAgain}` };
  }
  if (key.expiresAt !== null && key.expiresAt <= nowIso) {
    return { outcome: "retired", message: `MAILRENDER_ADMIN_KEY belongs to key ${key.id}, expired at ${key.expiresAt}: ${notAgain}` };
  }
  return { outcome: "existing", message: `MAILRENDER_ADMIN_KEY is already registered as key ${key.id}` };
}
