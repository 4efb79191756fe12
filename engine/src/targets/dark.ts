/**
 * Dark mode: the template's `dark` colours as classes on the elements that paint them, and one
 * `<style>` element holding `@media (prefers-color-scheme: dark)` rules (Apple Mail, iOS Mail and
 * other WebKit/Blink readers) and Outlook.com's `[data-ogsc]` (text) / `[data-ogsb]` (background)
 * forms. Elements with the same dark colours share one class, so a document pays for each distinct
 * set of colours once.
 *
 * The canvas colours (content background, text, links) apply only where the reader sees the content
 * background: inside rows, columns and blocks that are transparent, painted in the canvas colour, or
 * that have dark colours of their own. Inside a box painted in a colour of its own without a dark
 * one (a yellow banner), text keeps its light colour, which was chosen for that box.
 *
 * A dark background gradient is painted where the dark background colour is, as a `background-image`
 * over that colour (else over the gradient's solid colour); a dark colour without one clears the
 * light gradient. Outlook for Windows draws its VML in the light colours: it has no dark scheme to ask.
 */

import type { DarkRoles, Renderer } from "../blocks/block.js";
import type { ColumnNode, RowNode, SpacerNode } from "../document/model.js";
import type { Canvas } from "../document/schema.js";
import { activeGradient, type Gradient } from "../schema/common.js";
import { type DarkColors, sameColor } from "../schema/dark.js";

type Box = "page" | "content" | "row" | "column";

/**
 * The elements that paint a box's background and border, `&` standing for its class. mjml puts the
 * class on an outer `<div>` and the colour on the div and the table inside it (a section's border
 * and a padded column's colour on that table's cell); React Email's components and our nested-row
 * HTML carry the class on the painted element itself, except `<Body>`, which paints its inner cell.
 * Child combinators, so that the boxes inside keep their own colours.
 */
const BOX_SELECTORS: Record<Renderer, Record<Box, string>> = {
  mjml: {
    page: "&,& > div",
    content: "&,& > table",
    row: "&,& > table,& > table > tbody > tr > td",
    column: "&,& > table,& > table > tbody > tr > td",
  },
  html: { page: "&", content: "&", row: "&", column: "&" },
  jsx: { page: "&,& > table > tbody > tr > td", content: "&", row: "&", column: "&" },
};

const TEXT = "&,& *";
const LINKS = "& a";

interface Paint {
  readonly selectors: string;
  readonly property: "color" | "background-color" | "background-image" | "border-color" | "border-top-color";
  readonly value: string;
  /**
   * Outlook.com marks the elements whose text (`ogsc`) or background (`ogsb`) colour it changed. It
   * darkens borders with the boxes they frame: a dark border colour takes the background's form.
   */
  readonly outlook?: "data-ogsc" | "data-ogsb";
}

/** What a block's props may hold that dark mode reads. */
interface BlockProps {
  readonly dark?: DarkColors | undefined;
  readonly backgroundColor?: string;
  readonly backgroundGradient?: Gradient;
}

export interface DarkBox {
  /** The light background colour, `transparent` for none. */
  readonly backgroundColor: string;
  /** A gradient or image painted over it: the box is not the content colour, whatever that is. */
  readonly covered: boolean;
  readonly gradient: boolean;
  readonly dark: DarkColors | undefined;
}

function rowDarkBox(row: RowNode): DarkBox {
  const s = row.style;
  const gradient = activeGradient(s.backgroundGradient);
  return { backgroundColor: s.backgroundColor, covered: gradient || s.backgroundImage !== "", gradient, dark: s.dark };
}

function columnDarkBox(column: ColumnNode): DarkBox {
  const s = column.style;
  return { backgroundColor: s.backgroundColor, covered: s.backgroundImage !== "", gradient: false, dark: s.dark };
}

export function spacerDarkBox(spacer: SpacerNode): DarkBox {
  const gradient = activeGradient(spacer.backgroundGradient);
  return { backgroundColor: spacer.backgroundColor, covered: gradient, gradient, dark: spacer.dark };
}

/** A dark background: a colour, and a gradient drawn over it. */
interface DarkBackground {
  readonly color: string | undefined;
  readonly gradient: Gradient | undefined;
}

