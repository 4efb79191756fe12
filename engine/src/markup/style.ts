/**
 * Style declarations are built once as data and printed per target: a CSS string for HTML/MJML
 * attributes, an object literal for JSX. One source keeps the targets visually identical.
 */
import type { Spacing } from "../schema/common.js";

export type Declarations = Array<readonly [property: string, value: string]>;

/** `font-size:16px;color:#111` — values are template-authored, escaped for the attribute by callers. */
export function cssText(decls: Declarations): string {
  // An index loop, no callback or array pattern per declaration (each a cost in QuickJS).
  let text = "";
  for (let i = 0; i < decls.length; i++) {
    const decl = decls[i]!;
    text += i === 0 ? `${decl[0]}:${decl[1]}` : `;${decl[0]}:${decl[1]}`;
  }
  return text;
}

function camelCase(prop: string): string {
  if (prop.startsWith("mso-")) return prop; // React keeps unknown vendor props verbatim
  return prop.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());
}

/** `{ fontSize: "16px", color: "#111" }` as TSX source. */
export function jsxStyle(decls: Declarations): string {
  if (decls.length === 0) return "{}";
  const body = decls.map(([prop, value]) => `${JSON.stringify(camelCase(prop)).replace(/^"([A-Za-z]\w*)"$/, "$1")}: ${JSON.stringify(value)}`);
  return `{ ${body.join(", ")} }`;
}

export function px(value: number): string {
  // Nearly every px value is a whole number, which `round` would give back: no call for it.
  return (value | 0) === value ? value + "px" : round(value) + "px";
}

/** A unitless CSS number in decimal notation (JavaScript writes 1e-7 for a tiny one, which CSS and mjml refuse). */
export function cssNumber(value: number): string {
  // `round(value, 4)` with its factor written, and `""+` rather than `String` (a C call in QuickJS): for every text block.
  return "" + Math.round(value * 10000) / 10000;
}

export function round(value: number, digits = 2): number {
  // Every px value comes here: the usual factor without a power computed each time.
  const factor = digits === 2 ? 100 : 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The shortest CSS shorthand: `10px 0px 10px 0px` → `10px 0px`, `0px 0px 0px 0px` → `0px`, `1px 2px 3px 2px` → `1px 2px 3px`. */
export function spacing(value: Spacing): string {
  return sides(value.top, value.right, value.bottom, value.left);
}

/** `spacing` of two boxes added per side (a block's margin and padding), without an object for the sum (QuickJS: every block). */
export function spacingSum(a: Spacing, b: Spacing): string {
  return sides(a.top + b.top, a.right + b.right, a.bottom + b.bottom, a.left + b.left);
}

function sides(top: number, right: number, bottom: number, left: number): string {
  // One length for all four first (most boxes): one `px` call.
  if (left === right && bottom === top && right === top) return px(top);
  const topPx = px(top);
  const rightPx = px(right);
  if (left !== right) return `${topPx} ${rightPx} ${px(bottom)} ${px(left)}`;
  if (bottom !== top) return `${topPx} ${rightPx} ${px(bottom)}`;
  return right === top ? topPx : `${topPx} ${rightPx}`;
}

/** Parses an inline `style` attribute into declarations (for converting content HTML to JSX). */
export function parseCssText(style: string): Declarations {
  const decls: Declarations = [];
  for (const part of style.split(";")) {
    const colon = part.indexOf(":");
    if (colon <= 0) continue;
    const prop = part.slice(0, colon).trim().toLowerCase();
    const value = part.slice(colon + 1).trim();
    if (prop && value) decls.push([prop, value]);
  }
  return decls;
}
