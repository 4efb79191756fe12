/** TextEncoder / TextDecoder (UTF-8 only) for the QuickJS runtime. */
import { utf8DecodeStrict, utf8Encode } from "./utf8.js";

export class TextEncoder {
  readonly encoding = "utf-8";
  encode(text = ""): Uint8Array {
    return utf8Encode(text);
  }
}

export class TextDecoder {
  readonly encoding = "utf-8";
  constructor(label = "utf-8", _options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    if (label.toLowerCase() !== "utf-8" && label.toLowerCase() !== "utf8") throw new RangeError(`TextDecoder: unsupported encoding ${label}`);
    // Always fatal: the engine decodes requests strictly, and a lenient decode would change output.
  }
  decode(bytes?: Uint8Array): string {
    return bytes === undefined ? "" : utf8DecodeStrict(bytes);
  }
}
