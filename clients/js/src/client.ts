/**
 * MailrenderClient: fetch a template's JSON (cached), then render it in-process with the engine.
 *
 * Order of a render: check the arguments → cached entry fresh and in scope? render from it → else
 * (re)fetch, conditional on the cached ETag, with retries for outages → on an outage use the expired
 * copy (stale-on-error) → render. Scope decisions on cached entries use X-Key-Targets, so a cached
 * render refuses exactly what the service would.
 */
import type { DynamicData, RenderTarget } from "@mailrender/engine";
import { DiskCache } from "./cache/disk.js";
import { MemoryCache } from "./cache/memory.js";
import { cacheNow, isFresh } from "./cache/time.js";
import type { CacheEntry, CacheStore } from "./cache/types.js";
import { renderLocally } from "./engine.js";
import { forbiddenTarget, MailrenderError, mayServeStale } from "./errors.js";
import { type FetchOutcome, type FetchSettings, fetchTemplateOnce } from "./http/fetch-template.js";
import { withRetries } from "./http/retry.js";
import { type ResolvedConfig, resolveConfig } from "./options.js";
import { checkRenderRequest, type RenderRequest } from "./render-request.js";
import { keyFingerprint, learnedScope, scopeVerdict } from "./scope.js";
import type { MailrenderConfig, RenderOptions, RenderResult } from "./types.js";

interface Resolved {
  readonly entry: CacheEntry;
  readonly stale: boolean;
}

let invalidateWarned = false;

export class MailrenderClient {
  // Private fields: the API key never shows up in console.log(client), JSON.stringify or util.inspect.
  readonly #config: ResolvedConfig;
  readonly #http: FetchSettings;
  readonly #cache: CacheStore;
  readonly #fingerprint: string;
  readonly #inflight = new Map<string, Promise<Resolved>>();
  #cacheWriteWarned = false;

  constructor(config?: MailrenderConfig) {
    this.#config = resolveConfig(config);
    const { apiKey, baseUrl, timeout, fetch, cache } = this.#config;
    this.#http = { apiKey, baseUrl, timeout, fetch };
    this.#cache = cache.type === "disk" ? new DiskCache(cache.path, cache.maxEntries) : new MemoryCache(cache.maxEntries);
    this.#fingerprint = keyFingerprint(apiKey);
  }

  /** The service address in use (after defaults and MAILRENDER_BASE_URL). */
  get baseUrl(): string {
    return this.#config.baseUrl;
  }

  async render(options: RenderOptions): Promise<RenderResult> {
    const request = checkRenderRequest(options);
    const { entry, stale } = await this.#resolve(request);
    const { output, text, warnings } = await renderLocally(entry.template, request);
    return { output, target: request.target, templateId: request.templateId, ...(text === undefined ? {} : { text }), warnings, fromStaleCache: stale };
  }

  async renderHtml(templateId: string, dynamicData?: DynamicData): Promise<string> {
    return this.#renderTo(templateId, "html", dynamicData);
  }

  async renderReact(templateId: string, dynamicData?: DynamicData): Promise<string> {
    return this.#renderTo(templateId, "react-email", dynamicData);
  }

  async renderMjml(templateId: string, dynamicData?: DynamicData): Promise<string> {
    return this.#renderTo(templateId, "mjml", dynamicData);
  }

  /** Ids of the cached templates (fresh or expired). */
  listCached(): string[] {
    return this.#cache.list();
  }

  /** Removes one template from the cache; true when it was there. */
  deleteCached(templateId: string): boolean {
    return this.#cache.delete(templateId);
  }

  /** Removes every cached template. Await it: in disk mode the files are removed asynchronously. */
  clearCache(): Promise<void> {
    return this.#cache.clear();
  }

  /** @deprecated Since 2.0.0: use deleteCached(templateId). Works the same; warns once per process. */
  invalidate(templateId: string): boolean {
    if (!invalidateWarned) {
      invalidateWarned = true;
      process.emitWarning("MailrenderClient.invalidate() is deprecated; use deleteCached(templateId)", {
        type: "DeprecationWarning",
        code: "MAILRENDER_INVALIDATE",
      });
    }
    return this.deleteCached(templateId);
  }

  async #renderTo(templateId: string, target: RenderTarget, dynamicData: DynamicData | undefined): Promise<string> {
    return (await this.render({ templateId, target, dynamicData })).output;
  }

  async #resolve(request: RenderRequest): Promise<Resolved> {
    const { templateId, target } = request;
    const cached = await this.#cache.get(templateId);
    if (cached !== undefined) {
      const verdict = scopeVerdict(cached.scope, this.#fingerprint, target);
      // A key's targets never change (rotation keeps them), so even an expired entry's scope is final.
      if (verdict === "forbidden" && cached.scope !== null) throw forbiddenTarget(cached.scope.targets, target);
      if (verdict === "allowed" && isFresh(cached.fetchedAt, cacheNow(), this.#config.cache.ttl)) return { entry: cached, stale: false };
    }
    // Concurrent renders of one template and target share one request.
    const flightKey = `${templateId}\u0000${target}`;
    let flight = this.#inflight.get(flightKey);
    if (flight === undefined) {
      flight = this.#refresh(templateId, target, cached).finally(() => this.#inflight.delete(flightKey));
      this.#inflight.set(flightKey, flight);
    }
    return flight;
  }

  async #refresh(templateId: string, target: RenderTarget, cached: CacheEntry | undefined): Promise<Resolved> {
    let outcome: FetchOutcome;
    try {
      outcome = await withRetries(() => fetchTemplateOnce(this.#http, { templateId, target, etag: cached?.etag ?? null }));
    } catch (error) {
      if (error instanceof MailrenderError) {
        if (error.code === "TEMPLATE_NOT_FOUND") this.#cache.delete(templateId);
        if (cached !== undefined && mayServeStale(error, scopeVerdict(cached.scope, this.#fingerprint, target))) {
          return { entry: cached, stale: true };
        }
      }
      throw error;
    }
    const scope = learnedScope(this.#fingerprint, outcome.keyTargets, cached?.scope ?? null, target);
    let entry: CacheEntry;
    if (outcome.kind === "not-modified") {
      if (cached === undefined) throw new MailrenderError("UNKNOWN", 304, "The service answered 304 to a request that had no If-None-Match");
      entry = { ...cached, etag: outcome.etag ?? cached.etag, fetchedAt: cacheNow(), scope };
    } else {
      entry = { templateId, template: outcome.template, etag: outcome.etag, fetchedAt: cacheNow(), scope };
    }
    await this.#store(entry);
    if (scopeVerdict(scope, this.#fingerprint, target) === "forbidden") throw forbiddenTarget(scope.targets, target);
    return { entry, stale: false };
  }

  /** A cache that cannot be written (read-only disk, full disk) slows renders down but does not fail them. */
  async #store(entry: CacheEntry): Promise<void> {
    try {
      await this.#cache.set(entry);
    } catch (error) {
      if (!this.#cacheWriteWarned) {
        this.#cacheWriteWarned = true;
        process.emitWarning(
          `mailrender: could not write the template cache (${error instanceof Error ? error.message : String(error)}); rendering continues uncached`,
          { code: "MAILRENDER_CACHE_WRITE" },
        );
      }
    }
  }
}
