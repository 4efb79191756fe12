/**
 * The engine's caches, all under one policy: each is a least-recently-used map of a bounded number
 * of entries, owned by one engine (two engines in a process share nothing). What is derived from a
 * cached entry (a compiled output's UTF-8 size, its JSON-encoded parts) is kept on the entry and
 * goes with it.
 */
import { LruCache } from "../base/lru.js";

export interface CachePolicy {
  /** Parsed templates, by their JSON's digest; 0: templates are not hashed nor kept. */
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

/** The policy's caches; a bound of 0 makes a cache that keeps nothing. */
export class EngineCaches<Template, Output, Content> {
  readonly templates: LruCache<string, Template>;
  readonly outputs: LruCache<string, Output>;
  readonly contentHtml: LruCache<string, Content>;

  constructor(readonly policy: CachePolicy) {
    for (const [name, bound] of Object.entries(policy)) {
      if (!Number.isSafeInteger(bound) || bound < 0) throw new RangeError(`cache.${name} must be a whole number of entries ≥ 0, not ${String(bound)}`);
    }
    this.templates = new LruCache(policy.templates);
    this.outputs = new LruCache(policy.outputs);
    this.contentHtml = new LruCache(policy.contentHtml);
  }
}
