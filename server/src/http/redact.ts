/**
 * What the request log may show. Credentials are removed by header name, by query parameter name,
 * and by shape wherever they appear (a key pasted into the path, an unnamed query value, an
 * unexpected header).
 */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token|x-access-token|x-amz-security-token)$/i;
const CREDENTIAL_PARAMS = /^(api[_-]?key|key|token|access[_-]?token|auth|secret|password|sig|signature)$/i;
/** `sk_live_…` keys (also truncated or mistyped ones), and the credential of any auth scheme. */
const KEY_SHAPED = /sk_[a-z]+_[0-9A-Za-z]+/g;
const AUTH_SCHEME = /\b(Bearer|Basic|Token)\s+\S+/gi;
/**
 * A key's secret without its prefix: 64 hex characters, or most of them. 48 stays clear of the hex
 * the service itself puts in URLs and headers (UUIDs, ETags, 32-digit trace ids, 40-digit SHA-1s).
 */
const BARE_SECRET = /[0-9a-f]{48,}/gi;

export const REDACTED = "[REDACTED]";

export function redactText(text: string): string {
  return replaceFound(replaceFound(replaceFound(text, KEY_SHAPED, REDACTED), BARE_SECRET, REDACTED), AUTH_SCHEME, `$1 ${REDACTED}`);
}

/**
 * `text.replace(pattern, by)`, searched first: most texts logged hold no credential, and a search
 * that finds nothing costs a third of a global replacement that finds nothing.
 */
function replaceFound(text: string, pattern: RegExp, by: string): string {
  return text.search(pattern) < 0 ? text : text.replace(pattern, by);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text; // a malformed escape: match on the raw text
  }
}

/** Whether a (decoded) query name or value has the shape of a key or of its secret. */
function secretShaped(text: string): boolean {
  return redactText(text) !== text;
}

/**
 * A query parameter's value is removed when its name says it is a credential or the value has the
 * shape of one, even percent-encoded; an unnamed parameter (`?<secret>`) is removed whole.
 */
function redactQueryPair(pair: string): string {
  const eq = pair.indexOf("=");
  if (eq < 0) return secretShaped(decoded(pair)) ? REDACTED : pair;
  const name = pair.slice(0, eq);
  if (secretShaped(decoded(name))) return REDACTED;
  return CREDENTIAL_PARAMS.test(decoded(name)) || secretShaped(decoded(pair.slice(eq + 1))) ? `${name}=${REDACTED}` : pair;
}

export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return redactText(url);
  const query = url
    .slice(at + 1)
    .split("&")
    .map(redactQueryPair)
    .join("&");
  return redactText(`${url.slice(0, at)}?${query}`);
}

export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (CREDENTIAL_HEADERS.test(name)) out[name] = REDACTED;
    else if (typeof value === "string") out[name] = redactText(value);
    else if (Array.isArray(value)) out[name] = value.map((v) => (typeof v === "string" ? redactText(v) : v));
    else out[name] = value;
  }
  return out;
}
