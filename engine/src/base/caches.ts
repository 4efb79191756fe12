/**
 * The module-level text caches (a merge-tag string's parse, an HTML text's tree, a font family's
 * stack and its escaped form, a colour as VML writes it), which engines share because what they hold
 * depends on the text alone. Bounded by size, not only by count: one text can be megabytes and what
 * is computed from it many times that, so a count alone would let a long-lived process keep
 * gigabytes. Each registers here, so a process over its memory ceiling can drop them all at once
 * (src/executable/memory.ts); an engine's own caches are dropped by the engine (engine/caches.ts).
 */

const textCaches = new Set<TextCache<unknown>>();

/** Empties every text cache: later renders recompute what they need. */
export function clearTextCaches(): void {
  for (const cache of textCaches) cache.clear();
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
    textCaches.add(this as TextCache<unknown>);
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
