/**
 * VML for Outlook on Windows, whose Word engine draws neither CSS gradients nor rounded corners:
 * a gradient becomes a `v:rect` filled with a VML gradient behind the content. The callers wrap it in `<!--[if mso]>` comments, so
 * every other reader skips it. The `<html>` element declares the `v` and `o` namespaces (mjml
 * writes them).
 */
import { parseColor } from "../schema/color-values.js";
import type { LinearGradient } from "../schema/common.js";

/** A colour as VML reads it: `#rrggbb` (VML has no alpha; a translucent colour is drawn opaque). */
export function vmlColor(color: string): string {
  const rgba = parseColor(color);
  if (rgba === undefined) return color;
  return `#${[rgba.r, rgba.g, rgba.b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * VML's gradient angle from CSS's: CSS turns clockwise from "to top", VML counter-clockwise, and at
 * 0 both run from the first colour at the bottom to the last at the top (VML's `color` to `color2`).
 */
export function vmlAngle(cssDegrees: number): number {
  return Math.round((((360 - cssDegrees) % 360) + 360) % 360);
}

/** `<v:fill>` drawing a linear gradient from its first stop to its last (VML has two colours). */
export function gradientFill(g: LinearGradient): string {
  const angle = vmlAngle(g.angle);
  return `<v:fill type="gradient" color="${vmlColor(g.from)}" color2="${vmlColor(g.to)}"${angle === 0 ? "" : ` angle="${angle}"`}/>`;
}

/**
 * Opens a gradient drawn behind what follows, `width` px wide and as tall as its content (Outlook
 * fits the shape to the text box): close it with `GRADIENT_BOX_END`.
 */
export function gradientBoxStart(g: LinearGradient, width: number): string {
  return `<v:rect stroked="f" style="width:${width}px">${gradientFill(g)}<v:textbox inset="0,0,0,0" style="mso-fit-shape-to-text:true">`;
}

export const GRADIENT_BOX_END = "</v:textbox></v:rect>";
