/** Whole-file reads and writes for the executable's human commands, through QuickJS-ng's `qjs:std`. */
import * as std from "qjs:std";
import type { Files } from "../../../src/executable/io.js";
import { encodeUtf8 } from "./native.js";

function openOrThrow(path: string, mode: string): std.FILE {
  const error: { errno?: number } = {};
  const file = std.open(path, mode, error);
  if (file === null) throw new Error(`${std.strerror(error.errno ?? 0)}, open '${path}'`);
  return file;
}

function readAll(file: std.FILE): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = new ArrayBuffer(65536);
    const n = file.read(chunk, 0, chunk.byteLength);
    if (n <= 0) break;
    chunks.push(new Uint8Array(chunk, 0, n));
    total += n;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export const QUICKJS_FILES: Files = {
  read(path) {
    if (path === "-") return readAll(std.in);
    const file = openOrThrow(path, "rb");
    try {
      return readAll(file);
    } finally {
      file.close();
    }
  },
  write(path, text) {
    const bytes = encodeUtf8(text);
    const file = openOrThrow(path, "wb");
    try {
      file.write(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
      file.flush();
      if (file.error()) throw new Error(`cannot write '${path}'`);
    } finally {
      file.close();
    }
  },
};
