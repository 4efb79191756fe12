/**
 * Templates kept by a --serve process under a client-chosen template_ref, so a client sends a
 * 30 KB template once and later requests name it. Bounded by entry count and by the byte size of
 * the requests that carried them; the least recently used entry goes first. Keeping the parsed
 * object (not its text) also lets the engine's per-template cache hit without re-parsing.
 */
import { TEMPLATE_STORE_MAX_BYTES, TEMPLATE_STORE_MAX_ENTRIES } from "../protocol/constants.js";

interface Entry {
  readonly template: unknown;
  readonly bytes: number;
}

export class TemplateStore {
  // A Map iterates in insertion order: re-inserting on use makes the first key the least recent.
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(
    readonly maxEntries = TEMPLATE_STORE_MAX_ENTRIES,
    readonly maxBytes = TEMPLATE_STORE_MAX_BYTES,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(ref: string): unknown {
    const entry = this.#entries.get(ref);
    if (entry === undefined) return undefined;
    this.#entries.delete(ref);
    this.#entries.set(ref, entry);
    return entry.template;
  }

  set(ref: string, template: unknown, bytes: number): void {
    this.delete(ref);
    this.#entries.set(ref, { template, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      if (oldest === ref) break; // never evict what was just stored, even if it alone is over the byte bound
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  /** Forgets every template (a process over its memory ceiling; clients resend on TEMPLATE_REF_UNKNOWN). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  delete(ref: string): void {
    const entry = this.#entries.get(ref);
    if (entry === undefined) return;
    this.#entries.delete(ref);
    this.#bytes -= entry.bytes;
  }
}
