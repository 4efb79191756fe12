/** `node:fs`'s whole-file read and write, for the engine's human commands under QuickJS. */
import * as std from "qjs:std";
import { Buffer } from "./buffer.js";

function openOrThrow(path: string, mode: string): std.FILE {
  const error: { errno?: number } = {};
  const file = std.open(path, mode, error);
  if (file === null) throw new Error(`${std.strerror(error.errno ?? 0)}, open '${path}'`);
  return file;
}

export function readAll(file: std.FILE): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = new ArrayBuffer(65536);
    const n = file.read(chunk, 0, chunk.byteLength);
    if (n <= 0) break;
    chunks.push(new Uint8Array(chunk, 0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

export function readFileSync(path: string | number): Uint8Array {
  if (path === 0) return readAll(std.in);
  const file = openOrThrow(String(path), "rb");
  try {
    return readAll(file);
  } finally {
    file.close();
  }
}

export function writeFileSync(path: string, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const file = openOrThrow(path, "wb");
  try {
    file.write(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    file.flush();
    if (file.error()) throw new Error(`cannot write '${path}'`);
  } finally {
    file.close();
  }
}
