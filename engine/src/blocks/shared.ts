/** Small helpers the block renderers share: attribute printing, spacing, typography. */

import { TextCache } from "../base/caches.js";
import { fontStack } from "../markup/fonts.js";
import { cssNumber, type Declarations, px, spacing, spacingSum } from "../markup/style.js";
import { defaultAttributesOf } from "../mjml-to-html/index.js";
import type { Direction, Spacing, Surface, TextAlign, Typography } from "../schema/common.js";
import { activeGradient, toMjmlColor } from "../schema/common.js";
import type { BlockRenderContext, PhoneProp } from "./block.js";

/** Escapes a template-authored (trusted) value for a double-quoted attribute. */
export function attrValue(value: string): string {
  // Most values hold none of the three: three `includes` cost QuickJS far less than one regex run.
  if (!value.includes("&") && !value.includes("<") && !value.includes('"')) return value;
  return value
    .replace(/&(?![a-zA-Z][a-zA-Z0-9]*;|#\d+;|#x[0-9a-fA-F]+;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/"/g, "&quot;");
}

type AttributeEntries = Record<string, string | number | undefined | false>;

/** No value left out. */
const NOTHING: Readonly<Record<string, unknown>> = {};

/**
 * ` name="value"` for each defined, non-empty entry, but for one equal to its name's value in
 * `unchanged`; values are trusted template data.
 */
export function attrs(entries: AttributeEntries, unchanged: Readonly<Record<string, unknown>> = NOTHING): string {
  // `for…in` over the literal's own keys (in its order), no array per entry as `Object.entries` builds.
  let out = "";
  for (const name in entries) out += attr(name, entries[name], unchanged);
  return out;
}

/**
 * One entry as `attrs` writes it. Where an element's attributes are written for every block
 * (mj-text's), a call per attribute costs QuickJS half of what an object literal enumerated by
 * `attrs` does (~1,700 instructions an attribute against ~3,600).
 */
export function attr(name: string, value: string | number | undefined | false, unchanged: Readonly<Record<string, unknown>> = NOTHING): string {
  if (value === undefined || value === false || value === "") return "";
  const text = typeof value === "string" ? value : String(value);
  return text === unchanged[name] ? "" : ` ${name}="${attrValue(text)}"`;
}

/**
 * `attr` for a value the engine makes itself — a length, a number, a keyword, its own class names —
 * or one its schema holds to a keyword, a number or a colour (hex, `rgb()`, a name), which holds
 * nothing to escape: no three `includes` for it (~2 K instructions in QuickJS, for most of the
 * attributes of every block, row and column).
 */
export function ownAttr(name: string, value: string | undefined, unchanged: Readonly<Record<string, unknown>>): string {
  // A template literal, not `+`: QuickJS makes it one call of `String.prototype.concat`, which
  // builds the attribute once, where each `+` makes a string (measured: ~170 instructions less a call).
  return value === undefined || value === "" || value === unchanged[name] ? "" : ` ${name}="${value}"`;
}

/** `mj-all`'s attributes in every MJML document we write: the font of a component that sets none (mjml's own default is Ubuntu first). */
export const MJML_ALL: Readonly<Record<string, string>> = { "font-family": "Arial, Helvetica, sans-serif" };

/** Values mjml has no default for that still reach the html, by tag and attribute. */
const NO_EFFECT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "mj-section": { "background-color": "transparent" },
  "mj-wrapper": { "background-color": "transparent" },
  // A column with a padding, even zero, gets a second table around its content.
  "mj-column": { "background-color": "transparent", padding: "0px" },
  // Nothing around a text block sets a weight: normal is what it inherits.
  "mj-text": { "font-weight": "normal" },
};

/** Each tag's values that change nothing, made on the tag's first use. */
const unchangedByTag = new Map<string, Readonly<Record<string, unknown>>>();

/**
 * The attributes of an MJML body element (`<mj-…`) that change something: ` name="value"` for each
 * entry as `attrs` writes it, but none equal to what mjml uses without it (the component's default,
 * under `MJML_ALL`) or listed in `NO_EFFECT`. mjml writes each such attribute into the html anyway,
 * so leaving it out at the start saves html bytes, and the mjml target's reader attention.
 */
export function mjmlAttrs(tag: string, entries: AttributeEntries): string {
  return attrs(entries, unchangedOf(tag));
}

/** The values of an MJML element's attributes that change nothing (`mjmlAttrs`), for `attr`. */
export function unchangedOf(tag: string): Readonly<Record<string, unknown>> {
  let unchanged = unchangedByTag.get(tag);
  if (unchanged === undefined) {
    unchanged = { ...defaultAttributesOf(tag), ...MJML_ALL, ...NO_EFFECT[tag] };
    unchangedByTag.set(tag, unchanged);
  }
  return unchanged;
}

/** ` alt="…"` of an mj-image or mj-social-element, its value escaped already; none when empty, mjml's default. */
export function mjmlAlt(escaped: string): string {
  return escaped === "" ? "" : ` alt="${escaped}"`;
}

/** Outer spacing of a block: margin outside, padding inside, added per side (no box to tell apart). */
export function addSpacing(a: Spacing, b: Spacing): Spacing {
  return { top: a.top + b.top, right: a.right + b.right, bottom: a.bottom + b.bottom, left: a.left + b.left };
}

/** A block's props, with a text direction of its own (unset or not a prop of the block: the email's). */
export interface Directed {
  readonly direction?: Direction | undefined;
  readonly [prop: string]: unknown;
}

/** The direction a block's text runs in: its own, else the email's. */
export function textDirection(block: Directed, ctx: BlockRenderContext): Direction {
  return block.direction ?? ctx.direction;
}

/**
 * The `dir` a block's element carries: its own direction where it differs from the email's (which
 * its element inherits), and `auto` always (each block then takes the direction of its own text).
 */
export function dirAttribute(block: Directed, ctx: BlockRenderContext): Direction | undefined {
  const direction = textDirection(block, ctx);
  return direction === "auto" || direction !== ctx.direction ? direction : undefined;
}

/**
 * An alignment as CSS says it: `start` and `end` as the side they are in the block's direction, so
 * that clients without logical values (Outlook) and mjml's `align` attributes read them; CSS's own
 * `start`/`end` only where the direction comes from the text (`auto`).
 */
export function sideOf(align: TextAlign, direction: Direction): string {
  if (align !== "start" && align !== "end") return align;
  if (direction === "auto") return align;
  return (align === "start") === (direction === "ltr") ? "left" : "right";
}

/** A text block's alignment for mjml's `align` attribute, which takes sides only: none where it is `start`/`end` in `auto` text (then on `directedMarkup`'s wrapper). */
export function mjmlAlign(t: Typography & Directed, ctx: BlockRenderContext): string | undefined {
  const side = sideOf(t.align, textDirection(t, ctx));
  return side === "start" || side === "end" ? undefined : side;
}

/**
 * Content markup inside an element of the block's direction, when it needs a `dir` of its own
 * (`dirAttribute`); in `auto` text with a logical alignment, the wrapper aligns it too (`mjmlAlign`).
 */
export function directedMarkup(markup: string, t: Typography & Directed, ctx: BlockRenderContext, tag = "div"): string {
  const dir = dirAttribute(t, ctx);
  if (dir === undefined) return markup;
  const side = sideOf(t.align, textDirection(t, ctx));
  return `<${tag}${attrs({ dir, style: side === "start" || side === "end" ? `text-align:${side}` : undefined })}>${markup}</${tag}>`;
}

/** Markup in an element of the given `dir` (none: as it is), for components that take no `dir` themselves (mj-button, mj-navbar-link). */
export function withDir(markup: string, dir: Direction | undefined, tag = "span"): string {
  return dir === undefined ? markup : `<${tag} dir="${dir}">${markup}</${tag}>`;
}

export function typographyDeclarations(t: Typography & Directed, ctx: BlockRenderContext): Declarations {
  ctx.fonts.add(t.fontFamily);
  const decls: Declarations = [
    ["font-family", fontStack(t.fontFamily)],
    ["font-size", px(t.fontSize)],
    ["line-height", cssNumber(t.lineHeight)],
    ["color", t.color],
    ["font-weight", t.fontWeight],
    ["text-align", sideOf(t.align, textDirection(t, ctx))],
  ];
  if (t.fontStyle !== "normal") decls.push(["font-style", t.fontStyle]);
  if (t.letterSpacing !== 0) decls.push(["letter-spacing", px(t.letterSpacing)]);
  if (t.textTransform !== "none") decls.push(["text-transform", t.textTransform]);
  if (t.textDecoration !== "none") decls.push(["text-decoration", t.textDecoration]);
  return decls;
}

/**
 * `cssText(typographyDeclarations(t, ctx))`, written as the text: no array per declaration to build
 * and join (QuickJS: ~20 K instructions a heading).
 */
export function typographyCss(t: Typography & Directed, ctx: BlockRenderContext): string {
  ctx.fonts.add(t.fontFamily);
  let css = `font-family:${fontStack(t.fontFamily)};font-size:${px(t.fontSize)};line-height:${cssNumber(t.lineHeight)};color:${t.color};font-weight:${t.fontWeight};text-align:${sideOf(t.align, textDirection(t, ctx))}`;
  if (t.fontStyle !== "normal") css += `;font-style:${t.fontStyle}`;
  if (t.letterSpacing !== 0) css += `;letter-spacing:${px(t.letterSpacing)}`;
  if (t.textTransform !== "none") css += `;text-transform:${t.textTransform}`;
  if (t.textDecoration !== "none") css += `;text-decoration:${t.textDecoration}`;
  return css;
}

/**
 * The same typography as `mj-text`-style attributes of `tag` (`mjmlAttrs`'s), an attribute at a time
 * (`attr`). `none`: whether `text-transform` and `text-decoration` are written when `none` (where
 * the tag's default is another).
 */
export function mjmlTypography(t: Typography, ctx: BlockRenderContext, tag: string, none: "omitted" | "written" = "omitted"): string {
  ctx.fonts.add(t.fontFamily);
  const unchanged = unchangedOf(tag);
  const all = none === "written";
  return (
    ownAttr("font-family", fontStackValue(t.fontFamily), unchanged) +
    ownAttr("font-size", px(t.fontSize), unchanged) +
    ownAttr("line-height", cssNumber(t.lineHeight), unchanged) +
    ownAttr("color", toMjmlColor(t.color), unchanged) +
    ownAttr("font-weight", t.fontWeight, unchanged) +
    // The usual values (none) without a call: a call each costs QuickJS ~1 K instructions.
    (t.fontStyle !== "normal" ? ownAttr("font-style", t.fontStyle, unchanged) : "") +
    (t.letterSpacing !== 0 ? ownAttr("letter-spacing", px(t.letterSpacing), unchanged) : "") +
    (all || t.textTransform !== "none" ? ownAttr("text-transform", t.textTransform, unchanged) : "") +
    (all || t.textDecoration !== "none" ? ownAttr("text-decoration", t.textDecoration, unchanged) : "")
  );
}

/** Font stacks escaped for an attribute, by the family as written: a template's blocks share a few (`attrValue`'s checks once each). */
const stackValues = new TextCache<string>(256, 16 * 1024);

export function fontStackValue(fontFamily: string): string {
  let value = stackValues.get(fontFamily);
  if (value === undefined) {
    value = attrValue(fontStack(fontFamily));
    stackValues.set(fontFamily, value);
  }
  return value;
}

/**
 * A text block's mj-text attributes: its typography, alignment, margin and padding as mjml's
 * padding, its container colour and its classes (`mjmlSurface`'s, or the block's own).
 */
export function mjmlTextAttributes(
  block: Typography & Directed & { readonly margin: Spacing; readonly padding: Spacing },
  ctx: BlockRenderContext,
  surface: { readonly containerColor: string | undefined; readonly className: string },
): string {
  const unchanged = unchangedOf("mj-text");
  return (
    mjmlTypography(block, ctx, "mj-text") +
    ownAttr("align", mjmlAlign(block, ctx), unchanged) +
    ownAttr("padding", spacingSum(block.margin, block.padding), unchanged) +
    ownAttr("container-background-color", surface.containerColor, unchanged) +
    ownAttr("css-class", surface.className, unchanged)
  );
}

export function paddingDeclaration(value: Spacing): Declarations {
  return value.top || value.right || value.bottom || value.left ? [["padding", spacing(value)]] : [];
}

/** A block's background as declarations: its colour unless transparent, and its gradient when on. */
export function surfaceDeclarations(s: Surface): Declarations {
  const decls: Declarations = [];
  const gradient = activeGradient(s.backgroundGradient);
  const color = gradient && s.backgroundColor === "transparent" ? s.backgroundGradient.fallback : s.backgroundColor;
  if (color && color !== "transparent") decls.push(["background-color", color]);
  if (gradient) decls.push(["background-image", s.backgroundGradient.css]);
  return decls;
}

/**
 * A block's background in MJML: the colour as the component's `container-background-color` where it
 * has one, everything else as head CSS on the block's own class. Returns that colour (none where the
 * component has no such attribute or the block no colour) and the classes.
 */
export function mjmlSurface(s: Surface, ctx: BlockRenderContext, hasContainerColor = true): { containerColor: string | undefined; className: string } {
  // Most blocks have neither (no declarations): no arrays made for them.
  if (s.backgroundColor === "transparent" && !activeGradient(s.backgroundGradient)) return { containerColor: undefined, className: ctx.className };
  const decls = surfaceDeclarations(s);
  if (decls.length === 0) return { containerColor: undefined, className: ctx.className };
  const color = decls.find(([prop]) => prop === "background-color")?.[1];
  const rest = hasContainerColor ? decls.filter(([prop]) => prop !== "background-color") : decls;
  if (rest.length > 0) ctx.headCss.push(`.${ctx.uid}{${rest.map(([prop, value]) => `${prop}:${value} !important`).join(";")}}`);
  return {
    containerColor: hasContainerColor && color ? toMjmlColor(color) : undefined,
    className: rest.length > 0 && !ctx.className.split(" ").includes(ctx.uid) ? [ctx.className, ctx.uid].filter(Boolean).join(" ") : ctx.className,
  };
}

/** A phone override of an icon's size (buttons, socials): the icons' width and height. */
export const ICON_SIZE_ON_PHONES: PhoneProp = {
  unit: "px",
  declarations: (value) => [
    ["& img", "width", value],
    ["& img", "height", value],
  ],
};

/** Text with nothing but white space (a merge tag counts as text). */
export const isBlank = (text: string): boolean => text.trim() === "";

/** Content HTML that shows nothing: no text (white space and `&nbsp;` aside) and no image. */
export function isBlankContent(html: string): boolean {
  return !/<img[\s>]/i.test(html) && isBlank(html.replace(/<[^>]*>/g, "").replace(/&nbsp;|&#160;|&#xa0;/gi, " "));
}

/** ` className="…"` for JSX, or nothing. */
export function jsxClass(className: string): string {
  return className ? ` className="${className}"` : "";
}

/** Two class names joined for a `class` attribute, an empty one left out: without the array of a rest parameter (for every row and column). */
export function classPair(first: string, second: string): string {
  return first === "" ? second : second === "" ? first : first + " " + second;
}

/** ` class="…"` for HTML, or nothing. */
export function htmlClass(className: string): string {
  return className ? ` class="${className}"` : "";
}
