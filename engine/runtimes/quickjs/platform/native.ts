/**
 * The functions the build's main() installs from native/ (each file's `mailrender_*_init`): what
 * QuickJS lacks (hashes, UTF-8 codecs) or what costs hundreds of instructions a byte in JavaScript
 * under its interpreter and a few in C.
 */
import type { MjmlNode } from "../../../src/mjml-to-html/component.js";

/** native/checksum.c: the lowercase hex SHA-256 of a string's UTF-8. */
declare const mailrenderSha256: (text: string) => string;
/** native/checksum.c: that of a UTF-8 JSON request's top-level `template` object, as its bytes write it. */
declare const mailrenderRequestTemplateSha256: (bytes: Uint8Array) => string | undefined;
/** native/checksum.c: the CRC-32 (zlib's) of a string's UTF-8, 8 lowercase hex digits. */
declare const mailrenderCrc32: (text: string) => string;
/** native/utf8.c: strict, as Node's fatal TextDecoder; drops a leading BOM. */
declare const mailrenderDecodeUtf8: (bytes: Uint8Array) => string;
/** native/utf8.c: a lone surrogate as U+FFFD, as Node encodes it. */
declare const mailrenderEncodeUtf8: (text: string) => Uint8Array;
/** native/utf8.c: the length of mailrenderEncodeUtf8's bytes, without making them. */
declare const mailrenderUtf8Length: (text: string) => number;
/** native/json-string.c: the UTF-8 of `JSON.stringify(text)` without its quotes. */
declare const mailrenderJsonStringUtf8: (text: string) => Uint8Array;
/** native/request-json.c: throws a TypeError (not UTF-8), a RangeError (nested deeper) or a SyntaxError (not JSON). */
declare const mailrenderParseJsonUtf8: (bytes: Uint8Array, maxDepth: number) => unknown;
/** native/markup-passes.c (markup-minify.c): targets/minify.ts's `minifyMarkup`, or undefined where it leaves the document to it. */
declare const mailrenderMinifyMarkup: (markup: string) => string | undefined;
/** native/markup-passes.c (html-waste.c): targets/html-waste.ts's `removeHtmlWaste`, then minify.ts's `minifyMarkup` when `minify`, or undefined where it leaves the document to them. */
declare const mailrenderRemoveHtmlWaste: (html: string, minify: boolean) => string | undefined;
/** native/conditional-minify.c: mjml-to-html/document.ts's `minifyInner`, or undefined where it leaves the markup to it. */
declare const mailrenderMinifyConditionalInner: (inner: string) => string | undefined;
/** native/mjml-parse.c: mjml-to-html/parse.ts's `parseMjml`, or undefined where it leaves the MJML to it. */
declare const mailrenderParseMjml: (mjml: string, endingTags: string) => MjmlNode | undefined;
/** native/memory.c. */
declare const mailrenderMemory: { release(): void; capHeap(bytes: number): void };

export const sha256 = (text: string): string => mailrenderSha256(text);
export const requestTemplateSha256 = (bytes: Uint8Array): string | undefined => mailrenderRequestTemplateSha256(bytes);
export const crc32 = (text: string): string => mailrenderCrc32(text);
export const decodeUtf8 = (bytes: Uint8Array): string => mailrenderDecodeUtf8(bytes);
export const encodeUtf8 = (text: string): Uint8Array => mailrenderEncodeUtf8(text);
export const utf8Length = (text: string): number => mailrenderUtf8Length(text);
export const jsonStringUtf8 = (text: string): Uint8Array => mailrenderJsonStringUtf8(text);
export const parseJsonUtf8 = (bytes: Uint8Array, maxDepth: number): unknown => mailrenderParseJsonUtf8(bytes, maxDepth);
export const minifyMarkup = (markup: string): string | undefined => mailrenderMinifyMarkup(markup);
export const removeHtmlWaste = (html: string, minify: boolean): string | undefined => mailrenderRemoveHtmlWaste(html, minify);
export const minifyConditionalInner = (inner: string): string | undefined => mailrenderMinifyConditionalInner(inner);
export const parseMjml = (mjml: string, endingTags: string): MjmlNode | undefined => mailrenderParseMjml(mjml, endingTags);
export const releaseMemory = (): void => mailrenderMemory.release();
export const capHeap = (bytes: number): void => mailrenderMemory.capHeap(bytes);
