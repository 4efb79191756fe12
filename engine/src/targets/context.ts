/** What one render of one document accumulates while walking the tree, whatever the target. */

import type { BlockRenderContext, Renderer } from "../blocks/block.js";
import type { MergeTagRef } from "../data/merge-tags.js";
import type { ColumnChild, ComponentNode, Path, Shown, Template } from "../document/model.js";
import { ContentHtml } from "../markup/content.js";
import type { Emitter, Locator, SlotPosition } from "../markup/emitter.js";
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
  /**
   * The context each block is rendered with: one object for the document, a block's own fields set
   * before it is rendered (a block renders no other, and keeps none), where a literal per block
   * costs QuickJS a property definition for each of its nine keys.
   */
  private readonly blockContext: { -readonly [K in keyof BlockRenderContext]: BlockRenderContext[K] };

  constructor(
    readonly template: Template,
    readonly out: Emitter,
    readonly shown: Shown,
    readonly content: ContentHtml = new ContentHtml(),
  ) {
    this.dark = new DarkStyles(template.canvas);
    out.locate = documentLocator({ template_name: template.name, canvas: template.canvas });
    out.site = undefined;
    this.blockContext = {
      out,
      content,
      direction: template.canvas.direction,
      width: 0,
      className: "",
      fonts: this.fonts,
      uid: "",
      headCss: this.headCss,
      mobileCss: this.mobileCss,
    };
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
    const ctx = this.blockContext;
    ctx.width = width;
    ctx.uid = uid;
    ctx.className = joinClasses(
      blockClasses(node.props as ResponsiveProps, uid, this.mobileCss, definition.phone, renderer),
      this.dark.block(definition.dark, node.props as object),
    );
    const outer = this.out.site;
    this.out.site = node;
    try {
      return definition[renderer](node.props, ctx);
    } finally {
      this.out.site = outer;
    }
  }
}

/**
 * Tags emitted while rendering a block are located at the string prop (depth first, list entries
 * included) equal to the text emitted with the tag, else holding it, else holding the tag as
 * written; a tag in a link is looked for in link and image props first (`urlProps`, by name), one
 * in text in the others. Else at the block's path (a tag from the editor's merge spans, whose written
 * form is markup). Outside blocks, the same in `documentProps`. Looked up only when a tag's path is
 * read; each site's string props and rankings once.
 */
function documentLocator(documentProps: object): Locator {
  const sites = new Map<object, SiteStrings>();
  return (site, ref, written, position) => {
    const node = site as ComponentNode | undefined;
    let strings = sites.get(site ?? documentProps);
    if (strings === undefined) {
      strings =
        node === undefined
          ? new SiteStrings(stringProps(documentProps, [], []), NO_URL_PROPS, [])
          : new SiteStrings(
              typeof node.props === "object" && node.props !== null ? stringProps(node.props, [...node.path, ...PROPS], []) : [],
              urlPropsOf(node.definition),
              node.path,
            );
      sites.set(site ?? documentProps, strings);
    }
    return strings.locate(ref, written, position);
  };
}

/** A site's string props, ranked for tags in links and in text as first asked. */
class SiteStrings {
  private urlFirst: StringProp[] | undefined;
  private textFirst: StringProp[] | undefined;

  constructor(
    private readonly strings: StringProp[],
    private readonly urlProps: ReadonlySet<string>,
    private readonly fallback: Path,
  ) {}

  locate(ref: MergeTagRef, written: string | undefined, position: SlotPosition): Path {
    const { strings, urlProps } = this;
    const isUrl = (s: StringProp) => urlProps.has(s.key);
    let ranked: StringProp[];
    if (position === "url" || position === "url-part") {
      this.urlFirst ??= [...strings.filter(isUrl), ...strings.filter((s) => !isUrl(s))];
      ranked = this.urlFirst;
    } else {
      this.textFirst ??= [...strings.filter((s) => !isUrl(s)), ...strings.filter(isUrl)];
      ranked = this.textFirst;
    }
    const found =
      (written === undefined ? undefined : (ranked.find((s) => s.value === written) ?? ranked.find((s) => s.value.includes(written)))) ??
      ranked.find((s) => s.value.includes(ref.source));
    return found === undefined ? this.fallback : [...found.parent, found.key];
  }
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
