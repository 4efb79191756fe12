/**
 * The engine's caches, all under one policy: each is a least-recently-used map bounded by its number
 * of entries and by their size (one template can be megabytes, and what is computed from it many
 * times that), owned by one engine (two engines in a process share nothing). What is derived from a
 * cached entry (its JSON-encoded parts) is kept on the entry and goes with it.
 */
import { LruCache } from "../base/lru.js";

export interface CachePolicy {
  /**
   * Templates read, by their JSON's digest: a rendered one's outline, its parse once a later read
   * needs it (pipeline.ts, ParsedTemplate); 0: templates are not hashed nor kept.
   */
  readonly templates: number;
  /** Compiled outputs, by template, target, minification and visible set; 0: every render compiles. */
  readonly outputs: number;
  /** Content HTML parsed and sanitised, by its text (a rich-text block's content, read by the reader and by each target). */
  readonly contentHtml: number;
}

/** The library's and a long-lived `--serve` process's: many renders, cached. */
export const MANY_RENDERS: CachePolicy = Object.freeze({ templates: 64, outputs: 512, contentHtml: 2_000 });

/**
 * A process that renders once (the executable's one-shot mode and its human commands): a cache no
 * request can hit would cost it the template's digest, and on Node the module that computes it.
 */
export const ONE_RENDER: CachePolicy = Object.freeze({ templates: 0, outputs: 0, contentHtml: 2_000 });

/**
 * The size each cache may hold, in UTF-16 code units of what its entries are made from: a parsed
 * template or content tree takes ~100 times its text in the release engine, a compiled output about
 * its own length.
 */
const MAX_UNITS = { templates: 32 * 1024 * 1024, outputs: 64 * 1024 * 1024, contentHtml: 1024 * 1024 } as const;

/** How much of MAX_UNITS an entry takes. */
export interface CacheWeights<Template, Output> {
  readonly template: (template: Template) => number;
  readonly output: (output: Output) => number;
}

/** The policy's caches; a bound of 0 makes a cache that keeps nothing. */
export class EngineCaches<Template, Output, Content> {
  readonly templates: LruCache<string, Template>;
  readonly outputs: LruCache<string, Output>;
  readonly contentHtml: ContentHtmlCache<Content>;

  constructor(
    readonly policy: CachePolicy,
    weights: CacheWeights<Template, Output>,
  ) {
    for (const [name, bound] of Object.entries(policy)) {
      if (!Number.isSafeInteger(bound) || bound < 0) throw new RangeError(`cache.${name} must be a whole number of entries ≥ 0, not ${String(bound)}`);
    }
    this.templates = new LruCache(policy.templates, MAX_UNITS.templates, weights.template);
    this.outputs = new LruCache(policy.outputs, MAX_UNITS.outputs, weights.output);
    this.contentHtml = new ContentHtmlCache(policy.contentHtml, MAX_UNITS.contentHtml);
  }

  /** Empties every cache (a process over its memory ceiling): later renders recompute what they need. */
  clear(): void {
    this.templates.clear();
    this.outputs.clear();
    this.contentHtml.clear();
  }
}

/** Parsed content by its HTML text, weighed by that text. */
class ContentHtmlCache<Content> {
  readonly #entries: LruCache<string, { readonly html: string; readonly content: Content }>;

  constructor(entries: number, maxUnits: number) {
    this.#entries = new LruCache(entries, maxUnits, (entry) => entry.html.length);
  }

  get(html: string): Content | undefined {
    return this.#entries.get(html)?.content;
  }

  set(html: string, content: Content): void {
    this.#entries.set(html, { html, content });
  }

  clear(): void {
    this.#entries.clear();
  }
}
