/**
 * The inner markup of an Outlook conditional comment a component writes, given as its template text
 * around at most one value (`output.conditional(before, value, after)`), minified as mjml minifies
 * it (minifyInner) without running the minifier over each inner: the template text is minified once
 * per process, and the value put into it as it is, where the minifier would leave it as it is.
 */
/** A value in a component's markup: written as a template literal writes it. */
export type MarkupValue = string | number | boolean | null | undefined;

/** The inner markup of `conditional(before, value, after)`: `before` alone without `after`. */
export function innerMarkup(before: string, value: MarkupValue, after: string | undefined): string {
  return after === undefined ? before : `${before}${value}${after}`;
}

/** mjml-core's minifying of a conditional comment's inner markup. */
export function minifyInner(inner: string): string {
  return inner.replace(/(^|>)(\s+)(<|$)/gm, "$1$3").replace(/\s{2,}/gm, " ");
}

/**
 * How a value stands in its template (see shapeOf): empty, or its core with one space before it,
 * after it, around it or neither.
 */
const Shape = { Empty: 0, Core: 1, SpaceBefore: 2, SpaceAfter: 3, SpaceAround: 4 } as const;

/**
 * What stands for a value's core while a template is minified: a character of no template (a private
 * use one), which minifyInner's expressions treat as they treat any character but white space, `<`
 * and `>`.
 */
const CORE = "\uE000";
const SHAPE_TEXT = ["", CORE, ` ${CORE}`, `${CORE} `, ` ${CORE} `];

const SPACE = 0x20;

/**
 * A value minifyInner leaves as it is: a core of characters but white space, `<` and `>`, with single
 * spaces between them, and perhaps one space before and after it. Such a core takes part in no match
 * of either expression (a match of the first is white space after `>` or a line's start and before
 * `<` or a line's end; of the second, two white space characters), as CORE does; the spaces around
 * it are minified with the template.
 */
const INERT_VALUE = /^ ?[^\s<>]+(?: [^\s<>]+)* ?$/;

/** The Shape of a value, or -1 where minifyInner could change it or join it to a match. */
function shapeOf(value: string): number {
  if (value.length === 0) return Shape.Empty;
  if (!INERT_VALUE.test(value)) return -1;
  const spaceBefore = value.charCodeAt(0) === SPACE;
  if (value.charCodeAt(value.length - 1) === SPACE) return spaceBefore ? Shape.SpaceAround : Shape.SpaceAfter;
  return spaceBefore ? Shape.SpaceBefore : Shape.Core;
}

/** A value's core (its Shape is not Empty): the value without the spaces its Shape puts into the template. */
function coreOf(value: string): string {
  const start = value.charCodeAt(0) === SPACE ? 1 : 0;
  return value.charCodeAt(value.length - 1) === SPACE ? value.slice(start, -1) : start === 0 ? value : value.slice(1);
}

/**
 * The minified template text around a value, by `before`, `after` and the value's Shape: the text
 * minified with the Shape in the value's place, cut at CORE (null where the text holds CORE). Keyed by
 * the components' own template text, never a document's: as many entries as the components have
 * templates, times the Shapes their values take.
 */
const minifiedParts = new Map<string, Map<string, (readonly string[] | null | undefined)[]>>();

function partsOf(before: string, after: string, shape: number): readonly string[] | null {
  let byAfter = minifiedParts.get(before);
  if (byAfter === undefined) {
    byAfter = new Map();
    minifiedParts.set(before, byAfter);
  }
  let byShape = byAfter.get(after);
  if (byShape === undefined) {
    byShape = [];
    byAfter.set(after, byShape);
  }
  let parts = byShape[shape];
  if (parts === undefined) {
    const cut = minifyInner(`${before}${SHAPE_TEXT[shape]}${after}`).split(CORE);
    parts = cut.length === (shape === Shape.Empty ? 1 : 2) ? cut : null;
    byShape[shape] = parts;
  }
  return parts;
}

/**
 * minifyInner of `before` + `value` + `after`, or undefined where the value's characters could
 * change how the markup is minified (the caller minifies it then).
 */
export function minifiedTemplate(before: string, value: MarkupValue, after: string): string | undefined {
  const text = `${value}`;
  const shape = shapeOf(text);
  if (shape < 0) return undefined;
  const parts = partsOf(before, after, shape);
  if (parts === null) return undefined;
  return shape === Shape.Empty ? (parts[0] as string) : `${parts[0]}${coreOf(text)}${parts[1]}`;
}
