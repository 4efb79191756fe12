/**
 * The Outlook conditional comments components write, written already minified.
 *
 * mjml2html minifies every conditional comment of the body after rendering it
 * (minifyOutlookConditionnals: the whitespace between tags inside `<!--[if …]>`…`<![endif]-->`
 * removed, other runs made one space), which means a scan of the whole body. Here each comment a
 * component writes is minified when it is written, from its template minified once per call site,
 * so that the document pass scans only what may hold comment syntax of the template's own
 * (document.ts). The result is the same text:
 * - minifying is local to each run of whitespace: what becomes of a run depends only on its
 *   characters and on whether it follows `>` or a line start and precedes `<` or a line end. A
 *   comment's inner markup starts after the opening's `>` and ends before `<![endif]-->`, so its
 *   runs fare the same whether the inner is minified alone or where the document pass finds it,
 *   even when a comment opened earlier by the template's own markup swallows this one's opening;
 * - minifying minified markup changes nothing (test/mjml-conditional-comments.property.test.ts).
 */

import { contains } from "../base/literal-scan.js";

const WHITESPACE_BETWEEN_TAGS = /(^|>)(\s+)(<|$)/gm;
const WHITESPACE_RUN = /\s{2,}/gm;

/** mjml-core's minifyOutlookConditionnals for the inner markup of one conditional comment. */
export function minifyConditionalInner(inner: string): string {
  return inner.replace(WHITESPACE_BETWEEN_TAGS, "$1$3").replace(WHITESPACE_RUN, " ");
}

/**
 * Whether `text` may open or close a conditional comment, alone or beside other text: every way
 * of cutting `<!--[if` or `<![endif]-->` in two leaves one side holding `<!`, `[if`, `endif` or
 * `-->`. Looked for as literals (base/literal-scan.ts): an expression with alternatives is tried
 * at every character by QuickJS's, which made the release engine's compile slower.
 */
export function holdsCommentSyntax(text: string): boolean {
  return contains(text, "<!") || contains(text, "-->") || contains(text, "[if") || contains(text, "endif");
}

/**
 * A value that minifying treats as one ordinary character (or, with a leading space, as a space
 * and one): no `<`, `>`, line break or two whitespace characters in a row, and no whitespace at
 * its end. htmlAttributes' output is of this kind unless an attribute value is not.
 */
const PLAIN_VALUE = /^ ?[^\s<>]+(?: [^\s<>]+)*$/;
/** Stands for a plain value in a template minified once: a noncharacter, neither space nor `<>`. */
const VALUE_MARK = "\uFDD1";

/** How each value looks, in shapeOf's answer: base 3, the first value the most significant. */
const EMPTY = 0;
const PLAIN = 1;
const PLAIN_AFTER_SPACE = 2;
/** shapeOf's answer when a value is not plain: the inner markup is minified whole. */
const NOT_PLAIN = -1;
/** shapeOf's answer when a value holds comment syntax: the comment is written as mjml writes it. */
const AS_WRITTEN = -2;

/**
 * How a call site's values look (0 for a static template), or NOT_PLAIN, or AS_WRITTEN. A value
 * holding comment syntax leaves the comment to the document pass, which then scans the markup (its
 * node holds the same syntax: index.ts).
 */
function shapeOf(values: readonly unknown[]): number {
  let shape = 0;
  let plain = true;
  for (const value of values) {
    const text = String(value);
    let kind = EMPTY;
    if (text !== "") {
      if (holdsCommentSyntax(text)) return AS_WRITTEN;
      if (PLAIN_VALUE.test(text)) kind = text.charCodeAt(0) === 0x20 ? PLAIN_AFTER_SPACE : PLAIN;
      else plain = false;
    }
    shape = shape * 3 + kind;
  }
  return plain ? shape : NOT_PLAIN;
}

/** The kind of the `index`th of `count` values in `shape`. */
function kindAt(shape: number, index: number, count: number): number {
  return Math.floor(shape / 3 ** (count - 1 - index)) % 3;
}

/** How a comment is written around its template: mjml's helpers add whitespace inside and out. */
interface CommentLayout {
  /** Whitespace before the comment's opening. */
  readonly before: string;
  /** What minifyOutlookConditionnals reads as the opening (`<!--[if mso | IE]>`). */
  readonly opening: string;
  /** Inner markup before the template's (a negated comment's `<!-->`). */
  readonly prefix: string;
  /** Inner markup after the template's (a negated comment's `<!--`). */
  readonly suffix: string;
  /** `<![endif]-->`, which ends the inner markup for minifyOutlookConditionnals. */
  readonly closing: string;
  /** Whitespace after the comment. */
  readonly after: string;
}

export type CommentTag = (strings: TemplateStringsArray, ...values: unknown[]) => string;

/** A template tag writing a conditional comment of `layout` around the template, minified. */
function commentTag(layout: CommentLayout): CommentTag {
  const { before, opening, prefix, suffix, closing, after } = layout;
  /** Per call site and shape of values: the minified template, cut where the values go. */
  const templates = new Map<TemplateStringsArray, Map<number, readonly string[]>>();
  return (strings, ...values) => {
    const shape = shapeOf(values);
    if (shape === NOT_PLAIN || shape === AS_WRITTEN) {
      let inner = prefix + (strings[0] as string);
      for (let i = 0; i < values.length; i++) inner += String(values[i]) + (strings[i + 1] as string);
      inner += suffix;
      return before + opening + (shape === AS_WRITTEN ? inner : minifyConditionalInner(inner)) + closing + after;
    }
    let shapes = templates.get(strings);
    if (shapes === undefined) templates.set(strings, (shapes = new Map()));
    let cut = shapes.get(shape);
    if (cut === undefined) {
      let template = prefix + (strings[0] as string);
      for (let i = 0; i < values.length; i++) {
        const kind = kindAt(shape, i, values.length);
        template += (kind === EMPTY ? "" : kind === PLAIN_AFTER_SPACE ? ` ${VALUE_MARK}` : VALUE_MARK) + (strings[i + 1] as string);
      }
      const pieces = minifyConditionalInner(template + suffix).split(VALUE_MARK);
      pieces[0] = before + opening + (pieces[0] as string);
      pieces[pieces.length - 1] += closing + after;
      shapes.set(shape, (cut = pieces));
    }
    let output = cut[0] as string;
    let at = 1;
    for (let i = 0; i < values.length; i++) {
      const text = String(values[i]);
      if (text === "") continue;
      output += (text.charCodeAt(0) === 0x20 ? text.slice(1) : text) + (cut[at++] as string);
    }
    return output;
  };
}

const START = "<!--[if mso | IE]>";
const ENDIF = "<![endif]-->";

/** `<!--[if mso | IE]>`…`<![endif]-->`, as components write it inline in their markup. */
export const ifMsoOrIE: CommentTag = commentTag({ before: "", opening: START, prefix: "", suffix: "", closing: ENDIF, after: "" });

/** mjml-core's conditionalTag(content). */
export const conditionalTag: CommentTag = commentTag({
  before: "\n    ",
  opening: START,
  prefix: "\n    ",
  suffix: "\n    ",
  closing: ENDIF,
  after: "\n  ",
});

/** mjml-core's msoConditionalTag(content, true): `<!--[if !mso]><!-->`…`<!--<![endif]-->`. */
export const notMsoConditionalTag: CommentTag = commentTag({
  before: "\n    ",
  opening: "<!--[if !mso]>",
  prefix: "<!-->\n    ",
  suffix: "\n    <!--",
  closing: ENDIF,
  after: "\n  ",
});
