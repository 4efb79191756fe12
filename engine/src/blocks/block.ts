/**
 * A block is one folder holding everything about it (mjml's component model): its props with their
 * defaults, how an editor presents them, how it renders for each target, what it reads as in the
 * plain-text version, which of its elements dark mode and phone overrides paint, and what it needs
 * to mean something to a reader (its content checks). The registry (`registry.ts`) lists the
 * blocks; everything else — the reader, the three targets, the plain-text version, dark mode, phone
 * overrides, the schemas, the docs, the checks, the editor — walks it, so adding a block is its
 * folder and one registry line.
 */
import type * as z from "zod/mini";
import type { ContentHtml } from "../markup/content.js";
import type { Emitter } from "../markup/emitter.js";
import type { TextParagraph } from "../markup/html-to-text.js";
import type { TagValues } from "../markup/tag-values.js";
import type { Direction } from "../schema/common.js";
import type { EditorDescription } from "../schema/editor.js";

/** Which writer renders a block: MJML components, plain email HTML (in nested rows) or React Email JSX. */
export type Renderer = "mjml" | "html" | "jsx";

export interface BlockRenderContext {
  readonly out: Emitter;
  /** Reads content HTML (rich text): its sanitised nodes, as markup or as JSX. */
  readonly content: ContentHtml;
  /** The email's text direction, which the block's element inherits (the canvas's `direction`). */
  readonly direction: Direction;
  /** Content width available to the block, in px (the column's width less its padding). */
  readonly width: number;
  /** Responsive classes for this block (desktopHide/mobileHide/mobile overrides), or "". */
  readonly className: string;
  /** Every font family the document uses; non-web-safe ones get a Google Fonts link. */
  readonly fonts: Set<string>;
  /** A class unique to this block in the document, for head CSS aimed at it. */
  readonly uid: string;
  /** Head CSS rules (desktop), e.g. what a native MJML component has no attribute for. */
  readonly headCss: string[];
  /** CSS rules that apply under the mobile breakpoint only. */
  readonly mobileCss: string[];
}

/**
 * CSS selectors of a block's elements, `&` standing for the block's own class; comma-separated
 * for several. Per renderer where the renderers' markup differs.
 */
export type Selector = string | Readonly<Record<Renderer, string>>;

/**
 * How dark mode paints a block (targets/dark.ts): which elements carry which of its `dark` colours,
 * and which of the canvas's dark colours its text takes on a background that follows the canvas.
 * Without any, the block is a box: its dark `backgroundColor` (or, transparent or painted in the
 * content's colour, the canvas's) paints its own element.
 */
export interface DarkRoles {
  /** The elements painted in its background colour (default `&`). */
  readonly background?: string;
  /**
   * Its colours are its own (a button): the canvas's dark colours never replace them or its
   * text's; only its own `dark` colours apply.
   */
  readonly ownColors?: boolean;
  /** The canvas's dark colour its text takes where canvas colours apply: text (rich text, menus) or links (an anchor). */
  readonly canvasText?: "color" | "linkColor";
  /** Whether the links inside it take the canvas's dark link colour. */
  readonly canvasLinks?: boolean;
  /** The elements whose border its dark `borderColor` paints. */
  readonly border?: string;
  /** The elements drawing a line that its dark `backgroundColor` colours instead of a background (a divider). */
  readonly line?: string;
}

/** One declaration a phone override writes: the elements (`&` the block's class), the property, the value. */
export type PhoneDeclaration = readonly [selector: string, property: string, value: string];

/** A phone override of one of the block's own props that the shared keys do not cover (a spacer's height, an image's width). */
export interface PhoneProp {
  /** The unit a number is written with. */
  readonly unit: "px" | "%" | "";
  /** The declarations the override makes, from its CSS value (the number with its unit, or the text). */
  readonly declarations: (value: string, renderer: Renderer) => readonly PhoneDeclaration[];
}

/**
 * Where phone overrides (`mobile`, targets/responsive.ts) write: typography, padding and margin,
 * background colour, corner radius, border and gradient apply to every block, on the elements named
 * here (each `&` when left out); other props take an override only when listed in `props`.
 */
export interface PhoneRoles {
  /** The elements that draw its background, corners and gradient. */
  readonly surface?: Selector;
  /** The elements drawing a line that its background-colour override colours (`border-top-color`): a divider. */
  readonly line?: Selector;
  /** Where its padding lives when it is inside the block, apart from its margin (a button's link); else padding and margin add up on `&`. */
  readonly padding?: Selector;
  /** The elements that draw its border, when not its surface. */
  readonly border?: Selector;
  /** The border goes inside a width that fills the column on phones (a fluid image). */
  readonly borderInsideWidth?: boolean;
  /** Its own props that take an override, with where each is written. */
  readonly props?: Readonly<Record<string, PhoneProp>>;
}

export type Severity = "error" | "warning" | "info";

/**
 * Something a check found (a block's own, blocks/block.ts, or the document's, document/checks/).
 * `error`: readers miss what it is for (a link going nowhere, an image not shown, text printed as
 * `{{first_name}`); `warning`: it works, poorly or not for every reader; `info`: worth a look.
 */
export interface BlockFinding {
  readonly severity: Severity;
  /** Stable, for programs: `IMAGE_SOURCE_MISSING`. */
  readonly code: string;
  /** Where in the block's props: a prop's name, or a path into a list (`["items", "2", "link"]`). */
  readonly path: readonly string[];
  /** The value found there. */
  readonly value: unknown;
  readonly message: string;
  /** What to do about it. */
  readonly hint: string;
}

