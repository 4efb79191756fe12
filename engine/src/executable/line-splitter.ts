/**
 * Splits --serve input into newline-delimited requests without ever buffering more than
 * `maxBytes` of one line: past that the rest of the line is counted and dropped, and the line is
 * reported as too large, so a huge line cannot exhaust memory and the next line is still read.
 */
import { concatBytes } from "./io.js";

export type Frame = { readonly kind: "line"; readonly bytes: Uint8Array } | { readonly kind: "too_large"; readonly size: number };

const NEWLINE = 0x0a;

export class LineSplitter {
  #parts: Uint8Array[] = [];
  #size = 0;
  #overflow = false;

  constructor(private readonly maxBytes: number) {}

  /** The frames completed by this chunk, in order. */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      this.#append(chunk.subarray(start, nl));
      this.#flush(frames);
      start = nl + 1;
    }
    this.#append(chunk.subarray(start));
    return frames;
  }

  /** The last line, when the input ended without a newline. */
  end(): Frame[] {
    const frames: Frame[] = [];
    this.#flush(frames);
    return frames;
  }

  #append(part: Uint8Array): void {
    if (part.length === 0) return;
    this.#size += part.length;
    if (this.#overflow) return;
    if (this.#size > this.maxBytes) {
      this.#overflow = true;
      this.#parts = [];
    } else {
      this.#parts.push(part);
    }
  }

  #flush(frames: Frame[]): void {
    if (this.#overflow) frames.push({ kind: "too_large", size: this.#size });
    else if (this.#size > 0) {
      const bytes = concatBytes(this.#parts, this.#size);
      if (!isBlank(bytes)) frames.push({ kind: "line", bytes });
    }
    this.#parts = [];
    this.#size = 0;
    this.#overflow = false;
  }
}

/** Blank lines (e.g. a trailing "\r\n" or a keep-alive newline) carry no request and get no response. */
function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}
