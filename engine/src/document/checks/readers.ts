/**
 * The checks for every reader, from what each block says a reader meets in it (its `reading`,
 * blocks/block.ts): text too small, text without enough contrast on what is behind it (WCAG AA, in
 * the light scheme and, where dark colours are set, the dark one; against each stop of a gradient),
 * heading levels that skip, images in content HTML without alt text, a template that does not say
 * its language; and the addresses links and images use: `http://` and links that go nowhere (`#`).
 */
import type { Reading, TextLook } from "../../blocks/block.js";
import { contrastRatio, luminance, luminanceRatio, over, parseColor, type Rgba } from "../../schema/color-values.js";
import { activeGradient } from "../../schema/common.js";
import type { DarkColors } from "../../schema/dark.js";
import type { ColumnChild, ComponentNode, RowLike, Template } from "../model.js";
import {
  type Backdrop,
  Backdrops,
  type BlockSurface,
  type Colors,
  GRADIENT_STOP,
  layer,
  ownDarkPaint,
  type Shade,
  UNDER_DARK_GRADIENT,
  UNDER_GRADIENT,
} from "./backdrop.js";
import { type Finding, finding, valueAt } from "./finding.js";

/** Below this, text is hard to read for many (WCAG has no minimum; 12 px is the common floor in email). */
export const MIN_FONT_SIZE = 12;
/** WCAG 2 AA: 4.5:1, and 3:1 for large text (24 px, or 18.66 px bold). */
const AA = 4.5;
const AA_LARGE = 3;

