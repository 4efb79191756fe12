/** What one render of one document accumulates while walking the tree, whatever the target. */

import type { BlockRenderContext, Renderer } from "../blocks/block.js";
import type { ColumnChild, ComponentNode, Shown, Template } from "../document/model.js";
import { ContentHtml } from "../markup/content.js";
import type { Emitter } from "../markup/emitter.js";
import { DarkStyles } from "./dark.js";
import { blockClasses, type ResponsiveProps } from "./responsive.js";

export class DocumentContext {
  readonly fonts = new Set<string>();
  readonly headCss: string[] = [];
  readonly mobileCss: string[] = [];
  /** CSS rules for screens wider than the mobile breakpoint. */
  readonly desktopCss: string[] = [];
  readonly dark: DarkStyles;
  private uidCounter = 0;

  constructor(
    readonly template: Template,
    readonly out: Emitter,
    readonly shown: Shown,
    readonly content: ContentHtml = new ContentHtml(),
  ) {
    this.dark = new DarkStyles(template.canvas);
  }

  nextUid(prefix = "mr-b"): string {
    return `${prefix}${this.uidCounter++}`;
  }

  visibleChildren<T extends ColumnChild | { readonly condition: { readonly slot: number } | undefined }>(nodes: readonly T[]): T[] {
    return nodes.filter((node) => this.shown(node));
  }

  /** Renders one block with the renderer the caller picks (mjml, html or jsx). */
  block(node: ComponentNode, width: number, renderer: Renderer): string {
    const { definition } = node;
    const uid = this.nextUid();
    const ctx: BlockRenderContext = {
      out: this.out,
      content: this.content,
      width,
      className: [
        blockClasses(node.props as ResponsiveProps, uid, this.mobileCss, definition.phone, renderer),
        this.dark.block(definition.dark, node.props as object),
      ]
        .filter(Boolean)
        .join(" "),
      fonts: this.fonts,
      uid,
      headCss: this.headCss,
      mobileCss: this.mobileCss,
    };
    return definition[renderer](node.props, ctx);
  }
}
