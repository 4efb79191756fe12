import * as z from "zod/mini";
import { elementToJsx, isElement, nodesToJsx } from "../../markup/content.js";
import type { Emitter } from "../../markup/emitter.js";
import { paragraphsOfHtml } from "../../markup/html-to-text.js";
import { cssText, jsxStyle } from "../../markup/style.js";
import type { Typography } from "../../schema/common.js";
import { commonBlockFields, emptyByDefault, mobileOverridesSchema, optionalDirectionSchema, surfaceFields, typographyFields } from "../../schema/common.js";
import { richTextDarkSchema } from "../../schema/dark.js";
import { backgroundFields, darkColors, directionField, field, spacingGroup, typographyGroup, visibilityGroup } from "../../schema/editor.js";
import { type BlockRenderContext, defineBlock, finding } from "../block.js";
import { contentReading, surfacePaint, typographyText } from "../reading.js";
import {
  addSpacing,
  attrs,
  type Directed,
  dirAttribute,
  directedMarkup,
  htmlClass,
  isBlankContent,
  jsxClass,
  mjmlSurface,
  mjmlTextAttributes,
  paddingDeclaration,
  surfaceDeclarations,
  typographyDeclarations,
} from "../shared.js";

export const paragraphProps = () =>
  z.object({
    content: emptyByDefault,
    ...typographyFields(),
    direction: optionalDirectionSchema(),
    ...surfaceFields(),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: richTextDarkSchema(),
  });

/**
 * Rich text for React Email: each top-level `<p>` becomes a `Text`; runs of inline content are
 * gathered into one `Text`; other block elements keep their tag with the typography applied.
 */
export function richTextJsx(content: string, typography: Typography & Directed, out: Emitter, ctx: BlockRenderContext): string {
  const style: Array<readonly [string, string]> = [...typographyDeclarations(typography, ctx), ["margin", "0"]];
  const nodes = ctx.content.nodes(content);
  const blockTags = /^(p|div|ul|ol|table|h[1-6]|blockquote|pre)$/;
  let result = "";
  let inline: typeof nodes = [];
  const flush = () => {
    if (inline.some((n) => n.kind !== "text" || n.text.trim() !== "")) result += `<Text style={${jsxStyle(style)}}>${nodesToJsx(inline, out)}</Text>`;
    inline = [];
  };
  for (const node of nodes) {
    if (isElement(node) && blockTags.test(node.name)) {
      flush();
      result += elementToJsx(node, out, style, node.name === "p" ? "Text" : undefined);
    } else inline.push(node);
  }
  flush();
  return result;
}

export const paragraph = defineBlock({
  type: "paragraph",
  props: paragraphProps,
  editor: () => ({
    label: "Paragraph",
    description: "Rich text: paragraphs, emphasis, links and merge tags.",
    groups: [
      { id: "content", label: "Content", fields: [field.richText("content", "Text", "paragraphs"), directionField()] },
      typographyGroup(),
      { id: "appearance", label: "Appearance", fields: backgroundFields() },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("color", "backgroundColor", "backgroundGradient", "linkColor"),
  }),
  example: { content: "<p>Hi {{ first_name|'there' }}, your order <strong>#{{ order_id }}</strong> is on its way.</p>" },
  check: (p) =>
    isBlankContent(p.content)
      ? [finding("info", "PARAGRAPH_EMPTY", ["content"], p.content, "The paragraph has no text", "Write its text, or remove it (a spacer makes space)")]
      : [],
  codes: { PARAGRAPH_EMPTY: { severity: "info", summary: "A paragraph without text" } },
  reading: (p) => ({ text: [typographyText(p, surfacePaint(p))], ...contentReading(p.content) }),
  text: (p, values) => paragraphsOfHtml(p.content, values),
  dark: { canvasText: "color", canvasLinks: true },
  mjml(p, ctx) {
    const attributes = mjmlTextAttributes(p, ctx, mjmlSurface(p, ctx));
    return `<mj-text${attributes}>${directedMarkup(ctx.content.markup(p.content, ctx.out), p, ctx)}</mj-text>`;
  },
  html(p, ctx) {
    const style = cssText([...typographyDeclarations(p, ctx), ...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx), style })}>${ctx.content.markup(p.content, ctx.out)}</div>`;
  },
  jsx(p, ctx) {
    const outer = [...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))];
    const style = outer.length > 0 ? ` style={${jsxStyle(outer)}}` : "";
    return `<Section${jsxClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx) })}${style}>${richTextJsx(p.content, p, ctx.out, ctx)}</Section>`;
  },
});
