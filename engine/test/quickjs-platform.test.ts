/**
 * The QuickJS build's own helpers against Node's, and the executable's option parser against
 * node:util's: the release binary must parse exactly as the Node build does (its UTF-8 codecs and
 * hashes, in C, are tested through the binary: protocol-binary.test.ts and the fixtures).
 */
import { parseArgs as nodeParseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../src/executable/args.js";
import { concatBytes } from "../src/executable/io.js";

describe("byte chunks", () => {
  it("joins byte chunks, the first `size` bytes, as Node's Buffer.concat does", () => {
    const parts = [Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5)];
    expect([...concatBytes(parts, 5)]).toEqual([...Buffer.concat(parts)]);
    expect([...concatBytes(parts, 4)]).toEqual([...Buffer.concat(parts, 4)]);
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
