import * as z from "zod/mini";
import { type ContentNode, contentToMarkup, elementToJsx, isElement, parseContent } from "../../markup/content.js";
import { cssText, type Declarations, jsxStyle, px, spacing } from "../../markup/style.js";
import { commonBlockFields, emptyByDefault, mobileOverridesSchema, nonNegative, surfaceFields, typographyFields } from "../../schema/common.js";
import { richTextDarkSchema } from "../../schema/dark.js";
import { defineBlock } from "../block.js";
import {
  addSpacing,
  attrs,
  htmlClass,
  jsxClass,
  mjmlSurface,
  mjmlTypography,
  paddingDeclaration,
  surfaceDeclarations,
  typographyDeclarations,
} from "../shared.js";

export const listProps = () =>
  z.object({
    /** An HTML list: `<ul>`/`<ol>` with `<li>` items. */
    content: emptyByDefault,
    ...typographyFields(),
    paddingLeft: nonNegative(20),
    itemSpacing: nonNegative(8),
    ...surfaceFields,
    ...commonBlockFields(),
    mobile: mobileOverridesSchema,
    dark: richTextDarkSchema(),
  });
type ListProps = z.output<ReturnType<typeof listProps>>;

/** List geometry goes inline on the list elements, the only styling every client honours. */
function styledContent(p: ListProps): string {
  const listStyle = cssText([
    ["margin", "0"],
    ["padding-left", px(p.paddingLeft)],
  ]);
  const itemStyle = cssText([["margin", `0 0 ${px(p.itemSpacing)} 0`]]);
  return p.content
    .replace(/<(ul|ol)(\s|>)/gi, (_, tag: string, next: string) => `<${tag} style="${listStyle}"${next === ">" ? ">" : " "}`)
    .replace(/<li(\s|>)/gi, (_, next: string) => `<li style="${itemStyle}"${next === ">" ? ">" : " "}`);
}

export const list = defineBlock({
  type: "list",
  props: listProps,
  mjml(p, ctx) {
    const surface = mjmlSurface(p, ctx);
    const attributes = attrs({
      ...mjmlTypography(p, ctx),
      align: p.align,
      padding: spacing(addSpacing(p.margin, p.padding)),
      ...surface.attributes,
      "css-class": surface.className,
    });
    return `<mj-text${attributes}>${contentToMarkup(styledContent(p), ctx.out)}</mj-text>`;
  },
  html(p, ctx) {
    const style = cssText([...typographyDeclarations(p, ctx), ...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ style })}>${contentToMarkup(styledContent(p), ctx.out)}</div>`;
  },
  jsx(p, ctx) {
    const typography: Declarations = typographyDeclarations(p, ctx);
    const outer = jsxStyle([...typography, ...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    const nodes: ContentNode[] = parseContent(styledContent(p));
    const body = nodes
      .map((node) => (isElement(node) ? elementToJsx(node, ctx.out, []) : node.kind === "text" ? ctx.out.trusted(node.text, "text") : ""))
      .join("");
    return `<Section${jsxClass(ctx.className)} style={${outer}}>${body}</Section>`;
  },
});
