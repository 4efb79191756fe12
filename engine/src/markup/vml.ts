/**
 * VML for Outlook on Windows, whose Word engine draws neither CSS gradients nor rounded corners:
 * a gradient becomes a `v:rect` filled with a VML gradient behind the content, a rounded button a
 * `v:roundrect` (the "bulletproof button"). The callers wrap it in `<!--[if mso]>` comments, so
 * every other reader skips it. The `<html>` element declares the `v` and `o` namespaces (mjml
 * writes them); `w`, for the button's `w:anchorlock`, is declared where it is used.
 */
import { TextCache } from "../base/caches.js";
import { parseColor } from "../schema/color-values.js";
import type { LinearGradient } from "../schema/common.js";

/** Colours as VML writes them, by their CSS: a template's buttons share a few (a callback, array and join each in QuickJS). */
const vmlColors = new TextCache<string>(256, 16 * 1024);

/** A colour as VML reads it: `#rrggbb` (VML has no alpha; a translucent colour is drawn opaque). */
function vmlColor(color: string): string {
  let vml = vmlColors.get(color);
  if (vml === undefined) {
    const rgba = parseColor(color);
    vml = rgba === undefined ? color : `#${[rgba.r, rgba.g, rgba.b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
    vmlColors.set(color, vml);
  }
  return vml;
}

/**
 * VML's gradient angle from CSS's: CSS turns clockwise from "to top", VML counter-clockwise, and at
 * 0 both run from the first colour at the bottom to the last at the top (VML's `color` to `color2`).
 */
function vmlAngle(cssDegrees: number): number {
  return Math.round((((360 - cssDegrees) % 360) + 360) % 360);
}

/** `<v:fill>` drawing a linear gradient from its first stop to its last (VML has two colours). */
function gradientFill(g: LinearGradient): string {
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

export interface RoundRect {
  /** The ` href="…"` attribute, its value already emitted, or "" for none. */
  readonly href: string;
  readonly width: number;
  readonly height: number;
  readonly radius: number;
  /** The solid colour, or a gradient over it. */
  readonly fill: string;
  readonly gradient: LinearGradient | undefined;
  readonly border: { readonly width: number; readonly color: string } | undefined;
  /** The `<center>`'s style (the label's font and colour) and content (the label, already emitted). */
  readonly style: string;
  readonly label: string;
}

/**
 * A rounded button as Outlook draws it: a link shaped as a rounded rectangle of a fixed size, the
 * label centred in it (`w:anchorlock` keeps Word from letting the reader edit or move it).
 */
export function roundRect(b: RoundRect): string {
  // VML's arc size is a fraction of the shorter side; CSS clamps a radius to half of it.
  const arc = Math.min(50, Math.round((b.radius / Math.max(1, Math.min(b.width, b.height))) * 100));
  const stroke = b.border ? ` strokecolor="${vmlColor(b.border.color)}" strokeweight="${b.border.width}px"` : ` stroked="f"`;
  const fill = b.gradient ? "" : ` fillcolor="${vmlColor(b.fill)}"`;
  return (
    `<v:roundrect xmlns:w="urn:schemas-microsoft-com:office:word"${b.href} style="height:${b.height}px;v-text-anchor:middle;width:${b.width}px" arcsize="${arc}%"${stroke}${fill}>` +
    `${b.gradient ? gradientFill(b.gradient) : ""}<w:anchorlock/><center style="${b.style}">${b.label}</center></v:roundrect>`
  );
}
