/**
 * The part of Node's Buffer the engine calls (`Buffer.from` a string or bytes, `Buffer.concat`),
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
