/**
 * A value's JSON text, `JSON.stringify`'s, as pieces whose concatenation is that text: each member
 * of an object apart, and each item of a member that is an array. For a host that hashes the
 * pieces one after another (`EngineHost.digestParts`) to the digest of the whole text: on V8, a
 * template's text holding one character beyond Latin-1 is two bytes a character, over 128 KiB for
 * the newsletter, a large allocation of its own, then converted to UTF-8 on a slower path than
 * pieces of one byte a character. Hashing reads bytes in order, and a piece ends between two JSON
 * tokens (never inside a string, where a surrogate pair could be cut), so the digest is the one of
 * the whole text: the cache key keeps its meaning (docs/design/template-cache-key.md).
 *
 * Undefined where the pieces would not be that text, or not cheaply: not a plain object, or a
 * `toJSON` on it, on a member or on an item (JSON.stringify passes it the member's name or the
 * item's index, which a piece's own JSON.stringify does not); the caller builds the whole text.
 * Throws where JSON.stringify would (a cycle, a BigInt); the caller's whole text then says why.
 */
export function jsonParts(value: unknown): string[] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || hasToJson(value)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const parts: string[] = [];
  let separator = "{";
  for (const name of Object.keys(value)) {
    const member: unknown = (value as Record<string, unknown>)[name];
    if (hasToJson(member)) return undefined;
    const label = `${separator}${JSON.stringify(name)}:`;
    if (Array.isArray(member)) {
      if (!pushItems(parts, label, member)) return undefined;
    } else {
      const text = JSON.stringify(member);
      // A member JSON cannot write (undefined, a function, a symbol) is left out, as JSON.stringify leaves it.
      if (text === undefined) continue;
      parts.push(label + text);
    }
    separator = ",";
  }
  parts.push(separator === "{" ? "{}" : "}");
  return parts;
}

/** An array member's items, a piece each (what JSON cannot write is `null` in an array); false where an item has a `toJSON`. */
function pushItems(parts: string[], label: string, items: readonly unknown[]): boolean {
  let opening = `${label}[`;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (hasToJson(item)) return false;
    parts.push(opening + (JSON.stringify(item) ?? "null"));
    opening = ",";
  }
  parts.push(items.length === 0 ? `${opening}]` : "]");
  return true;
}

/** Whether JSON.stringify could call a `toJSON` of `value` (an object's, a function's, a BigInt's; a primitive's own is refused too). */
function hasToJson(value: unknown): boolean {
  return value !== null && value !== undefined && typeof (value as { toJSON?: unknown }).toJSON === "function";
}
