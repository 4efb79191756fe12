/**
 * The public vocabulary. Template, target, data and issue types are the engine's own (re-exported,
 * never redefined), so a change there reaches every caller of the client at compile time.
 */
import type { DynamicData, RenderTarget, RenderWarning } from "@mailrender/engine";

export type { DynamicData, RenderTarget, RenderWarning, TemplateJson, ValidationIssue } from "@mailrender/engine";

/** Options under `cache` (2.1.0 moved `cacheTtl` / `cacheMaxEntries` here). */
export interface CacheConfig {
  /** `memory` (default): per client instance. `disk`: one JSON file per template, shared by processes. */
  readonly type?: "memory" | "disk" | undefined;
  /** Folder of the disk cache (default `.mailrender-cache`, relative to the working directory). */
  readonly path?: string | undefined;
  /** Milliseconds an entry is fresh (default 300000). After that it is revalidated with If-None-Match. */
  readonly ttl?: number | undefined;
  /** Most entries kept (default 50); the entry fetched longest ago goes first. */
  readonly maxEntries?: number | undefined;
}

export interface MailrenderConfig {
  /** Default: env MAILRENDER_API_KEY. An empty key fails at construction with INVALID_API_KEY. */
  readonly apiKey?: string | undefined;
  /** Default: env MAILRENDER_BASE_URL, else http://localhost:8787. */
  readonly baseUrl?: string | undefined;
  /** Milliseconds per HTTP attempt (default 30000); an attempt that takes longer fails with TIMEOUT. */
  readonly timeout?: number | undefined;
  readonly cache?: CacheConfig | undefined;
  /** The HTTP transport (default: the global fetch). */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

export interface RenderOptions {
  readonly templateId: string;
  /** Default `html`. */
  readonly target?: RenderTarget | undefined;
  readonly dynamicData?: DynamicData | undefined;
  /** Minify the output (default true, as the service does). */
  readonly minify?: boolean | undefined;
  /** Fail with RENDER_ERROR listing every merge tag that has no value and no default (default false). */
  readonly strict?: boolean | undefined;
  /** Also return `text`, the email's plain-text version (default false). */
  readonly plainText?: boolean | undefined;
  /**
   * With target `react-email`: a component whose props are a recipient's merge tags and context,
   * instead of one recipient's email (default false). Not with `dynamicData`, `strict` or `plainText`.
   */
  readonly componentProps?: boolean | undefined;
}

export interface RenderResult {
  readonly output: string;
  readonly target: RenderTarget;
  readonly templateId: string;
  /** The plain-text version, with the `plainText` option. */
  readonly text?: string;
  /** Problems that did not stop the render (unknown block types, unsafe URLs, missing merge tags). */
  readonly warnings: readonly RenderWarning[];
  /** True when the service could not be reached and the expired cached copy was used. */
  readonly fromStaleCache?: boolean;
}
