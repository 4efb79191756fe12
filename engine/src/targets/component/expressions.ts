/**
 * The react-email source of a component (option `componentProps`) is the target's usual source with
 * its slot tokens and visibility markers turned into JSX expressions: a tag in element text becomes
 * `{mergeTag(…)}`, an attribute holding one becomes `attr={"…" + mergeTag(…) + "…"}`, one inside a
 * string of an expression (a style value) is concatenated into it, and a marker around a row, column
 * or block becomes a condition on `shown`. Values are never written into the source: a recipient's
 * data reaches the component only as props, as strings React escapes.
 */

import { Parser } from "htmlparser2";
import type { Slot } from "../../markup/emitter.js";
import { SLOT_TOKEN_PATTERN } from "../../markup/emitter.js";

/**
 * Visibility markers, written by the react-email target between elements (as JSX comments: nothing
 * a template holds can write `{` in element text, the emitter escapes it).
 */
export const guard = {
  /** Shown when the rule set of `slot` holds. */
  open: (slot: number): string => `{/*mr-if ${slot}*/}`,
  /** One of 2^n alternatives chosen by which of `slots` hold (bit i for slots[i]), in that order. */
  choose: (slots: readonly number[]): string => `{/*mr-choose ${slots.join(",")}*/}`,
  next: "{/*mr-or*/}",
  close: "{/*mr-end*/}",
};

const MARKER = /^\{\/\*mr-(if|choose|or|end) ?([\d,]*)\*\/\}$/;

/** `mergeTag(tags, position, group, name, fallback)` for a slot. */
function tagCall(slot: Slot): string {
  const { ref, position } = slot;
  return `mergeTag(tags, ${JSON.stringify(position)}, ${ref.group === undefined ? "null" : JSON.stringify(ref.group)}, ${JSON.stringify(ref.name)}, ${JSON.stringify(ref.fallback ?? "")})`;
}

/** JSX attribute strings decode entities (`&amp;`, `&#123;`) with their semicolon, as here. */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi, (entity) => {
    let decoded = entity;
    new Parser({ onattribute: (_, value) => (decoded = value) }, { decodeEntities: true }).end(`<a b="${entity}">`);
    return decoded;
  });
}

/** JSX text or a JSX string holding tokens as one string expression: `"…" + mergeTag(…) + "…"`. */
function concatenation(text: string, slots: readonly Slot[]): string {
  return splitTokens(text, slots, (part) => JSON.stringify(decodeEntities(part)), tagCall)
    .filter((piece) => piece !== '""')
    .join(" + ");
}

/** Source with its slot tokens replaced by `replace(slot)`, and the literal text between them passed through `literal`. */
function splitTokens(text: string, slots: readonly Slot[], literal: (part: string) => string, replace: (slot: Slot) => string): string[] {
  const pieces: string[] = [];
  let last = 0;
  for (const match of text.matchAll(SLOT_TOKEN_PATTERN)) {
    pieces.push(literal(text.slice(last, match.index)));
    pieces.push(replace(slots[Number(match[1])]!));
    last = match.index + match[0].length;
  }
  pieces.push(literal(text.slice(last)));
  return pieces;
}

const hasToken = (text: string): boolean => text.includes("\uE000");

/** The end of the JS expression opening at `start` (`{`): the index after its closing brace. */
function expressionEnd(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      for (i++; i < source.length && source[i] !== ch; i++) if (source[i] === "\\") i++;
    } else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i + 1;
  }
  throw new Error("Unclosed expression in react-email source");
}

/** An expression with tokens inside its string literals: each such string becomes a concatenation. */
function expressionWithTags(expression: string, slots: readonly Slot[]): string {
  if (!hasToken(expression)) return expression;
  return expression.replace(/"(?:[^"\\]|\\.)*"/g, (literal) =>
    hasToken(literal) ? `(${splitTokens(literal.slice(1, -1), slots, (part) => `"${part}"`, tagCall).join(" + ")})` : literal,
  );
}

/** An open marker: an `if` closes with `)}`, a `choose` counts its alternatives and closes with its mask. */
type OpenMarker = { readonly kind: "if" } | { readonly kind: "choose"; readonly mask: string; alternatives: number };

