/**
 * Escaping by the place a value lands. Recipient data is untrusted: every function here must make it
 * impossible for a value to leave the position it was put in.
 */
import { parseMergeTags } from "./merge-tags.js";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const JSX_ESCAPES: Record<string, string> = {
  ...HTML_ESCAPES,
  "{": "&#123;",
  "}": "&#125;",
};

/**
 * Text content and double-quoted attribute values in HTML and in MJML (XML). Escaping all five
 * characters makes one function safe in both positions, and `]]>` cannot survive it.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * JSX text and JSX string attributes: JSX decodes HTML entities in both, so entities keep the value
 * literal, and `{`/`}` cannot open an expression.
 */
export function escapeJsx(value: string): string {
  return value.replace(/[&<>"'{}]/g, (ch) => JSX_ESCAPES[ch] ?? ch);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A lone UTF-16 surrogate is not text: UTF-8 cannot carry it and `encodeURIComponent` throws on it.
 * Each one becomes U+FFFD, as a UTF-8 decoder would show it; `undefined` when the value is well formed.
 */
export function replaceLoneSurrogates(value: string): string | undefined {
  LONE_SURROGATE.lastIndex = 0;
  if (!LONE_SURROGATE.test(value)) return undefined;
  return value.replace(LONE_SURROGATE, "\uFFFD");
}

const SAFE_URL_SCHEME = /^(?:https?:|mailto:|tel:)/i;

/** A value that supplies a whole URL must carry an allowed scheme; anything else is refused. */
export function isSafeWholeUrl(value: string): boolean {
  return SAFE_URL_SCHEME.test(value);
}

/**
 * A URL the template's author wrote with a scheme other than http, https, mailto or tel
 * (`javascript:`, `data:`, `vbscript:`, …). A value starting with a merge tag is judged when its value
 * is known; a relative URL has no scheme and is kept.
 */
export function isUnsafeAuthorUrl(value: string): boolean {
  const url = normalizeUrlValue(value);
  if (url.startsWith("{{")) return false;
  return /^[a-z][a-z0-9+.-]*:/i.test(url.replace(/\s+/g, "")) && !isSafeWholeUrl(url.replace(/\s+/g, ""));
}

/** Strips what browsers ignore in URLs (controls and edge whitespace) before the scheme check. */
export function normalizeUrlValue(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
}

/** A value inside a URL (after its start) is one component of it. */
export function encodeUrlPart(value: string): string {
  return encodeURIComponent(value);
}

/**
 * Characters never needed raw in a URL that could end a CSS `url('…')`, an attribute or a <style>
 * element, percent-encoded: for merge-tag URLs and template-authored URLs written into CSS alike.
 */
export function encodeUnsafeUrlChars(url: string): string {
  return url.replace(/['"()\\\s<>`{}]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/**
 * A template-authored URL that may hold merge tags, for CSS `url('…')`: its literal text as
 * `encodeUnsafeUrlChars` makes it, its tags kept as written (their values are encoded when substituted).
 */
export function encodeUnsafeUrlCharsOutsideTags(url: string): string {
  return parseMergeTags(url)
    .map((part) => (typeof part === "string" ? encodeUnsafeUrlChars(part) : part.source))
    .join("");
}
