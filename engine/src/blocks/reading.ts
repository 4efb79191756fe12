/** Helpers the blocks' `reading` share (blocks/block.ts, `Reading`): typography, backgrounds and rich text as a reader meets them. */
import { ContentHtml, type ContentNode } from "../markup/content.js";
import { parseColor } from "../schema/color-values.js";
import { activeGradient, type Surface } from "../schema/common.js";
import type { Paint, Reading, TextLook } from "./block.js";

/** Weights that read as bold (WCAG's "large text" is 18.66 px when bold, 24 px otherwise). */
export function isBold(weight: string): boolean {
  const numeric = Number(weight);
  return weight === "bold" || weight === "bolder" || (Number.isFinite(numeric) && numeric >= 600);
}

/** The text of a block with typography props, drawn on its own background when it paints one. */
export function typographyText(p: { color: string; fontSize: number; fontWeight: string }, background?: Paint): TextLook {
  return { path: ["color"], sizePath: ["fontSize"], color: p.color, fontSize: p.fontSize, bold: isBold(p.fontWeight), ...(background ? { background } : {}) };
}

/** The colours of a gradient's stops, read from the CSS it draws. */
export function gradientStops(css: string): string[] {
  const stops: string[] = [];
  for (const match of css.matchAll(/#[0-9a-fA-F]{3,8}\b|rgba?\([^)]*\)|\b[a-zA-Z]+\b/g))
    if (!/^(?:to|left|right|top|bottom|center|circle|ellipse|at|deg|linear|radial|gradient)$/i.test(match[0]) && parseColor(match[0])) stops.push(match[0]);
  return stops;
}

/** What a block's own background paints (its colour, a gradient's stops over it), or undefined when it paints none. */
export function surfacePaint(s: Surface): Paint | undefined {
  const gradient = activeGradient(s.backgroundGradient);
  const stops = gradient ? gradientStops(s.backgroundGradient.css) : [];
  if (stops.length === 0 && (s.backgroundColor === "transparent" || parseColor(s.backgroundColor)?.a === 0)) return undefined;
  return { color: gradient && s.backgroundColor === "transparent" ? (s.backgroundGradient.fallback ?? "transparent") : s.backgroundColor, stops };
}

/** Headings, links and images of content HTML (a paragraph's, a heading's, a list's `content`). */
export function contentReading(html: string, path: readonly string[] = ["content"]): Required<Pick<Reading, "headings" | "urls" | "images">> {
  const reading = {
    headings: [] as { level: number; path: readonly string[] }[],
    urls: [] as { path: readonly string[]; url: string; kind: "link" | "image" }[],
    images: [] as { path: readonly string[]; alt: string | undefined }[],
  };
  const walk = (nodes: readonly ContentNode[]) => {
    for (const node of nodes) {
      if (node.kind !== "element") continue;
      const attr = (name: string) => node.attrs.find(([key]) => key === name)?.[1];
      const level = /^h([1-6])$/.exec(node.name)?.[1];
      if (level !== undefined) reading.headings.push({ level: Number(level), path });
      const href = node.name === "a" ? attr("href") : undefined;
      if (href !== undefined) reading.urls.push({ path, url: href, kind: "link" });
      if (node.name === "img") {
        reading.urls.push({ path, url: attr("src") ?? "", kind: "image" });
        reading.images.push({ path, alt: attr("alt") });
      }
      walk(node.children);
    }
  };
  // A reader of its own: the checks run outside any render, and need no cache.
  if (html !== "") walk(new ContentHtml().nodes(html));
  return reading;
}
