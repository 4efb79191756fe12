/**
 * The key's target scope as the service reported it (X-Key-Targets), enforced on renders served from
 * the cache with the same FORBIDDEN message the service gives.
 */
import { createHash } from "node:crypto";
import type { RenderTarget } from "@mailrender/engine";
import type { CachedScope } from "./cache/types.js";

/**
 * A short, one-way tag of the API key for cache entries. Domain-separated so it is not the SHA-256
 * the service stores for lookups: a cache file reveals neither the key nor the server's lookup hash.
 */
export function keyFingerprint(apiKey: string): string {
  return createHash("sha256").update("mailrender-client-scope\u0000").update(apiKey).digest("hex").slice(0, 24);
}

/** The scope to record after the service accepted a fetch for `target`. */
export function learnedScope(fingerprint: string, headerTargets: RenderTarget[] | null, previous: CachedScope | null, target: RenderTarget): CachedScope {
  if (headerTargets !== null) return { key: fingerprint, targets: headerTargets, complete: true };
  // Without the header (an older service), the targets it accepted with ?target= are all we know.
  const known = previous?.key === fingerprint ? previous.targets : [];
  return { key: fingerprint, targets: known.includes(target) ? known : [...known, target], complete: false };
}

/** What a cached entry says about `target` for this key: allowed, refused, or not known yet. */
export function scopeVerdict(scope: CachedScope | null, fingerprint: string, target: RenderTarget): "allowed" | "forbidden" | "unknown" {
  if (scope === null || scope.key !== fingerprint) return "unknown";
  if (scope.targets.includes(target)) return "allowed";
  return scope.complete ? "forbidden" : "unknown";
}