/**
 * The component's body: `source` (the target's JSX with slot tokens and markers) with every token
 * and marker turned into an expression. A small lexer for the JSX the target writes: element text,
 * tags with string and expression attributes, and expressions whose strings may hold tokens.
 */
export function withExpressions(source: string, slots: readonly Slot[]): string {
  let out = "";
  const open: OpenMarker[] = [];
  let i = 0;
  /** In `<title>`, whose children React wants as one string: a tag makes the whole text one expression. */
  let inTitle = false;
  const textUntil = (end: number) => {
    const text = source.slice(i, end);
    if (!hasToken(text)) out += text;
    else if (inTitle) out += `{${concatenation(text, slots)}}`;
    else
      out += splitTokens(
        text,
        slots,
        (part) => part,
        (slot) => `{${tagCall(slot)}}`,
      ).join("");
    i = end;
  };
  const nextElementOrExpression = /[<{]/g;
  while (i < source.length) {
    nextElementOrExpression.lastIndex = i;
    const next = nextElementOrExpression.exec(source);
    if (next === null) {
      textUntil(source.length);
      break;
    }
    textUntil(next.index);
    const isTag = source[i] === "<";
    const end = isTag ? tagEndOf(source, i) : expressionEnd(source, i);
    const piece = source.slice(i, end);
    i = end;
    const marker = isTag ? null : MARKER.exec(piece);
    if (isTag) inTitle = piece === "<title>";
    if (isTag) out += tagWithExpressions(piece, slots);
    else if (marker === null) out += expressionWithTags(piece, slots);
    else if (marker[1] === "if") {
      open.push({ kind: "if" });
      out += `{shown[${marker[2]}] && (<>`;
    } else if (marker[1] === "choose") {
      const mask = (marker[2] ?? "").split(",").map((slot, bit) => `(shown[${slot}] ? ${2 ** bit} : 0)`);
      open.push({ kind: "choose", mask: mask.join(" + "), alternatives: 0 });
      out += "{((choice: number) => choice === 0 ? (<>";
    } else {
      const current = open.at(-1);
      if (current === undefined) throw new Error("Unbalanced visibility marker in react-email source");
      if (marker[1] === "or" && current.kind === "choose") out += `</>) : choice === ${++current.alternatives} ? (<>`;
      else {
        open.pop();
        out += current.kind === "if" ? "</>)}" : `</>) : null)(${current.mask})}`;
      }
    }
  }
  return out;
}

/** The index after the `>` closing the tag that opens at `start`, skipping attribute strings and expressions. */
function tagEndOf(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '"') i = source.indexOf('"', i + 1);
    else if (ch === "{") i = expressionEnd(source, i) - 1;
    else if (ch === ">") return i + 1;
  }
  throw new Error("Unclosed tag in react-email source");
}

/**
 * HTML attributes the target writes that React's DOM types do not declare (a video's `background`
 * on its table, for Outlook): React writes them as they are, and a spread keeps the component typed.
 */
const UNTYPED_ATTRIBUTE = /^(<table\b.*?) (background)=$/s;

/**
 * A tag whose string attributes may hold tokens: each such attribute becomes an expression; an
 * untyped attribute (UNTYPED_ATTRIBUTE) becomes a spread.
 */
function tagWithExpressions(tag: string, slots: readonly Slot[]): string {
  if (!hasToken(tag) && !/^<table\b[^>]* background=/.test(tag)) return tag;
  let out = "";
  for (let i = 0; i < tag.length; i++) {
    const ch = tag[i]!;
    if (ch !== "{" && ch !== '"') {
      out += ch;
      continue;
    }
    let value: string;
    if (ch === "{") {
      const end = expressionEnd(tag, i);
      value = expressionWithTags(tag.slice(i, end), slots);
      i = end - 1;
    } else {
      const end = tag.indexOf('"', i + 1);
      const text = tag.slice(i + 1, end);
      value = hasToken(text) ? `{${concatenation(text, slots)}}` : `"${text}"`;
      i = end;
    }
    const untyped = UNTYPED_ATTRIBUTE.exec(out);
    if (untyped === null) out += value;
    else {
      const expression = value.startsWith("{") ? value.slice(1, -1) : JSON.stringify(decodeEntities(value.slice(1, -1)));
      out = `${untyped[1]} {...{ ${untyped[2]}: ${expression} }}`;
    }
  }
  return out;
}
