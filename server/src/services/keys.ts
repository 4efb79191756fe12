import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from "../auth/keys.js";
import type { KeyRole } from "../roles.js";
import type { ApiKeyRecord, Store } from "../store/types.js";
import { type KeyTarget, normaliseScope } from "../targets.js";

export interface IssuedKey {
  record: ApiKeyRecord;
  /** The plaintext secret: returned to the caller once, never stored. */
  secret: string;
}

/** Creates a key and returns its secret once; only the hash and display prefix are stored. */
export async function issueKey(
  store: Store,
  input: { name: string; targets: readonly KeyTarget[]; role?: KeyRole; expiresAt?: string | null; secret?: string },
): Promise<IssuedKey> {
  const secret = input.secret ?? generateApiKey();
  const now = Date.now();
  const record = await store.createKey({
    id: generateKeyId(now),
    name: input.name,
    role: input.role ?? "render",
    targets: normaliseScope(input.targets),
    createdAt: new Date(now).toISOString(),
    expiresAt: input.expiresAt ?? null,
    secret: { hash: hashApiKey(secret), prefix: displayPrefix(secret) },
  });
  return { record, secret };
}

/** Gives the key a new secret; the old one ends now or after `graceSeconds`. */
export async function rotateKey(store: Store, id: string, graceSeconds: number): Promise<IssuedKey | undefined> {
  const secret = generateApiKey();
  const now = Date.now();
  const oldEnd = graceSeconds > 0 ? new Date(now + graceSeconds * 1000).toISOString() : null;
  const record = await store.rotateKey(id, { hash: hashApiKey(secret), prefix: displayPrefix(secret) }, new Date(now).toISOString(), oldEnd);
  return record === undefined ? undefined : { record, secret };
}

export function keyStatus(key: ApiKeyRecord, now: number = Date.now()): "active" | "revoked" | "expired" {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && key.expiresAt <= new Date(now).toISOString()) return "expired";
  return "active";
}
