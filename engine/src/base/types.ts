/** The public vocabulary of the engine, shared by the library API, the executable and the clients. */

export const RENDER_TARGETS = ["html", "react-email", "mjml"] as const;
export type RenderTarget = (typeof RENDER_TARGETS)[number];

export type MergeTagValues = Readonly<Record<string, string>>;

/** Per-recipient data. Merge-tag values are untrusted and escaped for where they land. */
export interface DynamicData {
  readonly merge_tags?: {
    readonly text?: MergeTagValues;
    readonly url?: MergeTagValues;
    readonly attr?: MergeTagValues;
  };
  /** Flat map read by visibility rules. */
  readonly context?: Readonly<Record<string, string | number | boolean>>;
}

export interface RenderOptions {
  readonly target: RenderTarget;
  readonly dynamicData?: DynamicData | undefined;
  /** Minify the output (default true). */
  readonly minify?: boolean | undefined;
  /** Turn missing merge tags into a `RENDER_ERROR` listing them all (default false). */
  readonly strict?: boolean | undefined;
  /** Also return `text`, the plain-text version of the email (default false). */
  readonly plainText?: boolean | undefined;
  /**
   * With target `react-email`: a component whose props are the recipient's data (merge tags and
   * context), for any recipient, instead of one recipient's email (default false). Takes no
   * `dynamicData`, `strict` or `plainText`: those are about one recipient.
   */
  readonly componentProps?: boolean | undefined;
  /** Size limits (defaults in spec/template.md, "Limits"); over one, the render fails with `RENDER_ERROR`. */
  readonly limits?: RenderLimits | undefined;
}

export interface RenderLimits {
  /** Rows, row spacers, columns, blocks and block list entries (default 2,000). */
  readonly maxNodes?: number | undefined;
  /** UTF-8 bytes of the output (default 16 MiB). */
  readonly maxOutputBytes?: number | undefined;
}

export interface RenderResult {
  readonly output: string;
  readonly target: RenderTarget;
  readonly templateId: string;
  /** The plain-text version (visible content in reading order, wrapped at 78 columns), with `plainText`. */
  readonly text?: string;
  readonly warnings: readonly import("./diagnostics.js").RenderWarning[];
}
