/**
 * The part of Node's Buffer the engine calls (`Buffer.from` a string or bytes, `Buffer.concat`,
 * `Buffer.byteLength` of a string),
 * for the QuickJS runtime, which has no Buffer. What it returns are plain Uint8Arrays: the engine
 * uses only what Uint8Array has (`length`, `subarray`, `indexOf`) on them.
 */
import { utf8Encode } from "./utf8.js";

export const Buffer = {
  from(value: string | ArrayLike<number>, encoding?: string): Uint8Array {
    if (typeof value !== "string") return Uint8Array.from(value);
    if (encoding !== undefined && encoding !== "utf8" && encoding !== "utf-8") throw new Error(`Buffer.from: unsupported encoding ${encoding}`);
    return utf8Encode(value);
  },

  /** UTF-8 size of a string without encoding it; a lone surrogate counts as U+FFFD (3 bytes), as in Node. */
  byteLength(text: string, encoding?: string): number {
    if (encoding !== undefined && encoding !== "utf8" && encoding !== "utf-8") throw new Error(`Buffer.byteLength: unsupported encoding ${encoding}`);
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) bytes += 1;
      else if (unit < 0x800) bytes += 2;
      else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 4;
        i++;
      } else bytes += 3;
    }
    return bytes;
  },

  concat(parts: readonly Uint8Array[], total?: number): Uint8Array {
    const size = total ?? parts.reduce((sum, part) => sum + part.length, 0);
    const out = new Uint8Array(size);
    let offset = 0;
    for (const part of parts) {
      const piece = part.subarray(0, size - offset);
      out.set(piece, offset);
      offset += piece.length;
    }
    return out;
  },
};
