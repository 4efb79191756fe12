/** What one render of one document accumulates while walking the tree, whatever the target. */

import type { BlockRenderContext, Renderer } from "../blocks/block.js";
import type { ColumnChild, ComponentNode, Path, Shown, Template } from "../document/model.js";
import { ContentHtml } from "../markup/content.js";
import type { Emitter, Locator } from "../markup/emitter.js";
import { type Field, fieldsOf } from "../schema/editor.js";
import { DarkStyles } from "./dark.js";
import { blockClasses, type ResponsiveProps } from "./responsive.js";

export class DocumentContext {
  readonly fonts = new Set<string>();
  readonly headCss: string[] = [];
  readonly mobileCss: string[] = [];
  /** CSS rules for screens wider than the mobile breakpoint. */
  readonly desktopCss: string[] = [];
  /** CSS rules Outlook on Windows must not read: the colours of boxes it draws in VML instead. */
  readonly notOutlookCss: string[] = [];
  readonly dark: DarkStyles;
  /**
   * A react-email component renders every node and writes each one's rules beside it, for the
   * recipient's context to decide at render time (`shown` then shows everything).
   */
  deferVisibility = false;
  private uidCounter = 0;

  constructor(
    readonly template: Template,
    readonly out: Emitter,
    readonly shown: Shown,
    readonly content: ContentHtml = new ContentHtml(),
  ) {
    this.dark = new DarkStyles(template.canvas);
    out.locate = locator({ template_name: template.name, canvas: template.canvas }, [], [], []);
  }

  nextUid(prefix = "mr-b"): string {
    return `${prefix}${this.uidCounter++}`;
  }

  visibleChildren<T extends ColumnChild | { readonly condition: { readonly slot: number } | undefined }>(nodes: readonly T[]): T[] {
    // An index loop: a callback per node is a call in QuickJS, and this runs for every row and column.
    const shown: T[] = [];
    for (let i = 0; i < nodes.length; i++) if (this.shown(nodes[i]!)) shown.push(nodes[i]!);
    return shown;
  }

  /** Renders one block with the renderer the caller picks (mjml, html or jsx). */
  block(node: ComponentNode, width: number, renderer: Renderer): string {
    const { definition } = node;
    const uid = this.nextUid();
    const ctx: BlockRenderContext = {
      out: this.out,
      content: this.content,
      direction: this.template.canvas.direction,
      width,
      className: joinClasses(
        blockClasses(node.props as ResponsiveProps, uid, this.mobileCss, definition.phone, renderer),
        this.dark.block(definition.dark, node.props as object),
      ),
      fonts: this.fonts,
      uid,
      headCss: this.headCss,
      mobileCss: this.mobileCss,
    };
    const outer = this.out.locate;
    this.out.locate = locator(node.props, node.path, PROPS, node.path, definition);
    try {
      return definition[renderer](node.props, ctx);
    } finally {
      this.out.locate = outer;
    }
  }
}

/**
 * Tags emitted while rendering `props` are located at the string prop (depth first, list entries
 * included) equal to the text emitted with the tag, else holding it, else holding the tag as
 * written; a tag in a link is looked for in link and image props first (`urlProps`, by name), one
 * in text in the others. Else at `fallback` (a tag from the editor's merge spans, whose written
 * form is markup). Looked up only when a tag is emitted, once per compile.
 */
function locator(props: unknown, at: Path, within: readonly string[], fallback: Path, definition?: ComponentNode["definition"]): Locator {
  // Read when a tag is emitted, not for every block: the props' path, the string props, each ranked list once.
  let strings: StringProp[] | undefined;
  let urlFirst: StringProp[] | undefined;
  let textFirst: StringProp[] | undefined;
  return (ref, written, position) => {
    strings ??= typeof props === "object" && props !== null ? stringProps(props, [...at, ...within], []) : [];
    const set = definition === undefined ? NO_URL_PROPS : urlPropsOf(definition);
    const isUrl = (s: StringProp) => set.has(s.key);
    let ranked: StringProp[];
    if (position === "url" || position === "url-part") {
      urlFirst ??= [...strings.filter(isUrl), ...strings.filter((s) => !isUrl(s))];
      ranked = urlFirst;
    } else {
      textFirst ??= [...strings.filter((s) => !isUrl(s)), ...strings.filter(isUrl)];
      ranked = textFirst;
    }
    const found =
      (written === undefined ? undefined : (ranked.find((s) => s.value === written) ?? ranked.find((s) => s.value.includes(written)))) ??
      ranked.find((s) => s.value.includes(ref.source));
    return found === undefined ? fallback : [...found.parent, found.key];
  };
}

/** A string prop: its value, its name (or list index) and the path of what holds it. */
interface StringProp {
  readonly parent: Path;
  readonly key: string;
  readonly value: string;
}

/** The string props in `value`, depth first, added to `into` (a path made only for what holds others). */
function stringProps(value: object, path: Path, into: StringProp[]): StringProp[] {
  for (const key of Object.keys(value)) {
    const inner: unknown = (value as Record<string, unknown>)[key];
    if (typeof inner === "string") into.push({ parent: path, key, value: inner });
    else if (typeof inner === "object" && inner !== null) stringProps(inner, [...path, key], into);
  }
  return into;
}

const PROPS = ["props"] as const;
const NO_URL_PROPS: ReadonlySet<string> = new Set();
const urlPropsByBlock = new WeakMap<ComponentNode["definition"], ReadonlySet<string>>();

/** The names of a block's link and image props, in lists too (its editor description says which), once per block type. */
function urlPropsOf(definition: ComponentNode["definition"]): ReadonlySet<string> {
  const known = urlPropsByBlock.get(definition);
  if (known !== undefined) return known;
  const names = new Set<string>();
  const add = (fields: readonly Field[]) => {
    for (const field of fields) {
      if (field.kind === "url" || field.kind === "imageUrl") names.add(field.prop);
      if (field.kind === "entries") add(field.fields);
    }
  };
  add(fieldsOf(definition.editor));
  urlPropsByBlock.set(definition, names);
  return names;
}

function joinClasses(a: string, b: string): string {
  return a === "" ? b : b === "" ? a : `${a} ${b}`;
}
