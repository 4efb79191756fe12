/**
 * UTF-8 encoding and strict decoding for the QuickJS runtime, which has no TextEncoder or
 * TextDecoder. Decoding follows the WHATWG decoder with `fatal: true`: any ill-formed sequence
 * (overlong, surrogate, beyond U+10FFFF, truncated) throws, as Node's does; a leading BOM is dropped.
 */
export function utf8Encode(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate, as Node encodes it
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 0x3f);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
    }
    out[n++] = 0x80 | (c & 0x3f);
  }
  return out.subarray(0, n);
}

export function utf8DecodeStrict(bytes: Uint8Array): string {
  const chunks: string[] = [];
  let units: number[] = [];
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const fail = (): never => {
    throw new TypeError("The encoded data was not valid for encoding utf-8");
  };
  const length = bytes.length; // read once: a typed array's length is a getter call in QuickJS
  while (i < length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      // ASCII runs are the common case: slice them out in one go.
      let end = i + 1;
      while (end < length && (bytes[end] as number) < 0x80) end++;
      if (units.length > 0) {
        chunks.push(fromCodeUnits(units));
        units = [];
      }
      for (let s = i; s < end; s += 8192) chunks.push(fromCodeUnits(bytes.subarray(s, Math.min(end, s + 8192))));
      i = end;
      continue;
    }
    let need: number;
    let c: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      c = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      c = b & 0x0f;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      c = b & 0x07;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else {
      return fail();
    }
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < lower || next > upper) fail();
      lower = 0x80;
      upper = 0xbf;
      c = (c << 6) | ((next as number) & 0x3f);
    }
    i += need + 1;
    if (c >= 0x10000) {
      c -= 0x10000;
      units.push(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
    } else {
      units.push(c);
    }
    if (units.length >= 8192) {
      chunks.push(fromCodeUnits(units));
      units = [];
    }
  }
  if (units.length > 0) chunks.push(fromCodeUnits(units));
  return chunks.join("");
}

/**
 * `String.fromCharCode` of at most 8192 code units. `apply`, not a spread: QuickJS spreads a typed
 * array through its iterator, one result object per byte (most of a request's decoding time);
 * `apply` reads the elements in C.
 */
function fromCodeUnits(units: ArrayLike<number>): string {
  return String.fromCharCode.apply(null, units as number[]);
}
