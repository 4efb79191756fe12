/**
 * Colours as the reader sees them in either colour scheme, for the browser suite: a fixture without
 * dark colours must look the same in both; a fixture with dark colours must show the colours its
 * template asks for in each scheme (the table below, written from each case.json), with readable
 * text (WCAG contrast) everywhere.
 */
import type { FixtureCase } from "../scripts/fixture-cases.js";
import type { Scheme, View } from "./engines/engine.js";

export function hasDarkColours(fixture: FixtureCase): boolean {
  return /"dark"\s*:/.test(JSON.stringify(fixture.template));
}

interface Paint {
  /** The text's colour, `#rrggbb`. */
  readonly color?: string;
  /** The opaque colour behind the text, `#rrggbb`. */
  readonly background?: string;
}

/** A text (its start, spaces ignored) and the colours it must have in each scheme. */
interface Marker {
  readonly text: string;
  readonly light: Paint;
  readonly dark: Paint;
}

/** Every render fixture with dark colours needs its entry (a missing one fails the suite). */
export const DARK_MARKERS: Readonly<Record<string, readonly Marker[]>> = {
  "dark-mode-colors": [
    { text: "Yourweeklydigest", light: { color: "#0f172a", background: "#ffffff" }, dark: { color: "#e2e8f0", background: "#0f172a" } },
    { text: "HelloAda", light: { color: "#334155", background: "#ffffff" }, dark: { color: "#e2e8f0", background: "#0f172a" } },
    { text: "releasenotes", light: { color: "#1d4ed8", background: "#ffffff" }, dark: { color: "#7dd3fc", background: "#0f172a" } },
    { text: "Fasterexports", light: { color: "#111111" }, dark: { color: "#e2e8f0", background: "#0f172a" } },
    { text: "Openthedashboard", light: { color: "#ffffff", background: "#1d4ed8" }, dark: { color: "#0b1220", background: "#93c5fd" } },
    { text: "Manageyoursubscription", light: { color: "#1d4ed8", background: "#ffffff" }, dark: { color: "#7dd3fc", background: "#0f172a" } },
    { text: "Ayellowbanner", light: { color: "#78350f", background: "#fef3c7" }, dark: { color: "#78350f", background: "#fef3c7" } },
    { text: "New:sharedfolders", light: { color: "#1e3a8a", background: "#dbeafe" }, dark: { color: "#bfdbfe", background: "#172554" } },
    { text: "Sharedfolderstake", light: { color: "#1e293b", background: "#dbeafe" }, dark: { color: "#e2e8f0", background: "#172554" } },
    { text: "Acardwithits", light: { color: "#0f172a", background: "#ffffff" }, dark: { color: "#f8fafc", background: "#0f172a" } },
    { text: "Docs", light: { color: "#1d4ed8", background: "#ffffff" }, dark: { color: "#fcd34d", background: "#0f172a" } },
    { text: "Agradientrow", light: { color: "#4c1d95" }, dark: { color: "#ede9fe", background: "#2e1065" } },
    { text: "Nestedleft", light: { color: "#111111", background: "#ffffff" }, dark: { color: "#e2e8f0", background: "#1f2937" } },
    { text: "alink", light: { color: "#1d4ed8", background: "#ffffff" }, dark: { color: "#7dd3fc", background: "#1f2937" } },
    { text: "Nestedright", light: { color: "#111111", background: "#f3f4f6" }, dark: { color: "#d1d5db", background: "#111827" } },
    { text: "Senttoyou", light: { color: "#6b7280", background: "#ffffff" }, dark: { color: "#e2e8f0", background: "#0f172a" } },
    { text: "Unsubscribe", light: { color: "#6b7280", background: "#ffffff" }, dark: { color: "#7dd3fc", background: "#0f172a" } },
    { text: "Bluesky", light: { color: "#000000", background: "#ffffff" }, dark: { color: "#7dd3fc", background: "#0f172a" } },
  ],
};

/** What the browser reports for one visible text. */
interface SeenText {
  readonly text: string;
  readonly color: string;
  /** The first opaque background colour behind it, and the stops of any gradient painted above that. */
  readonly backgrounds: string[];
  /** A background image (not a gradient) is behind it: its contrast cannot be computed. */
  readonly overImage: boolean;
  readonly fontSize: number;
  readonly fontWeight: number;
}

