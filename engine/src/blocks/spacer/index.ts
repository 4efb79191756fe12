import * as z from "zod/mini";
import { cssText, jsxStyle, px } from "../../markup/style.js";
import { commonBlockFields, mobileOverridesSchema, nonNegative, surfaceFields } from "../../schema/common.js";
import { surfaceDarkSchema } from "../../schema/dark.js";
import { backgroundFields, darkColors, field, spacingGroup, visibilityGroup } from "../../schema/editor.js";
import { defineBlock } from "../block.js";
import { attrs, htmlClass, jsxClass, mjmlSurface, ownAttr, surfaceDeclarations, unchangedOf } from "../shared.js";

export const spacerProps = () =>
  z.object({
    height: nonNegative(20),
    ...surfaceFields(),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: surfaceDarkSchema(),
  });

/** Margin and padding add to the height: a spacer is nothing but vertical space. */
function totalHeight(p: z.output<ReturnType<typeof spacerProps>>): number {
  return p.height + p.margin.top + p.margin.bottom + p.padding.top + p.padding.bottom;
}

export const spacer = defineBlock({
  type: "spacer",
  props: spacerProps,
  editor: () => ({
    label: "Spacer",
    description: "Empty vertical space (its margin and padding add to its height).",
    groups: [
      { id: "layout", label: "Layout", fields: [field.px("height", "Height", 1, 200, { phone: true })] },
      { id: "appearance", label: "Appearance", fields: backgroundFields() },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("backgroundColor", "backgroundGradient"),
  }),
  example: { height: 24 },
  text: () => [],
  phone: {
    props: {
      // A <div> holding a hair space in html and mjml, a React Email Section (a table) in jsx.
      height: {
        unit: "px",
        declarations: (value, renderer) =>
          renderer === "jsx"
            ? [
                ["&", "height", value],
                ["&", "line-height", value],
              ]
            : [
                ["&,& div", "height", value],
                ["& div", "line-height", value],
              ],
      },
    },
  },
  mjml(p, ctx) {
    const surface = mjmlSurface(p, ctx);
    // An attribute at a time (`ownAttr`): no object literal for `mjmlAttrs` to enumerate (QuickJS).
    const u = unchangedOf("mj-spacer");
    return `<mj-spacer${ownAttr("height", px(totalHeight(p)), u)}${ownAttr("container-background-color", surface.containerColor, u)}${ownAttr("css-class", surface.className, u)} />`;
  },
  html(p, ctx) {
    const h = px(totalHeight(p));
    return `<div${htmlClass(ctx.className)}${attrs({ style: cssText([["height", h], ["line-height", h], ["font-size", "1px"], ...surfaceDeclarations(p)]) })}>&#8202;</div>`;
  },
  jsx(p, ctx) {
    const h = px(totalHeight(p));
    return `<Section${jsxClass(ctx.className)} style={${jsxStyle([["height", h], ["line-height", h], ["font-size", "1px"], ...surfaceDeclarations(p)])}}>&#8202;</Section>`;
  },
});
