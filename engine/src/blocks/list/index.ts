import * as z from "zod/mini";
import { type ContentNode, elementToJsx, isElement } from "../../markup/content.js";
import { paragraphsOfHtml } from "../../markup/html-to-text.js";
import { cssText, type Declarations, jsxStyle, px } from "../../markup/style.js";
import {
  commonBlockFields,
  emptyByDefault,
  mobileOverridesSchema,
  nonNegative,
  optionalDirectionSchema,
  surfaceFields,
  typographyFields,
} from "../../schema/common.js";
import { richTextDarkSchema } from "../../schema/dark.js";
import { backgroundFields, darkColors, directionField, field, spacingGroup, typographyGroup, visibilityGroup } from "../../schema/editor.js";
import { type BlockRenderContext, defineBlock, finding } from "../block.js";
import { contentReading, surfacePaint, typographyText } from "../reading.js";
import {
  addSpacing,
  attrs,
  dirAttribute,
  directedMarkup,
  htmlClass,
  jsxClass,
  mjmlSurface,
  mjmlTextAttributes,
  paddingDeclaration,
  surfaceDeclarations,
  textDirection,
  typographyDeclarations,
} from "../shared.js";

export const listProps = () =>
  z.object({
    /** An HTML list: `<ul>`/`<ol>` with `<li>` items. */
    content: emptyByDefault,
    ...typographyFields(),
    direction: optionalDirectionSchema(),
    paddingLeft: nonNegative(20),
    itemSpacing: nonNegative(8),
    ...surfaceFields(),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: richTextDarkSchema(),
  });
type ListProps = z.output<ReturnType<typeof listProps>>;

/** The side of the markers: the start of the list's direction (a logical side only where the text gives the direction). */
const INDENT_SIDE = { ltr: "padding-left", rtl: "padding-right", auto: "padding-inline-start" } as const;

/** List geometry goes inline on the list elements, the only styling every client honours. */
export function listStyles(p: ListProps, ctx: BlockRenderContext): { readonly list: string; readonly item: string } {
  return {
    list: cssText([
      ["margin", "0"],
      [INDENT_SIDE[textDirection(p, ctx)], px(p.paddingLeft)],
    ]),
    item: cssText([["margin", `0 0 ${px(p.itemSpacing)} 0`]]),
  };
}

/** The content with its lists' and items' styles written into their start tags. */
export function styledContent(html: string, styles: { readonly list: string; readonly item: string }): string {
  return html
    .replace(/<(ul|ol)(\s|>)/gi, (_, tag: string, next: string) => `<${tag} style="${styles.list}"${next === ">" ? ">" : " "}`)
    .replace(/<li(\s|>)/gi, (_, next: string) => `<li style="${styles.item}"${next === ">" ? ">" : " "}`);
}

/** Where a list element's start tag may begin, and where one does begin (its name ends as HTML ends one). */
const LIST_TAG_START = /<(?:ul|ol|li)/gi;
const LIST_TAG = /<(?:ul|ol|li)[ \t\n\f\r>]/gi;
/** What the content's reader removes before reading (slot and merge tag delimiters): none, or a tag could begin where the expressions see none. */
const READER_DELIMITERS = /[\uE000-\uE003]/;

/**
 * The styled content's nodes. Where every `<ul`, `<ol` and `<li` of the content opens one of its
 * list elements, none with a style of its own, reading the styled content gives the content's own
 * nodes (read already, for the reader's checks) with the styles as the first attribute of those
 * elements: made so, without reading and sanitising the content a second time (~0.7 M
 * instructions in QuickJS for the newsletter's list). Anything else is read as styled.
 */
