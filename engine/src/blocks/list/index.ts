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
function styledContent(p: ListProps, ctx: BlockRenderContext): string {
  const listStyle = cssText([
    ["margin", "0"],
    [INDENT_SIDE[textDirection(p, ctx)], px(p.paddingLeft)],
  ]);
  const itemStyle = cssText([["margin", `0 0 ${px(p.itemSpacing)} 0`]]);
  return p.content
    .replace(/<(ul|ol)(\s|>)/gi, (_, tag: string, next: string) => `<${tag} style="${listStyle}"${next === ">" ? ">" : " "}`)
    .replace(/<li(\s|>)/gi, (_, next: string) => `<li style="${itemStyle}"${next === ">" ? ">" : " "}`);
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
    return `<mj-text${attributes}>${directedMarkup(ctx.content.markup(styledContent(p, ctx), ctx.out), p, ctx)}</mj-text>`;
  },
  html(p, ctx) {
    const style = cssText([...typographyDeclarations(p, ctx), ...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx), style })}>${ctx.content.markup(styledContent(p, ctx), ctx.out)}</div>`;
  },
  jsx(p, ctx) {
    const typography: Declarations = typographyDeclarations(p, ctx);
    const outer = jsxStyle([...typography, ...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    const nodes: ContentNode[] = ctx.content.nodes(styledContent(p, ctx));
    const body = nodes
      .map((node) => (isElement(node) ? elementToJsx(node, ctx.out, []) : node.kind === "text" ? ctx.out.trusted(node.text, "text") : ""))
      .join("");
    return `<Section${jsxClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx) })} style={${outer}}>${body}</Section>`;
  },
});
