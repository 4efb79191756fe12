/**
 * What is behind each block, in the light scheme and, where the template sets dark colours, in the
 * dark one: the colours its text can stand on (a box's colour, each stop of a gradient over it),
 * composed down from the page through rows and columns, or unknown over a background image. The
 * dark scheme follows the rules the targets paint it by (targets/dark.ts): a box takes its own
 * dark colour; painted in the content's light colour it takes the content's dark one; transparent,
 * what surrounds it; otherwise it keeps its light colour, and so does the text on it.
 */
import type { BlockDefinition } from "../../blocks/block.js";
import { gradientStops } from "../../blocks/reading.js";
import { over, parseColor, type Rgba } from "../../schema/color-values.js";
import { activeGradient, type Gradient } from "../../schema/common.js";
import { type DarkColors, sameColor } from "../../schema/dark.js";
import type { Canvas } from "../schema.js";

/** A colour text may stand on; `note` says when it is only sometimes there (a gradient's stop, the colour under it). */
export interface Shade {
  readonly color: Rgba;
  readonly note?: string;
}

/** The opaque colours text may stand on, or undefined when an image is behind it. */
export type Colors = readonly Shade[] | undefined;

export interface Backdrop {
  readonly light: Colors;
  readonly dark: Colors;
  /** Whether the canvas's dark text colours apply here (targets/dark.ts, `themed`). */
  readonly themed: boolean;
}

/** A box's background as the targets paint it. */
export interface BoxPaint {
  readonly color: string;
  readonly gradient?: Gradient | undefined;
  readonly image?: string | undefined;
  readonly dark?: DarkColors | undefined;
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

const key = (c: Rgba) => `${Math.round(c.r)},${Math.round(c.g)},${Math.round(c.b)}`;

function unique(shades: readonly Shade[]): Shade[] {
  const seen = new Map<string, Shade>();
  for (const shade of shades) if (!seen.has(key(shade.color))) seen.set(key(shade.color), shade);
  return [...seen.values()];
}

/** A paint and, when it is only sometimes there, why. */
export type Layer = string | { readonly color: string; readonly note?: string | undefined };

export const UNDER_GRADIENT = "the colour Outlook on Windows shows instead of the gradient";
export const GRADIENT_STOP = "a stop of the gradient";
export const UNDER_DARK_GRADIENT = "the colour under the dark gradient, where it is not drawn";

/** `paints` laid over `below`: an opaque paint hides it, a translucent one is mixed with each colour of it. */
export function layer(below: Colors, paints: readonly Layer[]): Colors {
  const parsed = paints.flatMap((paint) => {
    const { color, note } = typeof paint === "string" ? { color: paint, note: undefined } : paint;
    const rgba = parseColor(color);
    return rgba === undefined || rgba.a === 0 ? [] : [{ rgba, note }];
  });
  if (parsed.length === 0) return below;
  const out: Shade[] = [];
  for (const { rgba, note } of parsed) {
    const noted = (color: Rgba, inherited?: string): Shade => {
      const why = note ?? inherited;
      return why === undefined ? { color } : { color, note: why };
    };
    if (rgba.a >= 1) out.push(noted(rgba));
    else if (below === undefined) return undefined;
    else out.push(...below.map((b) => noted(over(rgba, b.color), b.note)));
  }
  return unique(out);
}

/** What a box paints in the light scheme: its colour and its gradient's stops (the colour shows where gradients do not), or an image. */
function lightPaint(below: Colors, box: BoxPaint): Colors {
  if (box.image) return undefined;
  if (!activeGradient(box.gradient)) return layer(below, [box.color]);
  const color = box.color === "transparent" ? (box.gradient.fallback ?? "transparent") : box.color;
  return layer(below, [{ color, note: UNDER_GRADIENT }, ...gradientStops(box.gradient.css).map((stop) => ({ color: stop, note: GRADIENT_STOP }))]);
}

/**
 * What a node's own dark background paints (targets/dark.ts): its dark colour, or its dark gradient's
 * stops over the colour under it; undefined when it has neither.
 */
export function ownDarkPaint(dark: DarkColors | undefined): Layer[] | undefined {
  const gradient = activeGradient(dark?.backgroundGradient) ? dark.backgroundGradient : undefined;
  const color = dark?.backgroundColor;
  if (gradient === undefined) return color ? [color] : undefined;
  const under = color ?? gradient.fallback;
  return [
    ...(under === undefined ? [] : [{ color: under, note: UNDER_DARK_GRADIENT }]),
    ...gradientStops(gradient.css).map((stop) => ({ color: stop, note: GRADIENT_STOP })),
  ];
}

export class Backdrops {
  readonly canvasDark: DarkColors | undefined;

  constructor(private readonly canvas: Canvas) {
    this.canvasDark = canvas.dark;
  }

  /** The content area: the content colour over the page's. */
  content(): Backdrop {
    const page = layer([{ color: WHITE }], [this.canvas.bodyBackgroundColor]);
    const light = layer(page, [this.canvas.backgroundColor]);
    const darkContent = this.canvasDark?.backgroundColor;
    const darkPage = layer(page, [this.canvasDark?.bodyBackgroundColor ?? this.canvas.bodyBackgroundColor]);
    return {
      light,
      dark: darkContent === undefined ? layer(darkPage, [this.canvas.backgroundColor]) : layer(darkPage, [darkContent]),
      themed: darkContent !== undefined,
    };
  }

  /** A row, column or block surface inside `outer`. */
  box(outer: Backdrop, box: BoxPaint): Backdrop {
    const light = lightPaint(outer.light, box);
    const covered = activeGradient(box.gradient) || Boolean(box.image);
    const ownDark = ownDarkPaint(box.dark);
    if (ownDark) return { light, dark: box.image ? undefined : layer(outer.dark, ownDark), themed: true };
    if (covered) return { light, dark: lightPaint(outer.dark, box), themed: false };
    if (box.color === "transparent" || parseColor(box.color)?.a === 0) return { light, dark: outer.dark, themed: outer.themed };
    if (outer.themed && sameColor(box.color, this.canvas.backgroundColor)) {
      return { light, dark: layer(outer.dark, [this.canvasDark?.backgroundColor ?? box.color]), themed: true };
    }
    return { light, dark: layer(outer.dark, [box.color]), themed: false };
  }

  /**
   * Behind a block's text and the colour it is drawn in, in the dark scheme: its own dark colours,
   * else the canvas's where they apply (its dark roles say which canvas colour its text takes). A
   * block with colours of its own (a button) paints its own background (its reading says which).
   */
  block(outer: Backdrop, definition: BlockDefinition<unknown>, props: BlockSurface, textColor: string): { backdrop: Backdrop; darkText: string } {
    const roles = definition.dark;
    const own = props.dark;
    if (roles.ownColors) return { backdrop: { ...outer, themed: false }, darkText: own?.color ?? textColor };
    const backdrop =
      props.backgroundColor === undefined ? outer : this.box(outer, { color: props.backgroundColor, gradient: props.backgroundGradient, dark: own });
    const canvasText = backdrop.themed && roles.canvasText !== undefined ? this.canvasDark?.[roles.canvasText] : undefined;
    return { backdrop, darkText: own?.color ?? canvasText ?? textColor };
  }
}

/** The props dark mode reads on any block (targets/dark.ts reads the same). */
export interface BlockSurface {
  readonly dark?: DarkColors | undefined;
  readonly backgroundColor?: string;
  readonly backgroundGradient?: Gradient;
}
