/**
 * The output's size, known before the output is built. A template within the node limit can still
 * ask for a huge output: 600 paragraphs each holding a tag 200 times make 120,000 slots, and one 64 KB
 * value in them 7.9 GB. So the size is settled first, from the compiled output's static parts and the
 * recipient's values, and a render over the limit is refused before a byte of it is assembled:
 *
 * 1. an upper bound without escaping anything: each slot's value length × the most an escaped code
 *    unit can grow for its position (ESCAPE_GROWTH), the static parts at 3 bytes per code unit;
 * 2. only when that bound is over the limit, the exact size: each distinct (value, escaping) is
 *    escaped once (the same strings the output is then built from) and counted once per slot it
 *    fills, stopping as soon as the total is over.
 *
 * The work is therefore linear in the number of slots plus the size of the distinct values, never in
 * the size of the output asked for.
 *
 * The plain-text version is built as it is walked, so its values are counted as they go in and the
 * walk stops as soon as they alone pass the limit; the finished text is then held to the limit too.
 */
import { outputTooLarge } from "../document/limits.js";
import type { Shown, Template } from "../document/model.js";
import { type CompiledOutput, ESCAPE_GROWTH, type Lookup, type Substitution } from "../markup/substitute.js";
import { tagValues } from "../markup/tag-values.js";
import { renderPlainText } from "../text/plain-text.js";

/** The UTF-8 size of a text, from the engine's host (engine/host.ts). */
type Utf8Length = (text: string) => number;

/** Refuses, with `output_too_large`, an output over `maxBytes` of UTF-8; returns nothing otherwise. */
export function checkOutputSize(compiled: CompiledOutput, substitution: Substitution, maxBytes: number, utf8Bytes: Utf8Length): void {
  if (upperBound(compiled, substitution) <= maxBytes) return;
  const { bytes, complete } = exactBytesUpTo(compiled, substitution, maxBytes, utf8Bytes);
  if (bytes > maxBytes) throw outputTooLarge(bytes, maxBytes, { atLeast: !complete });
}

/** The plain-text version, refused with `output_too_large` once over `maxBytes` of UTF-8. */
export function plainTextWithin(template: Template, shown: Shown, lookup: Lookup, maxBytes: number, utf8Bytes: Utf8Length): string {
  let units = 0;
  const values = tagValues(lookup, (length) => {
    units += length;
    // A code unit is at least one byte, and whitespace collapsing is all that can shrink it later.
    if (units > maxBytes) throw outputTooLarge(units, maxBytes, { atLeast: true, plainText: true });
  });
  const text = renderPlainText(template, shown, values);
  const bytes = text.length > maxBytes / 3 ? utf8Bytes(text) : text.length;
  if (bytes > maxBytes) throw outputTooLarge(bytes, maxBytes, { plainText: true });
  return text;
}

/** Bytes the output can be at most: a UTF-16 code unit is at most 3 UTF-8 bytes, and a value grows by its escaping. */
function upperBound(compiled: CompiledOutput, { sources }: Substitution): number {
  let bound = staticUnits(compiled) * 3;
  for (const { value, kind, tokens } of sources) bound += tokens * value.length * ESCAPE_GROWTH[kind];
  return bound;
}

/**
 * The output's exact UTF-8 size, or the first running total over `maxBytes` (`complete` false: the
 * values not yet reached are never escaped). The largest values go first, so an oversized output is refused after
 * escaping as little as possible.
 */
function exactBytesUpTo(compiled: CompiledOutput, substitution: Substitution, maxBytes: number, utf8Bytes: Utf8Length): { bytes: number; complete: boolean } {
  const { sources } = substitution;
  let bytes = staticBytes(compiled, utf8Bytes);
  if (bytes > maxBytes) return { bytes, complete: sources.length === 0 };
  const weight = (i: number): number => sources[i]!.tokens * sources[i]!.value.length;
  const order = sources.map((_, i) => i).sort((a, b) => weight(b) - weight(a));
  for (const [n, i] of order.entries()) {
    const escaped = substitution.escaped(i);
    const { tokens } = sources[i]!;
    // A code unit is at least one byte: a value over the limit by its length is not measured byte by byte.
    if (bytes + tokens * escaped.length > maxBytes) return { bytes: bytes + tokens * escaped.length, complete: false };
    bytes += tokens * utf8Bytes(escaped);
    if (bytes > maxBytes) return { bytes, complete: n === order.length - 1 };
  }
  return { bytes, complete: true };
}

const unitsOf = new WeakMap<CompiledOutput, number>();
const bytesOf = new WeakMap<CompiledOutput, number>();

function staticUnits(compiled: CompiledOutput): number {
  let units = unitsOf.get(compiled);
  if (units === undefined) {
    units = 0;
    for (const part of compiled.parts) units += part.length;
    unitsOf.set(compiled, units);
  }
  return units;
}

/** The static parts' UTF-8 size, measured once per compiled output. */
function staticBytes(compiled: CompiledOutput, utf8Bytes: Utf8Length): number {
  let bytes = bytesOf.get(compiled);
  if (bytes === undefined) {
    bytes = compiled.parts.reduce((sum, part) => sum + utf8Bytes(part), 0);
    bytesOf.set(compiled, bytes);
  }
  return bytes;
}
