import type { CacheEntry, CacheStore } from "./types.js";

/**
 * In-process store. A Map keeps insertion order and every write re-inserts, so the first key is always
 * the entry fetched (or renewed by a 304) longest ago: that is the one evicted when full.
 */
export class MemoryCache implements CacheStore {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get(templateId: string): Promise<CacheEntry | undefined> {
    return Promise.resolve(this.#entries.get(templateId));
  }

  set(entry: CacheEntry): Promise<void> {
    this.#entries.delete(entry.templateId);
    this.#entries.set(entry.templateId, entry);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return Promise.resolve();
  }

  delete(templateId: string): boolean {
    return this.#entries.delete(templateId);
  }

  list(): string[] {
    return [...this.#entries.keys()];
  }

  clear(): Promise<void> {
    this.#entries.clear();
    return Promise.resolve();
  }
}