/** A node's own dark background, or undefined when it has none. */
function ownBackground(dark: DarkColors | undefined): DarkBackground | undefined {
  const gradient = activeGradient(dark?.backgroundGradient) ? dark.backgroundGradient : undefined;
  const color = dark?.backgroundColor;
  return color || gradient ? { color, gradient } : undefined;
}

/**
 * A box or block without dark colours of its own in a document whose canvas has none: no class, and
 * nothing inside is themed (only the canvas's dark background themes). Returned before any object is
 * made for it, as most templates have no dark colours and every block, row and column asks.
 */
const NO_DARK_BOX = { className: "", themed: false } as const;

const solid = (color: string | undefined): DarkBackground | undefined => (color ? { color, gradient: undefined } : undefined);

export class DarkStyles {
  private readonly classes = new Map<string, string>();
  private readonly media: string[] = [];
  private readonly outlook: string[] = [];
  private readonly canvasDark: DarkColors | undefined;
  /** Whether the canvas's dark text colours apply where the walk is. */
  private themed: boolean;

  constructor(private readonly canvas: Canvas) {
    this.canvasDark = canvas.dark;
    this.themed = canvas.dark?.backgroundColor !== undefined;
  }

  /** Whether this document has any dark colour: it then declares `color-scheme: light dark`. */
  get used(): boolean {
    return this.media.length > 0;
  }

  /** The class of the page (`<body>`) and of the content container. */
  page(renderer: Renderer): string {
    return this.classFor(this.backgroundPaints(BOX_SELECTORS[renderer].page, solid(this.canvasDark?.bodyBackgroundColor), false));
  }

  content(renderer: Renderer): string {
    return this.classFor(this.backgroundPaints(BOX_SELECTORS[renderer].content, solid(this.canvasDark?.backgroundColor), false));
  }

  /** `box` of a row, its `DarkBox` made only where it has dark colours (an object per row otherwise). */
  row(renderer: Renderer, row: RowNode): { className: string; themed: boolean } {
    return row.style.dark === undefined && this.canvasDark === undefined ? NO_DARK_BOX : this.box("row", renderer, rowDarkBox(row));
  }

  /** `box` of a column, as `row`. */
  column(renderer: Renderer, column: ColumnNode): { className: string; themed: boolean } {
    return column.style.dark === undefined && this.canvasDark === undefined ? NO_DARK_BOX : this.box("column", renderer, columnDarkBox(column));
  }

  /** The class of a row, row spacer or column; `themed` tells whether canvas text colours apply inside it. */
  box(kind: "row" | "column", renderer: Renderer, box: DarkBox): { className: string; themed: boolean } {
    if (box.dark === undefined && this.canvasDark === undefined) return NO_DARK_BOX;
    const selectors = BOX_SELECTORS[renderer][kind];
    const { background, themed } = this.surface(box);
    const paints = this.backgroundPaints(selectors, background, box.gradient);
    if (box.dark?.borderColor) paints.push({ selectors, property: "border-color", value: box.dark.borderColor, outlook: "data-ogsb" });
    return { className: this.classFor(paints), themed };
  }

  /**
   * `within` without a closure (an object with its captured variables in QuickJS, for every row and
   * column the MJML walk renders): sets the theme state the box leaves, returning the one to `restore`.
   */
  enter(themed: boolean): boolean {
    const outer = this.themed;
    this.themed = themed;
    return outer;
  }

  restore(outer: boolean): void {
    this.themed = outer;
  }

  /** Renders what a box holds with the theme state the box leaves. */
  within<T>(themed: boolean, render: () => T): T {
    const outer = this.themed;
    this.themed = themed;
    try {
      return render();
    } finally {
      this.themed = outer;
    }
  }

