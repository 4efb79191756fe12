/**
 * Escaping by the place a value lands. Recipient data is untrusted: every function here must make it
 * impossible for a value to leave the position it was put in.
 */
import { parseMergeTags } from "./merge-tags.js";

/** Slices a regular-expression replacement is made on, in code units (see `replaceInSlices`). */
const SLICE = 65_536;
const replacementCharacter = (): string => "\uFFFD";
const nothing = (): string => "";
const percentEncoded = (ch: string): string => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

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

const htmlEscape = (ch: string): string => HTML_ESCAPES[ch] ?? ch;
const jsxEscape = (ch: string): string => JSX_ESCAPES[ch] ?? ch;

/*
 * A value longer than a slice is escaped by plain-string passes, `&` first: a replacement with a
 * regular expression and a callback makes one call per match, and QuickJS holds every match of a call
 * until it returns (a 7 MB value of `<` took 1.7 GB, which its allocator then kept). A string pattern
 * is searched and copied in C, with nothing kept per match. Shorter values, nearly all, take one pass.
 */

/**
 * Text content and double-quoted attribute values in HTML and in MJML (XML). Escaping all five
 * characters makes one function safe in both positions, and `]]>` cannot survive it.
 */
export function escapeHtml(value: string): string {
  // Most values (URLs, alt texts, labels) hold none of the five: five `includes`, loops in C, cost
  // QuickJS a third of a global replace that finds nothing (~5 K instructions against ~15 K).
  if (!value.includes("&") && !value.includes("<") && !value.includes(">") && !value.includes('"') && !value.includes("'")) return value;
  if (value.length <= SLICE) return value.replace(/[&<>"']/g, htmlEscape);
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/**
 * JSX text and JSX string attributes: JSX decodes HTML entities in both, so entities keep the value
 * literal, and `{`/`}` cannot open an expression.
 */
export function escapeJsx(value: string): string {
  if (value.length <= SLICE) return value.replace(/[&<>"'{}]/g, jsxEscape);
  return escapeHtml(value).replaceAll("{", "&#123;").replaceAll("}", "&#125;");
}

/**
 * `text.replace(pattern, replacement)` for a pattern that matches within one character (or one
 * surrogate pair), a slice at a time: QuickJS keeps every match of one call until it returns, so a
 * value that matches millions of times would cost hundreds of megabytes in one call. A slice never
 * ends between the two halves of a surrogate pair.
 */
function replaceInSlices(text: string, pattern: RegExp, replacement: (match: string) => string): string {
  if (text.length <= SLICE) return text.replace(pattern, replacement);
  let out = "";
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE, text.length);
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    out += text.slice(start, end).replace(pattern, replacement);
    start = end;
  }
  return out;
}

/** Exported for the component target, which writes the same rules into the module it generates. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A lone UTF-16 surrogate is not text: UTF-8 cannot carry it and `encodeURIComponent` throws on it.
 * Each one becomes U+FFFD, as a UTF-8 decoder would show it; `undefined` when the value is well formed.
 */
export function replaceLoneSurrogates(value: string): string | undefined {
  LONE_SURROGATE.lastIndex = 0;
  if (!LONE_SURROGATE.test(value)) return undefined;
  return replaceInSlices(value, LONE_SURROGATE, replacementCharacter);
}

export const SAFE_URL_SCHEME = /^(?:https?:|mailto:|tel:)/i;

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
  // Most URLs start with an allowed scheme exactly as written: nothing stripped below comes before
  // it, so they are safe without the three whole-string passes (the first character is looked at
  // first, as a failing test of a non-sticky expression tries every position).
  const first = value.charCodeAt(0);
  const lower = first | 0x20;
  if ((lower === 0x68 || lower === 0x6d || lower === 0x74) && SAFE_URL_SCHEME.test(value)) return false;
  // Empty, or starting with a printable ASCII character other than a letter (a relative URL, a merge
  // tag): no scheme, as nothing is stripped before that character.
  if (value === "" || (first > 0x20 && first < 0x7f && !(lower >= 0x61 && lower <= 0x7a))) return false;
  const url = normalizeUrlValue(value);
  if (url.startsWith("{{")) return false;
  return /^[a-z][a-z0-9+.-]*:/i.test(url.replace(/\s+/g, "")) && !isSafeWholeUrl(url.replace(/\s+/g, ""));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
export const URL_IGNORED_CHARS = /[\u0000-\u001f\u007f]/g;

/** Strips what browsers ignore in URLs (controls and edge whitespace) before the scheme check. */
export function normalizeUrlValue(value: string): string {
  return replaceInSlices(value, URL_IGNORED_CHARS, nothing).trim();
}

/** A value inside a URL (after its start) is one component of it. */
export function encodeUrlPart(value: string): string {
  return encodeURIComponent(value);
}

export const URL_UNSAFE_CHARS = /['"()\\\s<>`{}]/g;

/**
 * Characters never needed raw in a URL that could end a CSS `url('…')`, an attribute or a <style>
 * element, percent-encoded: for merge-tag URLs and template-authored URLs written into CSS alike.
 */
export function encodeUnsafeUrlChars(url: string): string {
  return replaceInSlices(url, URL_UNSAFE_CHARS, percentEncoded);
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
