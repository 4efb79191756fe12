/**
 * The engine's caches are bounded by size, not only by count: one template text can be megabytes,
 * and what is computed from it (a parsed tree) many times that, so a count alone would let a
 * long-lived process keep gigabytes. Every cache registers here, so a process over its memory
 * ceiling can drop them all at once (src/executable/memory.ts).
 */

interface Clearable {
  clear(): void;
}

const caches = new Set<Clearable>();

export function registerCache(cache: Clearable): void {
  caches.add(cache);
}

/** Empties every registered cache: later renders recompute what they need. */
export function clearCaches(): void {
  for (const cache of caches) cache.clear();
}

/**
 * Results computed from a text, keyed by the text: at most `maxEntries` of them, for texts of at
 * most `maxChars` UTF-16 code units in all (a text longer than that alone is not kept). When either
 * bound would be passed, the cache starts again empty: cheap, and right for caches whose hits come
 * from one template's repeated texts.
 */
export class TextCache<V> {
  readonly #entries = new Map<string, V>();
  #chars = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxChars: number,
  ) {
    registerCache(this);
  }

  get(text: string): V | undefined {
    return this.#entries.get(text);
  }

  set(text: string, value: V): void {
    if (text.length > this.maxChars || this.#entries.has(text)) return;
    if (this.#entries.size >= this.maxEntries || this.#chars + text.length > this.maxChars) this.clear();
    this.#entries.set(text, value);
    this.#chars += text.length;
  }

  clear(): void {
    this.#entries.clear();
    this.#chars = 0;
  }
}