  /** The class a block needs for its dark colours, or "": its roles (blocks/block.ts) say which elements take which. */
  block(roles: DarkRoles, props: BlockProps): string {
    const own = props.dark;
    if (own === undefined && this.canvasDark === undefined) return "";
    const gradient = activeGradient(props.backgroundGradient);
    if (roles.line !== undefined) {
      // A line is a border; drawn as a bar when it has a gradient, which a dark gradient replaces.
      const line = own?.backgroundColor;
      const bar = gradient ? ownBackground(own) : undefined;
      const paints: Paint[] = line ? [{ selectors: roles.line, property: "border-top-color", value: line }] : [];
      if (bar) paints.push(...this.backgroundPaints(roles.line, bar, true));
      return this.classFor(paints);
    }
    const { background, themed } = roles.ownColors
      ? { background: ownBackground(own), themed: false }
      : props.backgroundColor === undefined
        ? { background: undefined, themed: this.themed }
        : this.surface({ backgroundColor: props.backgroundColor, covered: gradient, gradient, dark: own });
    const canvas = themed ? this.canvasDark : undefined;
    const paints = this.backgroundPaints(roles.background ?? "&", background, gradient);
    const color = own?.color ?? (roles.canvasText === undefined ? undefined : canvas?.[roles.canvasText]);
    if (color) paints.push({ selectors: TEXT, property: "color", value: color, outlook: "data-ogsc" });
    const link = own?.linkColor ?? (roles.canvasLinks ? canvas?.linkColor : undefined);
    if (link) paints.push({ selectors: LINKS, property: "color", value: link, outlook: "data-ogsc" });
    if (roles.border !== undefined && own?.borderColor)
      paints.push({ selectors: roles.border, property: "border-color", value: own.borderColor, outlook: "data-ogsb" });
    return this.classFor(paints);
  }

  /** The dark stylesheet's content, or "" when the document has no dark colour. */
  css(): string {
    if (!this.used) return "";
    return [`@media (prefers-color-scheme:dark){`, ...this.media, `}`, ...this.outlook].join("\n");
  }

  /**
   * A box's dark background and whether canvas text colours apply inside it: its own dark colour;
   * else, painted in the content's light colour, the content's dark one; transparent, whatever
   * surrounds it; otherwise none (it keeps its light colour, and its text too).
   */
  private surface(box: DarkBox): { background: DarkBackground | undefined; themed: boolean } {
    const own = ownBackground(box.dark);
    if (own) return { background: own, themed: true };
    if (box.covered) return { background: undefined, themed: false };
    if (box.backgroundColor === "transparent") return { background: undefined, themed: this.themed };
    if (this.themed && sameColor(box.backgroundColor, this.canvas.backgroundColor))
      return { background: solid(this.canvasDark?.backgroundColor), themed: true };
    return { background: undefined, themed: false };
  }

  /** A dark background's paints; `lightGradient`: a light gradient is drawn there, which a dark colour alone clears. */
  private backgroundPaints(selectors: string, background: DarkBackground | undefined, lightGradient: boolean): Paint[] {
    if (background === undefined) return [];
    const paints: Paint[] = [];
    const color = background.color ?? background.gradient?.fallback;
    if (color) paints.push({ selectors, property: "background-color", value: color, outlook: "data-ogsb" });
    const image = background.gradient?.css ?? (lightGradient ? "none" : undefined);
    if (image) paints.push({ selectors, property: "background-image", value: image, outlook: "data-ogsb" });
    return paints;
  }

  /** One class per distinct set of paints, its rules written once. */
  private classFor(paints: readonly Paint[]): string {
    if (paints.length === 0) return "";
    const key = JSON.stringify(paints);
    const known = this.classes.get(key);
    if (known) return known;
    const name = `mr-d${this.classes.size}`;
    this.classes.set(key, name);
    this.media.push(...rules(paints, name, ""));
    for (const attribute of ["data-ogsc", "data-ogsb"] as const)
      this.outlook.push(
        ...rules(
          paints.filter((p) => p.outlook === attribute),
          name,
          `[${attribute}] `,
        ),
      );
    return name;
  }
}

/**
 * The rules for one class: the declarations of each selector (`&` = `.name`), and selectors with the
 * same declarations in one rule, so `.x{background-color:…;color:…}.x *{color:…}` rather than a rule per paint.
 */
function rules(paints: readonly Paint[], name: string, prefix: string): string[] {
  const bySelector = new Map<string, string[]>();
  for (const paint of paints)
    for (const selector of paint.selectors.split(",")) {
      const full = prefix + selector.replaceAll("&", `.${name}`);
      bySelector.set(full, [...(bySelector.get(full) ?? []), `${paint.property}:${paint.value} !important`]);
    }
  const byDeclarations = new Map<string, string[]>();
  for (const [selector, declarations] of bySelector) {
    const key = declarations.join(";");
    byDeclarations.set(key, [...(byDeclarations.get(key) ?? []), selector]);
  }
  return [...byDeclarations].map(([declarations, selectors]) => `${selectors.join(",")}{${declarations}}`);
}