function seenTexts(view: View): Promise<SeenText[]> {
  return view.evaluate(() => {
    const squeeze = (s: string) => s.replace(/[\u034f\u200a-\u200f\u2028\u2029\ufeff\u00ad]/g, "").replace(/\s+/g, "");
    const opaque = (color: string) => !/^rgba\(.*,\s*0\)$/.test(color) && color !== "transparent";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen: SeenText[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = squeeze(node.textContent ?? "");
      if (!parent || text === "" || !parent.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || parent.getClientRects().length === 0)
        continue;
      const style = getComputedStyle(parent);
      const backgrounds: string[] = [];
      let overImage = false;
      for (let element: Element | null = parent; element; element = element.parentElement) {
        const box = getComputedStyle(element);
        if (box.backgroundImage.includes("url(")) overImage = true;
        if (box.backgroundImage.includes("gradient")) backgrounds.push(...(box.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []));
        if (opaque(box.backgroundColor)) {
          backgrounds.push(box.backgroundColor);
          break;
        }
      }
      seen.push({ text, color: style.color, backgrounds, overImage, fontSize: parseFloat(style.fontSize), fontWeight: Number(style.fontWeight) || 400 });
    }
    return seen;
  });
}

function channels(color: string): [number, number, number] {
  if (color.startsWith("#")) return [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number];
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b];
}

const sameColour = (a: string, b: string) => channels(a).join() === channels(b).join();

/** WCAG 2 contrast ratio of two opaque colours. */
export function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = channels(color).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** What the colour checks read in one view: each text's colours where the template has dark colours, every element's colours elsewhere. */
export type SchemeReading = { readonly texts: SeenText[] } | { readonly elements: string[] };

export async function readScheme(view: View, fixture: FixtureCase): Promise<SchemeReading> {
  return hasDarkColours(fixture) ? { texts: await seenTexts(view) } : { elements: await elementColours(view) };
}

/** The colour problems of a page read in a light and in a dark view, each list with what it checks. */
export function colourProblems(fixture: string, light: SchemeReading, dark: SchemeReading): Array<[check: string, problems: string[]]> {
  if ("texts" in light && "texts" in dark)
    return [
      ["light scheme", darkModeProblems(light.texts, fixture, "light")],
      ["dark scheme", darkModeProblems(dark.texts, fixture, "dark")],
    ];
  if ("elements" in light && "elements" in dark)
    return [["colours that change in the dark scheme (the template has no dark colours)", schemeDifferences(light.elements, dark.elements)]];
  throw new Error("light and dark readings of different kinds");
}

function elementColours(view: View): Promise<string[]> {
  return view.evaluate(() =>
    [...document.body.querySelectorAll("*")].map((element) => {
      const style = getComputedStyle(element);
      return `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 20)}": ${style.color} on ${style.backgroundColor}, border ${style.borderTopColor}`;
    }),
  );
}

/** What differs between the two schemes in a page whose template has no dark colours (nothing may). */
function schemeDifferences(light: string[], dark: string[]): string[] {
  return dark.filter((entry, index) => entry !== light[index]).map((entry) => `dark: ${entry}`);
}

/** Marker colours other than the template's, and text below WCAG contrast, in one scheme. */
function darkModeProblems(texts: SeenText[], fixture: string, scheme: Scheme): string[] {
  const markers = DARK_MARKERS[fixture];
  if (!markers) return [`${fixture} has dark colours: add the colours its texts must show to DARK_MARKERS`];
  const problems: string[] = [];
  for (const marker of markers) {
    const seen = texts.find((t) => t.text.startsWith(marker.text));
    const want = marker[scheme];
    if (!seen) {
      problems.push(`${scheme}: "${marker.text}" not found`);
      continue;
    }
    if (want.color && !sameColour(seen.color, want.color)) problems.push(`${scheme}: "${marker.text}" is ${seen.color}, expected ${want.color}`);
    const background = seen.backgrounds.at(-1);
    if (want.background && !(background && sameColour(background, want.background)))
      problems.push(`${scheme}: "${marker.text}" is on ${background}, expected ${want.background}`);
  }
  for (const seen of texts) {
    if (seen.overImage) continue;
    // WCAG AA: 4.5 for body text, 3 for large text (24 px, or 18.66 px bold).
    const minimum = seen.fontSize >= 24 || (seen.fontSize >= 18.66 && seen.fontWeight >= 700) ? 3 : 4.5;
    for (const background of seen.backgrounds) {
      const ratio = contrast(seen.color, background);
      if (ratio < minimum) problems.push(`${scheme}: "${seen.text.slice(0, 24)}" ${seen.color} on ${background}: contrast ${ratio.toFixed(2)} < ${minimum}`);
    }
  }
  return problems;
}
