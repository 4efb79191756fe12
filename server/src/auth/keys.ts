import { hash, randomBytes } from "node:crypto";

/** `sk_live_` + 64 lowercase hex characters (256 random bits). */
export const API_KEY_PATTERN = /^sk_live_[0-9a-f]{64}$/;
export const KEY_ID_PATTERN = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;
export const DISPLAY_PREFIX_LENGTH = 12;

export function generateApiKey(): string {
  return `sk_live_${randomBytes(32).toString("hex")}`;
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/**
 * A single SHA-256 is enough: the secret has 256 bits of entropy, so there is nothing to brute-force.
 * One-shot `hash` (no Hash object): it runs on every authenticated request.
 */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/**
 * Constant-time comparison of two hex digests: every character is compared, whatever differs first
 * (only a difference in length, which every SHA-256 digest shares, returns early). Compared as text,
 * not decoded for `crypto.timingSafeEqual`: the two Buffers and the native call cost ~2–3 µs a
 * request in the running server (docs/design/service-hot-path.md).
 */
export function hashesEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `key_` + a ULID: 48-bit millisecond time then 80 random bits, so ids sort by creation time. */
export function generateKeyId(now: number = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  const random = randomBytes(16);
  let rand = "";
  for (let i = 0; i < 16; i++) rand += CROCKFORD.charAt((random[i] ?? 0) % 32);
  return `key_${time}${rand}`;
}
