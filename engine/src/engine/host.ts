/**
 * What the engine takes from the program that runs it: hashing and UTF-8, and where it can, an
 * optional package (the mail-client checks' doiuse-email). The engine reads no clock
 * (a date rule compares two dates it is given) and no process state. The library runs on Node's
 * host (`node-host.ts`); the QuickJS executable passes its own (engine/runtimes/quickjs/host.ts).
 */
import type { MjmlNode } from "../mjml-to-html/component.js";

export interface EngineHost {
  /**
   * A digest of a template's JSON text, telling templates apart as the key of the render caches:
   * called only by an engine that caches renders.
   */
  digest(text: string): string;
  /**
   * `digest` of the concatenation of `parts`, without it built (a template's JSON text in pieces:
   * base/json-parts.ts). Absent: the engine builds the whole text for `digest`.
   */
  readonly digestParts?: (parts: readonly string[]) => string;
  /**
   * `digest` of a request's `template` value as the request's UTF-8 JSON bytes write it (the
   * top-level `template`, an object), taken from the bytes without a JSON text built; undefined when
   * the host cannot find it there. The same key `digest` gives the text when the client wrote the
   * template as JSON.stringify does; another spelling of the same template is another key (one more
   * cache entry), never another template's key (docs/design/template-cache-key.md).
   */
  readonly requestTemplateDigest?: (requestBytes: Uint8Array) => string | undefined;
  /**
   * The lowercase hex SHA-256 of a string's UTF-8: what binds a saved layout to its template
   * (spec/README.md, "Saved layouts"). Absent, or `crc32` absent: the host reads and writes none.
   */
  readonly sha256?: (text: string) => string;
  /**
   * The CRC-32 of a string's UTF-8 (ISO-HDLC, zlib's `crc32`) as 8 lowercase hex digits: what
   * checks a saved layout was not damaged (spec/README.md, "Saved layouts").
   */
  readonly crc32?: (text: string) => string;
  /** The UTF-8 size of a string (a lone surrogate counts as U+FFFD, 3 bytes). */
  utf8Length(text: string): number;
  encodeUtf8(text: string): Uint8Array;
  /** Strict: throws on bytes that are not UTF-8; a leading byte-order mark is dropped. */
  decodeUtf8(bytes: Uint8Array): string;
  /**
   * The UTF-8 of `JSON.stringify(text)` without its two quotes (a lone surrogate escaped as JSON
   * escapes it), for a host that quotes and encodes in one step. Absent: `encodeUtf8` of the quoted text.
   */
  readonly jsonStringUtf8?: (text: string) => Uint8Array;
  /**
   * `JSON.parse(decodeUtf8(bytes))` after a check of the bytes' bracket nesting outside strings
   * against `maxDepth` (what protocol/decode.ts's `maxNesting` checks of the text), in one step, for
   * a host whose JSON.parse reads UTF-8: the request's text is never made. Throws in protocol/decode.ts's
   * order: a TypeError where the bytes are not UTF-8, a RangeError where they nest deeper than
   * `maxDepth`, JSON.parse's SyntaxError where they are not JSON. Absent: those three steps.
   */
  readonly parseJsonUtf8?: (bytes: Uint8Array, maxDepth: number) => unknown;
  /**
   * `minifyMarkup` (targets/minify.ts) of an html or mjml document, the same string, or undefined
   * where the host leaves the document to that function; for a host that minifies in fewer
   * instructions. Absent: the function minifies.
   */
  readonly minifyMarkup?: (markup: string) => string | undefined;
  /**
   * `removeHtmlWaste` (targets/html-waste.ts) of the html target's document, given as the pieces
   * whose concatenation it is (the compile's, never cut inside a character), then `minifyMarkup`
   * when `minify`: the same string, or undefined where the host leaves the document to those
   * functions; for a host that cleans up in fewer instructions (and minifies what it cleaned without
   * handing it back first). Absent: the functions do.
   */
  readonly removeHtmlWaste?: (document: readonly string[], minify: boolean) => string | undefined;
  /**
   * mjml's minifying of an Outlook conditional comment's inner markup (mjml-to-html's `minifyInner`),
   * or undefined where the host leaves it to that function. Absent: the function minifies.
   */
  readonly minifyConditionalInner?: (inner: string) => string | undefined;
  /**
   * The tree mjml-to-html's `parseMjml` reads from the MJML the engine wrote (`endingTags`: the
   * names whose inner markup is content, each followed by a space), or undefined where the host
   * leaves the MJML to that function. Absent: the function reads it.
   */
  readonly parseMjml?: (mjml: string, endingTags: string) => MjmlNode | undefined;
  /**
   * An optional package by name, loaded synchronously from where the engine is installed (or the
   * working directory); throws when it is not installed. Absent: the host loads no packages.
   */
  readonly loadPackage?: (name: string) => unknown;
}
