import * as z from "zod/mini";
import { parseMergeTags } from "../../data/merge-tags.js";
import { fontStack } from "../../markup/fonts.js";
import { linked, textParagraphs } from "../../markup/html-to-text.js";
import { cssNumber, cssText, type Declarations, jsxStyle, px, spacing } from "../../markup/style.js";
import { roundRect } from "../../markup/vml.js";
import {
  activeGradient,
  borderSchema,
  commonBlockFields,
  defaultedAlign,
  defaultedColor,
  emptyByDefault,
  falseByDefault,
  fontFamilySchema,
  fontWeightSchema,
  gradientSchema,
  mobileOverridesSchema,
  nonNegative,
  optionalDirectionSchema,
  toMjmlColor,
} from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { buttonDarkSchema } from "../../schema/dark.js";
import { darkColors, directionField, field, fontFamilyField, fontWeightField, spacingGroup, visibilityGroup } from "../../schema/editor.js";
import { numberSchema, stringSchema } from "../../schema/leaves.js";
import { type BlockRenderContext, defineBlock, finding } from "../block.js";
import { gradientStops, isBold } from "../reading.js";
import {
  attrs,
  dirAttribute,
  fontStackValue,
  htmlClass,
  ICON_SIZE_ON_PHONES,
  isBlank,
  jsxClass,
  ownAttr,
  paddingDeclaration,
  textDirection,
  unchangedOf,
  withDir,
} from "../shared.js";

export const buttonProps = () =>
  z.object({
    text: constantDefault(stringSchema, "Click Me"),
    direction: optionalDirectionSchema(),
    link: emptyByDefault,
    backgroundColor: defaultedColor("#007bff"),
    backgroundGradient: gradientSchema(),
    color: defaultedColor("#fafafa"),
    fontSize: nonNegative(16),
    fontWeight: constantDefault(fontWeightSchema, "bold"),
    fontFamily: constantDefault(fontFamilySchema, "Arial"),
    lineHeight: nonNegative(1.2),
    letterSpacing: constantDefault(numberSchema, 0),
    borderRadius: nonNegative(4),
    border: borderSchema,
    align: defaultedAlign("center"),
    /** Full-width button instead of fitting its text. */
    fullWidth: falseByDefault,
    icon: emptyByDefault,
    iconAlt: emptyByDefault,
    iconPosition: constantDefault(z.enum(["before", "after"]), "before"),
    iconSize: nonNegative(20),
    iconGap: nonNegative(8),
    // A button's `padding` is the space inside it; `margin` is the space around it.
    ...commonBlockFields({ padding: { top: 12, right: 24, bottom: 12, left: 24 } }),
    mobile: mobileOverridesSchema(),
    dark: buttonDarkSchema(),
  });
type ButtonProps = z.output<ReturnType<typeof buttonProps>>;

function gradient(p: ButtonProps): string | undefined {
  return activeGradient(p.backgroundGradient) ? p.backgroundGradient.css : undefined;
}

/** The solid colour: the gradient's fallback under a gradient, else the button's colour. */
function solidColor(p: ButtonProps): string {
  return (activeGradient(p.backgroundGradient) && p.backgroundGradient.fallback) || p.backgroundColor;
}

/** No link, no `href`: mjml then renders a plain label, and the other targets do the same. */
function href(p: ButtonProps, ctx: BlockRenderContext): string {
  return p.link === "" ? "" : ` href="${ctx.out.url(p.link)}"`;
}

function borderValue(p: ButtonProps): string | undefined {
  return p.border.width > 0 ? `${px(p.border.width)} ${p.border.style} ${p.border.color}` : undefined;
}

function labelDeclarations(p: ButtonProps, ctx: BlockRenderContext): Declarations {
  ctx.fonts.add(p.fontFamily);
  return [
    ["color", p.color],
    ["font-family", fontStack(p.fontFamily)],
    ["font-size", px(p.fontSize)],
    ["font-weight", p.fontWeight],
    ["line-height", cssNumber(p.lineHeight)],
    ...(p.letterSpacing !== 0 ? ([["letter-spacing", px(p.letterSpacing)]] as const) : []),
    ["text-decoration", "none"],
  ];
}

/**
 * `labelDeclarations` without `text-decoration` (a <center> is no link: no underline to take off),
 * as CSS text: written, not declaration arrays filtered and joined (in QuickJS ~45 K instructions a button).
 */
