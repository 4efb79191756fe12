import * as z from "zod/mini";
import { contentToJsx, contentToMarkup } from "../../markup/content.js";
import { cssText, jsxStyle, spacing } from "../../markup/style.js";
import { commonBlockFields, emptyByDefault, mobileOverridesSchema, surfaceFields, typographyFields } from "../../schema/common.js";
import { richTextDarkSchema } from "../../schema/dark.js";
import { defineBlock } from "../block.js";
import { addSpacing, attrs, htmlClass, jsxClass, mjmlSurface, paddingDeclaration, surfaceDeclarations, typographyDeclarations } from "../shared.js";

const LEVELS = ["h1", "h2", "h3", "h4", "h5", "h6"] as const;

export const headingProps = () =>
  z.object({
    content: emptyByDefault,
    level: z._default(
      z.union(
        [
          z.enum(LEVELS),
          z.pipe(
            z.number().check(z.int(), z.minimum(1), z.maximum(6)),
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
    ...surfaceFields,
    ...commonBlockFields(),
    mobile: mobileOverridesSchema,
    dark: richTextDarkSchema(),
  });

export const heading = defineBlock({
  type: "heading",
  props: headingProps,
  mjml(p, ctx) {
    const style = cssText([...typographyDeclarations(p, ctx), ["margin", "0"]]);
    const surface = mjmlSurface(p, ctx);
    const attributes = attrs({ align: p.align, padding: spacing(addSpacing(p.margin, p.padding)), ...surface.attributes, "css-class": surface.className });
    return `<mj-text${attributes}><${p.level}${attrs({ style })}>${contentToMarkup(p.content, ctx.out)}</${p.level}></mj-text>`;
  },
  html(p, ctx) {
    const style = cssText([...typographyDeclarations(p, ctx), ["margin", "0"]]);
    const outer = cssText([...surfaceDeclarations(p), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ style: outer })}><${p.level}${attrs({ style })}>${contentToMarkup(p.content, ctx.out)}</${p.level}></div>`;
  },
  jsx(p, ctx) {
    const style = jsxStyle([
      ...typographyDeclarations(p, ctx),
      ["margin", "0"],
      ...surfaceDeclarations(p),
      ...paddingDeclaration(addSpacing(p.margin, p.padding)),
    ]);
    return `<Heading${jsxClass(ctx.className)} as="${p.level}" style={${style}}>${contentToJsx(p.content, ctx.out)}</Heading>`;
  },
});