export function styledNodes(p: ListProps, ctx: BlockRenderContext): ContentNode[] {
  const html = p.content;
  const styles = listStyles(p, ctx);
  if (!READER_DELIMITERS.test(html)) {
    const tags = html.match(LIST_TAG)?.length ?? 0;
    if (tags === (html.match(LIST_TAG_START)?.length ?? 0)) {
      const styled = { list: styles.list, item: styles.item, elements: 0 };
      const nodes = withListStyles(ctx.content.nodes(html), styled);
      if (nodes !== undefined && styled.elements === tags) return nodes;
    }
  }
  return ctx.content.nodes(styledContent(html, styles));
}

/** `nodes` with each list element's style first among its attributes, counted; undefined where one has a style already. */
function withListStyles(nodes: readonly ContentNode[], styled: { list: string; item: string; elements: number }): ContentNode[] | undefined {
  const result: ContentNode[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.kind !== "element") {
      result.push(node);
      continue;
    }
    const children = withListStyles(node.children, styled);
    if (children === undefined) return undefined;
    const style = node.name === "li" ? styled.item : node.name === "ul" || node.name === "ol" ? styled.list : undefined;
    let attrs = node.attrs;
    if (style !== undefined) {
      for (let a = 0; a < attrs.length; a++) if (attrs[a]![0] === "style") return undefined;
      attrs = [["style", style], ...attrs];
      styled.elements++;
    }
    result.push({ kind: "element", name: node.name, attrs, children });
  }
  return result;
}

export const list = defineBlock({
  type: "list",
  props: listProps,
  editor: () => ({
    label: "List",
    description: "A bulleted or numbered list (`<ul>` or `<ol>` with `<li>` items), in rich text.",
    groups: [
      { id: "content", label: "Content", fields: [field.richText("content", "Items", "list", { hint: "A <ul> or <ol> of <li> items" }), directionField()] },
      typographyGroup(),
      {
        id: "layout",
        label: "Layout",
        fields: [
          field.px("paddingLeft", "Indent", 0, 60, { hint: "Space before the markers (on the right in right-to-left text)" }),
          field.px("itemSpacing", "Space between items", 0, 40, { phone: true }),
        ],
      },
      { id: "appearance", label: "Appearance", fields: backgroundFields() },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("color", "backgroundColor", "backgroundGradient", "linkColor"),
  }),
  example: { content: "<ul><li>Free returns for 30 days</li><li>Tracking in your account</li></ul>" },
  check: (p) =>
    /<li[\s>]/i.test(p.content)
      ? []
      : [finding("warning", "LIST_EMPTY", ["content"], p.content, "The list has no items", "Write its items as <li> elements in a <ul> or <ol>")],
  codes: { LIST_EMPTY: { severity: "warning", summary: "A list without items" } },
  reading: (p) => ({ text: [typographyText(p, surfacePaint(p))], ...contentReading(p.content) }),
  text: (p, values) => paragraphsOfHtml(p.content, values),
  dark: { canvasText: "color", canvasLinks: true },
  phone: { props: { itemSpacing: { unit: "px", declarations: (value) => [["& li", "margin-bottom", value]] } } },
  mjml(p, ctx) {
    const attributes = mjmlTextAttributes(p, ctx, mjmlSurface(p, ctx));
    return `<mj-text${attributes}>${directedMarkup(ctx.content.nodesMarkup(styledNodes(p, ctx), ctx.out), p, ctx)}</mj-text>`;
  },
  html(p, ctx) {
    const style = cssText([...typographyDeclarations(p, ctx), ...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx), style })}>${ctx.content.nodesMarkup(styledNodes(p, ctx), ctx.out)}</div>`;
  },
  jsx(p, ctx) {
    const typography: Declarations = typographyDeclarations(p, ctx);
    const outer = jsxStyle([...typography, ...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    const nodes: ContentNode[] = styledNodes(p, ctx);
    const body = nodes
      .map((node) => (isElement(node) ? elementToJsx(node, ctx.out, []) : node.kind === "text" ? ctx.out.trusted(node.text, "text") : ""))
      .join("");
    return `<Section${jsxClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx) })} style={${outer}}>${body}</Section>`;
  },
});
