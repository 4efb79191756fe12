/**
 * The QuickJS build's own host (engine/runtimes/quickjs/platform) against Node's, and the
 * executable's option parser against node:util's: the release binary must encode, hash and parse
 * exactly as the Node build does (its decoder, in C, is tested through the binary:
 * protocol-binary.test.ts).
 */
import { createHash } from "node:crypto";
import { parseArgs as nodeParseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { base64, sha1 } from "../runtimes/quickjs/platform/sha1.js";
import { utf8Encode } from "../runtimes/quickjs/platform/utf8.js";
import { utf8Length } from "../runtimes/quickjs/platform/utf8-length.js";
import { parseArgs } from "../src/executable/args.js";
import { concatBytes } from "../src/executable/io.js";

describe("UTF-8", () => {
  it("encodes as Node does, lone surrogates included", () => {
    for (const text of ["", "abc", "é", "€", "🎉", "a\ud800b", "\udc00", `${"ü".repeat(5000)}🎉`]) {
      expect([...utf8Encode(text)]).toEqual([...Buffer.from(text, "utf8")]);
    }
  });

  it("counts UTF-8 bytes as Node does, lone surrogates included", () => {
    for (const text of ["", "abc", "é", "€", "🎉", "a\ud800b", "\udc00", "\ud800", "\udbff\udfff", `${"ü".repeat(5000)}🎉`]) {
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, "utf8"));
    }
  });

  it("joins byte chunks, the first `size` bytes, as Node's Buffer.concat does", () => {
    const parts = [Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5)];
    expect([...concatBytes(parts, 5)]).toEqual([...Buffer.concat(parts)]);
    expect([...concatBytes(parts, 4)]).toEqual([...Buffer.concat(parts, 4)]);
  });
});

describe("SHA-1", () => {
  it("matches node:crypto", () => {
    for (const text of ["", "abc", "a".repeat(55), "a".repeat(56), "a".repeat(64), "é🎉".repeat(1000)]) {
      expect(base64(sha1(text))).toBe(createHash("sha1").update(text).digest("base64"));
    }
  });
});

describe("the executable's option parser", () => {
  const options = {
    template: { type: "string" },
    out: { type: "string" },
    strict: { type: "boolean" },
    target: { type: "string", multiple: true },
  } as const;
  it("parses what node:util's parseArgs parses", () => {
    for (const args of [
      ["--template", "t.json"],
      ["--template=t.json", "--strict"],
      ["--out", "-", "--template", "x"],
      ["--target", "html", "--target=mjml", "--template", "t.json"],
      ["--template", "a", "--template", "b"],
    ]) {
      expect(parseArgs(args, options)).toEqual({
        ...nodeParseArgs({ args, options, strict: true, allowPositionals: false }).values,
      });
    }
  });
  it("refuses what node:util's parseArgs refuses", () => {
    for (const args of [["--nope"], ["--template"], ["--strict=yes"], ["positional"]]) {
      expect(() => nodeParseArgs({ args, options, strict: true, allowPositionals: false })).toThrow();
      expect(() => parseArgs(args, options)).toThrow();
    }
  });
});