function centerStyle(p: ButtonProps, ctx: BlockRenderContext): string {
  ctx.fonts.add(p.fontFamily);
  const letterSpacing = p.letterSpacing !== 0 ? ";letter-spacing:" + px(p.letterSpacing) : "";
  return (
    "color:" +
    p.color +
    ";font-family:" +
    fontStack(p.fontFamily) +
    ";font-size:" +
    px(p.fontSize) +
    ";font-weight:" +
    p.fontWeight +
    ";line-height:" +
    cssNumber(p.lineHeight) +
    letterSpacing
  );
}

/** The optional icon, markup or JSX; the label is passed in already emitted. */
/** The side of an icon facing the label, by the icon's place and the label's direction. */
const ICON_GAP_SIDE = {
  before: { ltr: "margin-right", rtl: "margin-left", auto: "margin-inline-end" },
  after: { ltr: "margin-left", rtl: "margin-right", auto: "margin-inline-start" },
} as const;

function withIcon(p: ButtonProps, ctx: BlockRenderContext, label: string, tag: "img" | "Img"): string {
  if (!p.icon) return label;
  const gap = [ICON_GAP_SIDE[p.iconPosition][textDirection(p, ctx)], px(p.iconGap)] as const;
  const decls: Declarations = [["display", "inline-block"], ["vertical-align", "middle"], ["border", "0"], gap];
  const style = tag === "img" ? ` style="${cssText(decls)}"` : ` style={${jsxStyle(decls)}}`;
  const size = ` width="${p.iconSize}" height="${p.iconSize}"`;
  const icon = `<${tag} src="${ctx.out.url(p.icon)}" alt="${ctx.out.attr(p.iconAlt)}"${size}${style}${tag === "img" ? ">" : " />"}`;
  const text = `<span style${tag === "img" ? `="vertical-align:middle"` : `={{ verticalAlign: "middle" }}`}>${label}</span>`;
  return p.iconPosition === "before" ? icon + text : text + icon;
}

/** The block's classes and its own class, once when they are the same (no Set, spread and filter per button). */
function withOwnClass(className: string, uid: string): string {
  return className === "" || className === uid ? uid : `${className} ${uid}`;
}

/** An average glyph's width in ems (Arial; bold a little wider), to size Outlook's button, which cannot fit its label. */
const GLYPH_EM = { normal: 0.55, bold: 0.6 };
/** The characters a merge tag without a default is counted as: a first name, an order number. */
const TAG_CHARS = 8;

const SURROGATE = /[\uD800-\uDFFF]/;

/** A text's length in characters (code points): without an array of them where it has no surrogate pair (QuickJS iterates a spread a character at a time). */
function codePoints(text: string): number {
  return SURROGATE.test(text) ? [...text].length : text.length;
}

/** The label's length in characters as a recipient reads it: a merge tag as its default, else as a short word. */
function labelChars(text: string): number {
  const parts = parseMergeTags(text);
  let n = 0;
  // An index loop, not `reduce`: a callback per part is a call in QuickJS.
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    n += typeof part === "string" ? codePoints(part) : part.fallback === undefined ? TAG_CHARS : codePoints(part.fallback);
  }
  return n;
}

/**
 * The button as Outlook on Windows draws it (`markup/vml.ts`), or "" where Word's own rendering is
 * right: a square button in one colour. A VML shape needs a size: the HTML button's, its label's
 * width estimated from its characters for one that fits its label (a longer recipient value wraps
 * inside it), the column's for a full-width one. Hidden on desktops, it has none.
 */
function outlookButton(p: ButtonProps, ctx: BlockRenderContext, link: string, labelMarkup: string): string {
  const gradient = activeGradient(p.backgroundGradient) ? p.backgroundGradient.linear : undefined;
  if ((p.borderRadius <= 0 && gradient === undefined) || p.desktopHide) return "";
  const border = p.border.width;
  const available = Math.max(1, ctx.width - p.margin.left - p.margin.right);
  const icon = p.icon ? p.iconSize + p.iconGap : 0;
  const label = labelChars(p.text) * (p.fontSize * GLYPH_EM[isBold(p.fontWeight) ? "bold" : "normal"] + p.letterSpacing);
  const width = p.fullWidth ? available : Math.min(available, Math.ceil(label + icon + p.padding.left + p.padding.right + 2 * border));
  const height = Math.ceil(Math.max(p.fontSize * p.lineHeight, p.icon ? p.iconSize : 0) + p.padding.top + p.padding.bottom + 2 * border);
  return roundRect({
    href: link,
    width,
    height,
    radius: p.borderRadius,
    fill: solidColor(p),
    gradient,
    border: border > 0 ? { width: border, color: p.border.color } : undefined,
    // A <center> is no link: no underline to take off.
    style: centerStyle(p, ctx),
    label: labelMarkup,
  });
}

