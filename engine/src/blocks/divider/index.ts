import * as z from "zod/mini";
import { cssText, jsxStyle, px, spacingSum } from "../../markup/style.js";
import {
  activeGradient,
  commonBlockFields,
  defaultedAlign,
  defaultedColor,
  defaultedPercent,
  gradientSchema,
  mobileOverridesSchema,
  nonNegative,
  toMjmlColor,
} from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { surfaceDarkSchema } from "../../schema/dark.js";
import { darkColors, field, spacingGroup, visibilityGroup } from "../../schema/editor.js";
import { defineBlock } from "../block.js";
import { addSpacing, attrs, htmlClass, jsxClass, ownAttr, paddingDeclaration, unchangedOf } from "../shared.js";

export const dividerProps = () =>
  z.object({
    backgroundColor: defaultedColor("#cccccc"),
    /** The line drawn as a gradient (a bar of the line's height) over the solid line colour. */
    backgroundGradient: gradientSchema(),
    height: nonNegative(1),
    width: defaultedPercent(100),
    borderStyle: constantDefault(z.enum(["solid", "dashed", "dotted"]), "solid"),
    align: defaultedAlign("center"),
    ...commonBlockFields({ margin: { top: 20, right: 0, bottom: 20, left: 0 }, padding: { top: 5, right: 0, bottom: 5, left: 0 } }),
    mobile: mobileOverridesSchema(),
    dark: surfaceDarkSchema(),
  });

type DividerProps = z.output<ReturnType<typeof dividerProps>>;

function lineDeclarations(p: DividerProps): Array<readonly [string, string]> {
  const margin = p.align === "center" ? "0 auto" : p.align === "right" ? "0 0 0 auto" : "0";
  if (activeGradient(p.backgroundGradient)) {
    return [
      ["border", "none"],
      ["height", px(p.height)],
      ["background-color", p.backgroundGradient.fallback ?? p.backgroundColor],
      ["background-image", p.backgroundGradient.css],
      ["width", `${p.width}%`],
      ["margin", margin],
      ["font-size", "1px"],
      ["line-height", "1px"],
    ];
  }
  return [
    ["border", "none"],
    ["border-top", `${px(p.height)} ${p.borderStyle} ${p.backgroundColor}`],
    ["width", `${p.width}%`],
    ["margin", margin],
    ["font-size", "1px"],
    ["line-height", "1px"],
  ];
}

/** The element that draws the line: mj-divider's and the nested html's `<p>`, React Email's `<Hr>`. */
const LINE = { mjml: "& p", html: "& p", jsx: "& hr" } as const;

export const divider = defineBlock({
  type: "divider",
  props: dividerProps,
  // The editor offers a thickness and a width on phones, which this engine does not apply.
  editorKeys: { mobile: ["height", "width"] },
  editor: () => ({
    label: "Divider",
    description: "A horizontal line.",
    groups: [
      {
        id: "appearance",
        label: "Appearance",
        fields: [
          field.color("backgroundColor", "Line colour", { phone: true, dark: "backgroundColor" }),
          field.gradient("backgroundGradient", "Line gradient", { phone: true, dark: "backgroundGradient", hint: "Drawn as a bar of the line's thickness" }),
          field.px("height", "Thickness", 1, 20),
          field.enum("borderStyle", "Style", [
            { value: "solid", label: "Solid" },
            { value: "dashed", label: "Dashed" },
            { value: "dotted", label: "Dotted" },
          ]),
        ],
      },
      {
        id: "layout",
        label: "Layout",
        fields: [field.number("width", "Width", "%", { min: 1, max: 100, step: 1 }, { hint: "Of the column" }), field.align({ phone: false })],
      },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("backgroundColor", "backgroundGradient"),
  }),
  example: { backgroundColor: "#e5e7eb", width: 80 },
  text: () => [{ first: "", rest: "", text: "---" }],
  // Its background colour is the line's.
  dark: { line: "& p,& hr" },
  phone: { surface: LINE, line: LINE },
  mjml(p, ctx) {
    // mj-divider draws a border line; a gradient replaces it with a bar of the same height (head CSS).
    const gradient = activeGradient(p.backgroundGradient);
    if (gradient)
      ctx.headCss.push(
        `.${ctx.uid} p{border-top-color:transparent !important;border-top-width:0 !important;height:${px(p.height)} !important;background-image:${p.backgroundGradient.css} !important}`,
      );
    // An attribute at a time (`ownAttr`: a colour, our own lengths, keywords and classes): no object
    // literal for `mjmlAttrs` to enumerate (QuickJS).
    const u = unchangedOf("mj-divider");
    const attributes =
      ownAttr("border-color", toMjmlColor(gradient ? (p.backgroundGradient.fallback ?? p.backgroundColor) : p.backgroundColor), u) +
      ownAttr("border-width", px(p.height), u) +
      ownAttr("border-style", p.borderStyle, u) +
      ownAttr("width", `${p.width}%`, u) +
      ownAttr("align", p.align, u) +
      ownAttr("padding", spacingSum(p.margin, p.padding), u) +
      ownAttr("css-class", gradient && !ctx.className.split(" ").includes(ctx.uid) ? [ctx.className, ctx.uid].filter(Boolean).join(" ") : ctx.className, u);
    return `<mj-divider${attributes} />`;
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
