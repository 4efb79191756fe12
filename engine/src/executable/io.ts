/**
 * What the executable reads and writes through, given by its entry (src/cli.ts on Node,
 * engine/runtimes/quickjs/host.ts on QuickJS): the executable's code uses no Node API itself.
 */

/** The part of a writable stream the executable writes to (a Node stream has it; the QuickJS host writes to descriptors). */
export interface Sink {
  write(data: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
  on(event: "drain" | "error" | "close", listener: () => void): unknown;
  off(event: "drain" | "error" | "close", listener: () => void): unknown;
  cork?(): void;
  uncork?(): void;
}

/** Files for the human commands: a path of "-" reads stdin. */
export interface Files {
  read(path: string): Uint8Array;
  write(path: string, text: string): void;
}

/** One byte array of `parts`, whose sizes sum to `size`. */
export function concatBytes(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.byteLength === size) return parts[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part.subarray(0, size - offset), offset);
    offset += Math.min(part.byteLength, size - offset);
  }
  return out;
}