export const button = defineBlock({
  type: "button",
  props: buttonProps,
  editor: () => ({
    label: "Button",
    description: "A link drawn as a button: a label on a colour or gradient, with an optional icon.",
    groups: [
      {
        id: "content",
        label: "Content",
        fields: [
          field.text("text", "Label"),
          directionField(),
          field.url("link", "Link"),
          field.imageUrl("icon", "Icon", { hint: "An image beside the label (optional)" }),
          field.text("iconAlt", "Icon alt text", { hint: "Empty when the icon is decorative" }),
          field.enum("iconPosition", "Icon position", [
            { value: "before", label: "Before the label" },
            { value: "after", label: "After the label" },
          ]),
          field.px("iconSize", "Icon size", 12, 64, { phone: true }),
          field.px("iconGap", "Space between icon and label", 0, 32),
        ],
      },
      {
        id: "typography",
        label: "Typography",
        fields: [
          fontFamilyField(),
          field.px("fontSize", "Font size", 8, 72, { phone: true }),
          field.number("lineHeight", "Line height", "", { min: 0.8, max: 3, step: 0.1 }, { phone: true }),
          fontWeightField(),
          field.number("letterSpacing", "Letter spacing", "px", { min: -2, max: 10, step: 0.5 }, { phone: true }),
          field.color("color", "Label colour", { phone: true, dark: "color" }),
        ],
      },
      {
        id: "appearance",
        label: "Appearance",
        fields: [
          field.color("backgroundColor", "Colour", { phone: true, dark: "backgroundColor" }),
          field.gradient("backgroundGradient", "Gradient", { phone: true, dark: "backgroundGradient" }),
          field.px("borderRadius", "Corner radius", 0, 100, { phone: true }),
          field.border("border", "Border", { phone: true, dark: "borderColor" }),
        ],
      },
      {
        id: "layout",
        label: "Layout",
        fields: [field.align(), field.boolean("fullWidth", "Full width", { hint: "As wide as the column instead of its label" })],
      },
      spacingGroup({ margin: "Space around the button", padding: "Space inside the button, around its label" }),
      visibilityGroup(),
    ],
    dark: darkColors("color", "backgroundColor", "backgroundGradient", "borderColor"),
  }),
  example: { text: "Track your order", link: "https://example.com/orders/{{ order_id }}" },
  check: (p) => [
    ...(isBlank(p.text)
      ? [finding("error", "BUTTON_LABEL_MISSING", ["text"], p.text, "The button has no label", 'Write what it does, e.g. "Track your order"')]
      : []),
    ...(p.link === ""
      ? [finding("error", "BUTTON_LINK_MISSING", ["link"], p.link, "The button has no link: it is drawn, and goes nowhere", "Give it the URL it should open")]
      : []),
  ],
  codes: {
    BUTTON_LABEL_MISSING: { severity: "error", summary: "A button without a label" },
    BUTTON_LINK_MISSING: { severity: "error", summary: "A button without a link" },
  },
  reading: (p) => ({
    text: [
      {
        path: ["color"],
        sizePath: ["fontSize"],
        color: p.color,
        fontSize: p.fontSize,
        bold: isBold(p.fontWeight),
        background: { color: solidColor(p), stops: gradient(p) ? gradientStops(p.backgroundGradient.css) : [] },
      },
    ],
    urls: [{ path: ["link"], url: p.link, kind: "link" }, ...(p.icon === "" ? [] : [{ path: ["icon"], url: p.icon, kind: "image" as const }])],
  }),
  text: (p, values) => textParagraphs(linked(values.text(p.text), values.url(p.link))),
  // Painted in colours of its own on its cell and link; its padding is inside it, on the link, and
  // its border on the cell (React Email's Button is the link alone).
  dark: { background: "& table td,& a", ownColors: true, border: "& table td,& a" },
  phone: {
    surface: "& table td,& a",
    padding: "& a",
    border: { mjml: "& table td", html: "& table td", jsx: "& a" },
    props: { iconSize: ICON_SIZE_ON_PHONES },
  },
  mjml(p, ctx) {
    ctx.fonts.add(p.fontFamily);
    // mj-button has no gradient attribute: the gradient goes in head CSS over the solid fallback.
    const background = gradient(p);
    if (background) ctx.headCss.push(`.${ctx.uid} td,.${ctx.uid} a{background-image:${background} !important}`);
    const fill = toMjmlColor(solidColor(p));
    // mj-button paints its colour on the cell and again on the link: a translucent one only once.
    const translucent = !background && /^rgba\(.*,(0(\.\d+)?|\.\d+)\)$/.test(fill);
    if (translucent) ctx.headCss.push(`.${ctx.uid} a{background:none !important}`);
    const border = p.border.width > 0 ? `${px(p.border.width)} ${p.border.style} ${toMjmlColor(p.border.color)}` : undefined;
    // Outlook's button in a row of the column's table of its own, the HTML button hidden from Outlook;
    // its cell's attributes written as they are (a keyword and our own lengths: nothing to escape).
    // The link and the label emitted once for both buttons (the same text): half the escaping and merge tag slots.
    const link = href(p, ctx);
    const label = withIcon(p, ctx, ctx.out.text(p.text), "img");
    const outlook = outlookButton(p, ctx, link, label);
    const before = outlook
      ? `<mj-raw><!--[if mso]><tr><td align="${p.align}" style="padding:${spacing(p.margin)}">${outlook}</td></tr><![endif]--><!--[if !mso]><!--></mj-raw>`
      : "";
    // An attribute at a time (`attr`): cheaper in QuickJS than a literal enumerated by `mjmlAttrs`.
    const u = unchangedOf("mj-button");
    const attributes =
      ownAttr("background-color", fill, u) +
      ownAttr("color", toMjmlColor(p.color), u) +
      ownAttr("font-family", fontStackValue(p.fontFamily), u) +
      ownAttr("font-size", px(p.fontSize), u) +
      ownAttr("font-weight", p.fontWeight, u) +
      ownAttr("line-height", cssNumber(p.lineHeight), u) +
      ownAttr("letter-spacing", p.letterSpacing !== 0 ? px(p.letterSpacing) : undefined, u) +
      ownAttr("inner-padding", spacing(p.padding), u) +
      ownAttr("border-radius", px(p.borderRadius), u) +
      ownAttr("border", border, u) +
      ownAttr("width", p.fullWidth ? "100%" : undefined, u) +
      ownAttr("align", p.align, u) +
      ownAttr("padding", spacing(p.margin), u) +
      ownAttr("target", "_blank", u) +
      ownAttr("css-class", background || translucent ? withOwnClass(ctx.className, ctx.uid) : ctx.className, u);
    return `${before}<mj-button${link}${attributes}>${withDir(label, dirAttribute(p, ctx))}</mj-button>${outlook ? "<mj-raw><!--<![endif]--></mj-raw>" : ""}`;
  },
  html(p, ctx) {
    const background = gradient(p);
    const cell = cssText([
      ["border-radius", px(p.borderRadius)],
      ["background-color", solidColor(p)],
      ...(background ? ([["background-image", background]] as const) : []),
      ...(borderValue(p) ? ([["border", borderValue(p) as string]] as const) : []),
    ]);
    const link = cssText([["display", "inline-block"], ["padding", spacing(p.padding)], ...labelDeclarations(p, ctx), ["border-radius", px(p.borderRadius)]]);
    const outer = cssText([["text-align", p.align], ...paddingDeclaration(p.margin)]);
    const linkHref = href(p, ctx);
    const label = withIcon(p, ctx, ctx.out.text(p.text), "img");
    const outlook = outlookButton(p, ctx, linkHref, label);
    return (
      `<div${htmlClass(ctx.className)}${attrs({ style: outer })}>` +
      (outlook ? `<!--[if mso]>${outlook}<![endif]--><!--[if !mso]><!-->` : "") +
      `<table role="presentation" border="0" cellpadding="0" cellspacing="0"${attrs({ align: p.align, width: p.fullWidth ? "100%" : undefined })} style="border-collapse:separate">` +
      `<tr><td align="center"${attrs({ style: cell })}>` +
      `<a${linkHref} target="_blank"${attrs({ dir: dirAttribute(p, ctx), style: link })}>${label}</a>` +
      `</td></tr></table>${outlook ? "<!--<![endif]-->" : ""}</div>`
    );
  },
  jsx(p, ctx) {
    const background = gradient(p);
    const style: Declarations = [
      ...labelDeclarations(p, ctx),
      ["background-color", solidColor(p)],
      ...(background ? ([["background-image", background]] as const) : []),
      ["border-radius", px(p.borderRadius)],
      ...(borderValue(p) ? ([["border", borderValue(p) as string]] as const) : []),
      ["padding", spacing(p.padding)],
      ...(p.fullWidth
        ? ([
            ["display", "block"],
            ["text-align", "center"],
          ] as const)
        : []),
    ];
    const outer = jsxStyle([["text-align", p.align], ...paddingDeclaration(p.margin)]);
    return `<Section${jsxClass(ctx.className)} style={${outer}}><Button${href(p, ctx)} target="_blank"${attrs({ dir: dirAttribute(p, ctx) })} style={${jsxStyle(style)}}>${withIcon(p, ctx, ctx.out.text(p.text), "Img")}</Button></Section>`;
  },
});
