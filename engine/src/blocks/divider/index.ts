import { z } from "zod";
import { colorSchema, commonBlockFields, mobileOverridesSchema, alignSchema, toMjmlColor } from "../../template/common.js";
import { cssText, jsxStyle, px, spacing } from "../../render/style.js";
import { defineBlock } from "../block.js";
import { addSpacing, attrs, htmlClass, jsxClass, paddingDeclaration } from "../shared.js";

export const dividerProps = z.object({
  backgroundColor: colorSchema.default("#cccccc"),
  height: z.number().min(0).default(1),
  width: z.number().min(0).max(100).default(100),
  borderStyle: z.enum(["solid", "dashed", "dotted"]).default("solid"),
  align: alignSchema.default("center"),
  ...commonBlockFields({ margin: { top: 20, right: 0, bottom: 20, left: 0 }, padding: { top: 5, right: 0, bottom: 5, left: 0 } }),
  mobile: mobileOverridesSchema,
});

type DividerProps = z.output<typeof dividerProps>;

function lineDeclarations(p: DividerProps): Array<readonly [string, string]> {
  const margin = p.align === "center" ? "0 auto" : p.align === "right" ? "0 0 0 auto" : "0";
  return [
    ["border", "none"],
    ["border-top", `${px(p.height)} ${p.borderStyle} ${p.backgroundColor}`],
    ["width", `${p.width}%`],
    ["margin", margin],
    ["font-size", "1px"],
    ["line-height", "1px"],
  ];
}

export const divider = defineBlock({
  type: "divider",
  props: dividerProps,
  mjml(p, ctx) {
    return `<mj-divider${attrs({
      "border-color": toMjmlColor(p.backgroundColor),
      "border-width": px(p.height),
      "border-style": p.borderStyle,
      width: `${p.width}%`,
      align: p.align,
      padding: spacing(addSpacing(p.margin, p.padding)),
      "css-class": ctx.className,
    })} />`;
  },
  html(p, ctx) {
    const outer = cssText(paddingDeclaration(addSpacing(p.margin, p.padding)));
    return `<div${htmlClass(ctx.className)}${attrs({ style: outer })}><p${attrs({ style: cssText(lineDeclarations(p)) })}></p></div>`;
  },
  jsx(p, ctx) {
    const outer = jsxStyle(paddingDeclaration(addSpacing(p.margin, p.padding)));
    return `<Section${jsxClass(ctx.className)} style={${outer}}><Hr style={${jsxStyle(lineDeclarations(p))}} /></Section>`;
  },
});