/** What a finding's code means, for the list of codes (spec/checks.md). */
export interface CodeInfo {
  readonly severity: Severity;
  /** What it means, in a sentence. */
  readonly summary: string;
}

/** A colour painted behind text: its own colour, and a gradient's stops over it (text must read on each). */
export interface Paint {
  readonly color: string;
  /** The stops of a gradient drawn over the colour, when one is on. */
  readonly stops: readonly string[];
}

/** Text a block draws, as the checks for readers judge it (size and contrast). */
export interface TextLook {
  /** Where its colour is set, in the block's props. */
  readonly path: readonly string[];
  /** Where its size is set (a phone override of it is `mobile.<that>`). */
  readonly sizePath: readonly string[];
  readonly color: string;
  /** In px. */
  readonly fontSize: number;
  readonly bold: boolean;
  /** What it is drawn on when the block paints a background of its own under it (a button); else what is behind the block. */
  readonly background?: Paint;
}

/** An address a block links to or loads an image from. */
export interface UrlUse {
  readonly path: readonly string[];
  readonly url: string;
  readonly kind: "link" | "image";
}

/** An image a block shows, with the text that stands for it. */
export interface ImageUse {
  readonly path: readonly string[];
  /** Its alt text; "" marks it decorative (screen readers skip it); undefined: it has none. */
  readonly alt: string | undefined;
}

/**
 * What a reader meets in a block, for the checks that judge a template for every reader
 * (document/checks/): the text it draws, the headings it adds to the outline, the addresses its
 * links and images use, and images whose alt text lives in content HTML.
 */
export interface Reading {
  readonly text?: readonly TextLook[];
  /** Heading levels (1–6) in reading order, with where each is set. */
  readonly headings?: readonly { readonly level: number; readonly path: readonly string[] }[];
  readonly urls?: readonly UrlUse[];
  readonly images?: readonly ImageUse[];
}

/**
 * Keys the Maildeno editor writes into a block that the block does not read: never reported as
 * unknown. `mobile`: phone overrides the editor offers that this engine does not apply (reported as
 * `info` when set, so the difference from the editor's preview is known).
 */
export interface EditorKeys {
  readonly props?: readonly string[];
  readonly mobile?: readonly string[];
  /** In each entry of a list prop (menu items, social platforms). */
  readonly listItems?: readonly string[];
}

export interface BlockDefinition<Props> {
  readonly type: string;
  readonly props: z.ZodMiniType<Props>;
  /** How an editor presents it (schema/editor.ts), built on first use. */
  readonly editor: EditorDescription;
  /** The props of a meaningful instance (what the docs show, and what the executable's warm-up renders). */
  readonly example: Readonly<Record<string, unknown>>;
  /** Children of `mj-column`: idiomatic MJML components. */
  mjml(props: Props, ctx: BlockRenderContext): string;
  /** Plain email HTML, for blocks inside nested rows (where MJML has no components). */
  html(props: Props, ctx: BlockRenderContext): string;
  /** React Email JSX built from `@react-email/components`. */
  jsx(props: Props, ctx: BlockRenderContext): string;
  /** What a reader of the plain-text version reads of it, as paragraphs (none: it is left out). */
  text(props: Props, values: TagValues): TextParagraph[];
  readonly dark: DarkRoles;
  readonly phone: PhoneRoles;
  /** What it needs to mean something to a reader; none found: an empty list. */
  check(props: Props): BlockFinding[];
  /** Every code `check` gives, with its meaning (spec/checks.md lists them). */
  readonly codes: Readonly<Record<string, CodeInfo>>;
  /** What a reader meets in it (text, headings, links and images), for the document's checks. */
  reading(props: Props): Reading;
  readonly editorKeys: EditorKeys;
}

/**
 * `props` and `editor` are factories: each is built on first use and kept. A template uses a few of
 * the block types, and building a zod schema is the largest part of the executable's cold start
 * (QuickJS builds ~30 000 schema objects a second), so a block nobody uses costs nothing.
 */
export function defineBlock<S extends z.ZodMiniType>(definition: {
  type: string;
  props: () => S;
  editor: () => EditorDescription;
  example: Readonly<Record<string, unknown>>;
  mjml(props: z.output<S>, ctx: BlockRenderContext): string;
  html(props: z.output<S>, ctx: BlockRenderContext): string;
  jsx(props: z.output<S>, ctx: BlockRenderContext): string;
  text(props: z.output<S>, values: TagValues): TextParagraph[];
  dark?: DarkRoles;
  phone?: PhoneRoles;
  check?(props: z.output<S>): BlockFinding[];
  codes?: Readonly<Record<string, CodeInfo>>;
  reading?(props: z.output<S>): Reading;
  editorKeys?: EditorKeys;
}): BlockDefinition<z.output<S>> {
  const { props: buildProps, editor: buildEditor, ...rest } = definition;
  let props: S | undefined;
  let editor: EditorDescription | undefined;
  const block = {
    dark: {},
    phone: {},
    check: () => [],
    codes: {},
    reading: () => ({}),
    editorKeys: {},
    ...rest,
    get props() {
      props ??= buildProps();
      return props;
    },
    get editor() {
      editor ??= buildEditor();
      return editor;
    },
  };
  return block as BlockDefinition<z.output<S>>;
}

/** A finding of a block's content check. */
export function finding(severity: Severity, code: string, path: readonly string[], value: unknown, message: string, hint: string): BlockFinding {
  return { severity, code, path, value, message, hint };
}