const isLarge = (look: TextLook) => look.fontSize >= 24 || (look.bold && look.fontSize >= 18.66);
const hex = (c: Rgba) => `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

/** The lowest contrast of `text` on any of `colors`, with that colour. */
function worstContrast(text: Rgba, colors: Colors): { ratio: number; background: Shade; text: Rgba } | undefined {
  if (colors === undefined || text.a === 0) return undefined;
  let worst: { ratio: number; background: Shade; text: Rgba } | undefined;
  for (const background of colors) {
    const drawn = over(text, background.color);
    const ratio = contrastRatio(drawn, background.color);
    if (worst === undefined || ratio < worst.ratio) worst = { ratio, background, text: drawn };
  }
  return worst;
}

/** The nearest colour to `start`, moved towards black or white in fiftieths, that reaches `needed` against every one of `against`. */
function nearestPassing(start: Rgba, against: readonly Rgba[], needed: number): Rgba | undefined {
  const others = against.map((c) => luminance(c.r, c.g, c.b));
  let best: { color: Rgba; step: number } | undefined;
  for (const to of [0, 255]) {
    for (let step = 1; step <= 50 && (best === undefined || step < best.step); step++) {
      const share = step / 50;
      const r = start.r + (to - start.r) * share;
      const g = start.g + (to - start.g) * share;
      const b = start.b + (to - start.b) * share;
      const own = luminance(r, g, b);
      if (others.every((other) => luminanceRatio(own, other) >= needed)) {
        best = { color: { r, g, b, a: 1 }, step };
        break;
      }
    }
  }
  return best?.color;
}

function contrastFinding(look: TextLook, color: string, colors: Colors, path: readonly string[], scheme: "light" | "dark"): Finding | undefined {
  const text = parseColor(color);
  const worst = text === undefined ? undefined : worstContrast(text, colors);
  const needed = isLarge(look) ? AA_LARGE : AA;
  if (worst === undefined || worst.ratio >= needed) return undefined;
  const ratio = `${Math.floor(worst.ratio * 100) / 100}:1`;
  const pair = `${hex(worst.text)} on ${hex(worst.background.color)}`;
  const where = scheme === "dark" ? " in dark mode" : "";
  const note = worst.background.note === undefined ? "" : `, ${worst.background.note}`;
  // A block that paints its own background (a button): its background is the one to change.
  const suggestion =
    look.background !== undefined && colors?.length === 1
      ? nearestPassing(worst.background.color, [worst.text], needed)
      : nearestPassing(
          worst.text,
          (colors ?? []).map((c) => c.color),
          needed,
        );
  if (worst.background.note === UNDER_GRADIENT || worst.background.note === UNDER_DARK_GRADIENT) {
    // The gradient reads; the colour under it, which clients without gradients show, does not.
    const stop = (colors ?? []).filter((c) => c.note === GRADIENT_STOP).find((c) => contrastRatio(worst.text, c.color) >= needed);
    return finding(
      "warning",
      scheme === "dark" ? "LOW_CONTRAST_DARK" : "LOW_CONTRAST",
      path,
      pair,
      `The text${where} (${pair}${note}) has a contrast of ${ratio}, below the ${needed}:1 WCAG AA asks for ${isLarge(look) ? "large" : "body"} text: unreadable there`,
      `Set the background colour under the gradient to one the text reads on${stop ? `, e.g. ${hex(stop.color)} from the gradient` : ""}`,
    );
  }
  const change =
    suggestion === undefined
      ? "No one text colour reads on all of it: make the background more even"
      : look.background !== undefined && colors?.length === 1
        ? `A background of ${hex(suggestion)} would reach ${needed}:1`
        : `Text in ${hex(suggestion)} would reach ${needed}:1`;
  return finding(
    "warning",
    scheme === "dark" ? "LOW_CONTRAST_DARK" : "LOW_CONTRAST",
    path,
    pair,
    `The text${where} (${pair}${note}) has a contrast of ${ratio}, below the ${needed}:1 WCAG AA asks for ${isLarge(look) ? "large" : "body"} text: hard to read for many readers`,
    scheme === "dark" ? `${change} (set it in dark.color, or a dark background)` : change,
  );
}

/** A phone override of a size, in px, if it sets one. */
function phoneSize(props: Record<string, unknown>, sizePath: readonly string[]): number | undefined {
  const value = valueAt(props["mobile"], sizePath);
  const size = typeof value === "number" ? value : typeof value === "string" ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(size) && (typeof value === "number" || /px$/.test(String(value).trim())) ? size : undefined;
}

function textFindings(node: ComponentNode, reading: Reading, outer: Backdrop, backdrops: Backdrops, darkMode: boolean, out: Finding[]): void {
  const props = node.props as BlockSurface & Record<string, unknown>;
  const at = (path: readonly string[]) => [...node.path, "props", ...path];
  for (const look of reading.text ?? []) {
    if (look.fontSize > 0 && look.fontSize < MIN_FONT_SIZE)
      out.push(
        finding(
          "warning",
          "TEXT_TOO_SMALL",
          at(look.sizePath),
          look.fontSize,
          `The text is ${look.fontSize} px: below ${MIN_FONT_SIZE} px it is hard to read, and iOS Mail enlarges it on its own`,
          `Make it at least ${MIN_FONT_SIZE} px`,
        ),
      );
    const phone = phoneSize(props, look.sizePath);
    if (phone !== undefined && phone > 0 && phone < MIN_FONT_SIZE)
      out.push(
        finding(
          "warning",
          "TEXT_TOO_SMALL",
          at(["mobile", ...look.sizePath]),
          phone,
          `On phones the text is ${phone} px: below ${MIN_FONT_SIZE} px it is hard to read`,
          `Make the phone size at least ${MIN_FONT_SIZE} px`,
        ),
      );
    const { backdrop, darkText } = backdrops.block(outer, node.definition, props, look.color);
    const light = look.background ? backdropOf(outer.light, look.background) : backdrop.light;
    const lightFinding = contrastFinding(look, look.color, light, at(look.path), "light");
    if (lightFinding) out.push(lightFinding);
    if (darkMode) {
      // Colours of its own (a button): its dark background if it has one, else its light painting.
      const ownDark = ownDarkPaint(props.dark);
      const dark =
        node.definition.dark.ownColors && look.background ? (ownDark ? layer(outer.dark, ownDark) : backdropOf(outer.dark, look.background)) : backdrop.dark;
      const darkFinding = contrastFinding(look, darkText, dark, at(look.path), "dark");
      if (darkFinding) out.push(darkFinding);
    }
  }
}

/** A block's own paint under its text (a button's colour, and its gradient's stops over it). */
function backdropOf(below: Colors, paint: NonNullable<TextLook["background"]>): Colors {
  const gradient = paint.stops.length > 0;
  return layer(below, [
    { color: paint.color, note: gradient ? UNDER_GRADIENT : undefined },
    ...paint.stops.map((stop) => ({ color: stop, note: GRADIENT_STOP })),
  ]);
}

function urlFindings(node: ComponentNode, reading: Reading, out: Finding[]): void {
  for (const use of reading.urls ?? []) {
    const path = [...node.path, "props", ...use.path];
    const url = use.url.trim();
    if (use.kind === "link" && (url.startsWith("#") || (url === "" && use.path[0] === "content"))) {
      out.push(
        finding(
          "error",
          "LINK_PLACEHOLDER",
          path,
          use.url,
          url === "" ? "A link in the text has no address: it goes nowhere" : `The link goes to "${url}", a placeholder: in an email it goes nowhere`,
          "Give it the address it should open",
        ),
      );
    } else if (/^http:\/\//i.test(url)) {
      out.push(
        use.kind === "image"
          ? finding(
              "warning",
              "INSECURE_URL",
              path,
              use.url,
              "The image loads over http://: webmail shows it only through a proxy or after a click, and some clients block it",
              "Serve it over https://",
            )
          : finding(
              "warning",
              "INSECURE_URL",
              path,
              use.url,
              "The link opens an http:// page: browsers mark it as not secure, and some mail clients warn before opening it",
              "Link to the https:// address",
            ),
      );
    }
  }
  for (const image of reading.images ?? []) {
    if (image.alt !== undefined) continue;
    out.push(
      finding(
        "warning",
        "IMAGE_ALT_MISSING",
        [...node.path, "props", ...image.path],
        "<img>",
        "An image in the text has no alt text: screen readers read its address, and readers with images off see nothing",
        'Add alt="…" describing it, or alt="" if it is decorative',
      ),
    );
  }
}

/** Heading levels in document order: a level more than one below the one before skips one. */
function headingFindings(headings: readonly { level: number; path: readonly string[] }[], out: Finding[]): void {
  headings.forEach((heading, index) => {
    const previous = headings[index - 1];
    if (previous === undefined || heading.level <= previous.level + 1) return;
    out.push(
      finding(
        "warning",
        "HEADING_LEVEL_SKIPPED",
        heading.path,
        `h${heading.level}`,
        `An h${heading.level} follows an h${previous.level}: screen-reader users who move by headings miss a level`,
        `Make it an h${previous.level + 1}, or change the levels around it`,
      ),
    );
  });
}

const anyColor = (dark: DarkColors | undefined) =>
  dark !== undefined &&
  (activeGradient(dark.backgroundGradient) || Object.entries(dark).some(([key, value]) => key !== "backgroundGradient" && value !== undefined));

/** Whether the template sets any dark colour (then its dark scheme is judged too). */
function setsDarkColors(template: Template): boolean {
  const inside = (nodes: readonly (RowLike | ColumnChild)[]): boolean =>
    nodes.some((node) =>
      node.kind === "component"
        ? anyColor((node.props as BlockSurface).dark)
        : node.kind === "row-spacer"
          ? anyColor(node.dark)
          : anyColor(node.style.dark) || node.columns.some((column) => anyColor(column.style.dark) || inside(column.children)),
    );
  return anyColor(template.canvas.dark) || inside(template.rows);
}

export function readerFindings(json: unknown, template: Template): Finding[] {
  const out: Finding[] = [];
  const backdrops = new Backdrops(template.canvas);
  const darkMode = setsDarkColors(template);
  const headings: { level: number; path: readonly string[] }[] = [];
  const walk = (nodes: readonly (RowLike | ColumnChild)[], outer: Backdrop): void => {
    for (const node of nodes) {
      if (node.kind === "component") {
        const reading = node.definition.reading(node.props);
        textFindings(node, reading, outer, backdrops, darkMode, out);
        urlFindings(node, reading, out);
        for (const h of reading.headings ?? []) headings.push({ level: h.level, path: [...node.path, "props", ...h.path] });
      } else if (node.kind === "row") {
        const s = node.style;
        const row = backdrops.box(outer, { color: s.backgroundColor, gradient: s.backgroundGradient, image: s.backgroundImage, dark: s.dark });
        for (const column of node.columns) {
          const c = column.style;
          walk(column.children, backdrops.box(row, { color: c.backgroundColor, image: c.backgroundImage, dark: c.dark }));
        }
      }
    }
  };
  walk(template.rows, backdrops.content());
  headingFindings(headings, out);
  const canvas = valueAt(json, ["canvas"]);
  if (typeof canvas !== "object" || canvas === null || !Object.hasOwn(canvas, "language"))
    out.push(
      finding(
        "info",
        "LANGUAGE_MISSING",
        ["canvas", "language"],
        "",
        `The template does not say its language: the email declares ${template.canvas.language}, which screen readers pronounce it in`,
        "Set canvas.language to the language it is written in, e.g. de-DE",
      ),
    );
  return out;
}
