/**
 * What the request log may show. Credentials are removed by header name, by query parameter name,
 * and by shape wherever they appear (a key pasted into the path or an unexpected header).
 */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token|x-access-token|x-amz-security-token)$/i;
const CREDENTIAL_PARAMS = /^(api[_-]?key|key|token|access[_-]?token|auth|secret|password|sig|signature)$/i;
/** `sk_live_…` keys (also truncated or mistyped ones), and the credential of any auth scheme. */
const KEY_SHAPED = /sk_[a-z]+_[0-9A-Za-z]+/g;
const AUTH_SCHEME = /\b(Bearer|Basic|Token)\s+\S+/gi;

export const REDACTED = "[REDACTED]";

export function redactText(text: string): string {
  return text.replace(KEY_SHAPED, REDACTED).replace(AUTH_SCHEME, `$1 ${REDACTED}`);
}

export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return redactText(url);
  const query = url
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // a malformed escape: match on the raw name
      }
      return CREDENTIAL_PARAMS.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
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
