import * as z from "zod/mini";
import { paragraphsOfHtml } from "../../markup/html-to-text.js";
import { cssText, jsxStyle, spacingSum } from "../../markup/style.js";
import { commonBlockFields, emptyByDefault, mobileOverridesSchema, optionalDirectionSchema, surfaceFields, typographyFields } from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { richTextDarkSchema } from "../../schema/dark.js";
import { backgroundFields, darkColors, directionField, field, spacingGroup, typographyGroup, visibilityGroup } from "../../schema/editor.js";
import { numberSchema } from "../../schema/leaves.js";
import { defineBlock, finding } from "../block.js";
import { contentReading, surfacePaint, typographyText } from "../reading.js";
import {
  addSpacing,
  attr,
  attrs,
  dirAttribute,
  htmlClass,
  isBlankContent,
  jsxClass,
  mjmlAlign,
  mjmlSurface,
  ownAttr,
  paddingDeclaration,
  surfaceDeclarations,
  typographyCss,
  typographyDeclarations,
  unchangedOf,
} from "../shared.js";

const LEVELS = ["h1", "h2", "h3", "h4", "h5", "h6"] as const;

export const headingProps = () =>
  z.object({
    content: emptyByDefault,
    level: constantDefault(
      z.union(
        [
          z.enum(LEVELS),
          z.pipe(
            numberSchema.check(z.int(), z.minimum(1), z.maximum(6)),
            z.transform((n) => `h${n}` as (typeof LEVELS)[number]),
          ),
        ],
        {
          error: 'Input should be "h1" to "h6" or a number from 1 to 6',
        },
      ),
      "h2",
    ),
    ...typographyFields({ fontSize: 32, lineHeight: 1.2, fontWeight: "bold" }),
    direction: optionalDirectionSchema(),
    ...surfaceFields(),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: richTextDarkSchema(),
  });

export const heading = defineBlock({
  type: "heading",
  props: headingProps,
  editor: () => ({
    label: "Heading",
    description: "A title, h1 to h6, in rich text.",
    groups: [
      {
        id: "content",
        label: "Content",
        fields: [
          field.richText("content", "Text", "inline"),
          field.enum(
            "level",
            "Level",
            LEVELS.map((level) => ({ value: level, label: level.toUpperCase() })),
            { hint: "Also accepted as a number from 1 to 6" },
          ),
          directionField(),
        ],
      },
      typographyGroup(),
      { id: "appearance", label: "Appearance", fields: backgroundFields() },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("color", "backgroundColor", "backgroundGradient", "linkColor"),
  }),
  example: { content: "Your order is on its way", level: "h1" },
  check: (p) =>
    isBlankContent(p.content)
      ? [finding("warning", "HEADING_EMPTY", ["content"], p.content, "The heading has no text", "Write the heading, or remove the block")]
      : [],
  codes: { HEADING_EMPTY: { severity: "warning", summary: "A heading without text" } },
  reading: (p) => {
    const { urls, images } = contentReading(p.content);
    return { text: [typographyText(p, surfacePaint(p))], headings: [{ level: Number(p.level.slice(1)), path: ["level"] }], urls, images };
  },
  text: (p, values) => paragraphsOfHtml(p.content, values),
  dark: { canvasText: "color", canvasLinks: true },
  mjml(p, ctx) {
    const style = `${typographyCss(p, ctx)};margin:0`;
    const surface = mjmlSurface(p, ctx);
    // An attribute at a time (`attr`): cheaper in QuickJS than a literal enumerated by `mjmlAttrs`.
    const u = unchangedOf("mj-text");
    const attributes =
      ownAttr("align", mjmlAlign(p, ctx), u) +
      ownAttr("padding", spacingSum(p.margin, p.padding), u) +
      ownAttr("container-background-color", surface.containerColor, u) +
      ownAttr("css-class", surface.className, u);
    return `<mj-text${attributes}><${p.level}${attr("dir", dirAttribute(p, ctx))}${attr("style", style)}>${ctx.content.markup(p.content, ctx.out)}</${p.level}></mj-text>`;
  },
  html(p, ctx) {
    const style = cssText([...typographyDeclarations(p, ctx), ["margin", "0"]]);
    const outer = cssText([...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ style: outer })}><${p.level}${attrs({ dir: dirAttribute(p, ctx), style })}>${ctx.content.markup(p.content, ctx.out)}</${p.level}></div>`;
  },
  jsx(p, ctx) {
    const style = jsxStyle([
      ...typographyDeclarations(p, ctx),
      ["margin", "0"],
      ...surfaceDeclarations(p),
      ...paddingDeclaration(addSpacing(p.margin, p.padding)),
    ]);
    return `<Heading${jsxClass(ctx.className)} as="${p.level}"${attrs({ dir: dirAttribute(p, ctx) })} style={${style}}>${ctx.content.jsx(p.content, ctx.out)}</Heading>`;
  },
});
