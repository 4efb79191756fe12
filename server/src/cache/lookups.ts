import type { ApiKeyRecord, KeySecretRecord, Store, TemplateRecord } from "../store/types.js";
import { TtlCache } from "./ttl-cache.js";

export type KeyHit = { key: ApiKeyRecord; secret: KeySecretRecord } | null;

/**
 * Cached reads of the two hot lookups (key by secret hash, template by id). Misses are cached too,
 * so a flood of unknown keys does not become a flood of queries. Writes through this server drop the
 * affected entries at once; writes through another server are seen within the TTL.
 */
export class CachedLookups {
  private readonly keys: TtlCache<KeyHit>;
  private readonly templates: TtlCache<TemplateRecord | null>;

  constructor(
    private readonly store: Store,
    ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.keys = new TtlCache(ttlMs, maxEntries);
    this.templates = new TtlCache(ttlMs, maxEntries);
  }

  /**
   * The cached answer itself while it is fresh, else a promise of the store's. Callers on the hot
   * path take a cached answer without waiting a turn of the event loop.
   */
  keyBySecretHash(hash: string): KeyHit | Promise<KeyHit> {
    const cached = this.cachedKey(hash);
    if (cached !== undefined) return cached;
    return this.store.findKeyBySecretHash(hash).then((record) => {
      const found = record ?? null;
      this.keys.set(hash, found);
      return found;
    });
  }

  /** As keyBySecretHash: the cached template while fresh, else a promise of the store's. */
  template(id: string): TemplateRecord | null | Promise<TemplateRecord | null> {
    const cached = this.cachedTemplate(id);
    if (cached !== undefined) return cached;
    return this.store.getTemplate(id).then((record) => {
      const found = record ?? null;
      this.templates.set(id, found);
      return found;
    });
  }

  /** What the cache holds for a secret hash while fresh (`null`: known to be no key); undefined where only the store can say. */
  cachedKey(hash: string): KeyHit | undefined {
    return this.keys.get(hash);
  }

  /** As cachedKey, for a template id. */
  cachedTemplate(id: string): TemplateRecord | null | undefined {
    return this.templates.get(id);
  }

  /** A key changed here: entries are keyed by secret hash, so drop them all (key changes are rare). */
  keysChanged(): void {
    this.keys.clear();
  }

  templateChanged(id: string): void {
    this.templates.delete(id);
  }
}
