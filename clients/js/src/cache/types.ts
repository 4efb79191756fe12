import type { RenderTarget } from "@mailrender/engine";

/**
 * What the key in use may render, learned from the service's X-Key-Targets header. `key` is a
 * fingerprint of the API key (never the key), so a cache shared with a process that uses another key
 * does not lend that key's scope to this one.
 */
export interface CachedScope {
  readonly key: string;
  readonly targets: readonly RenderTarget[];
  /** False when the service sent no X-Key-Targets: `targets` are only those it accepted so far. */
  readonly complete: boolean;
}

/** One cached template. Expired entries are kept: they are the last good copy for stale-on-error. */
export interface CacheEntry {
  readonly templateId: string;
  /** The template JSON exactly as the service sent it (opaque to the client). */
  readonly template: unknown;
  readonly etag: string | null;
  /** When the service last vouched for this copy (200 or 304): whole ms since the epoch (./time.ts). */
  readonly fetchedAt: number;
  readonly scope: CachedScope | null;
}

/** A cache store: memory or disk. Reads never throw for a missing or unreadable entry: that is a miss. */
export interface CacheStore {
  get(templateId: string): Promise<CacheEntry | undefined>;
  set(entry: CacheEntry): Promise<void>;
  /** True when an entry was there. */
  delete(templateId: string): boolean;
  list(): string[];
  clear(): Promise<void>;
}
