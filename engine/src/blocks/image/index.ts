import * as z from "zod/mini";
import { linked, textParagraphs } from "../../markup/html-to-text.js";
import { cssText, type Declarations, jsxStyle, px, spacingSum } from "../../markup/style.js";
import {
  autoOrPxHeight,
  borderSchema,
  commonBlockFields,
  defaultedAlign,
  defaultedPercent,
  emptyByDefault,
  falseByDefault,
  mobileOverridesSchema,
  nonNegative,
  toMjmlColor,
} from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { frameDarkSchema } from "../../schema/dark.js";
import { darkColors, field, frameGroup, spacingGroup, visibilityGroup } from "../../schema/editor.js";
import { stringSchema } from "../../schema/leaves.js";
import { type BlockRenderContext, defineBlock, finding } from "../block.js";
import { addSpacing, attrs, htmlClass, jsxClass, mjmlAlt, ownAttr, paddingDeclaration, unchangedOf } from "../shared.js";

/** The alt text of an image whose author wrote none. */
const IMAGE_ALT_PLACEHOLDER = "Image";
/** `IMG_2031.jpg`, `hero-banner.png`: an alt text that is only a file name. */
const FILE_NAME = /^[\w.-]+\.(?:png|jpe?g|gif|webp|svg|bmp|tiff?|avif|heic)$/i;

export const imageProps = () =>
  z.object({
    src: emptyByDefault,
    alt: constantDefault(stringSchema, IMAGE_ALT_PLACEHOLDER),
    /** Percentage of the column's width. */
    width: defaultedPercent(100),
    /** `auto` or a height in px. */
    height: autoOrPxHeight(),
    align: defaultedAlign("center"),
    link: emptyByDefault,
    /** Whether `link` wraps the image. */
    enabled: falseByDefault,
    borderRadius: nonNegative(0),
    border: borderSchema,
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: frameDarkSchema(),
  });
type ImageProps = z.output<ReturnType<typeof imageProps>>;

function pixelWidth(p: ImageProps, ctx: BlockRenderContext): number {
  const available = ctx.width - p.margin.left - p.margin.right - p.padding.left - p.padding.right;
  return Math.max(1, Math.round((available * p.width) / 100));
}

function imgDeclarations(p: ImageProps, width: number): Declarations {
  const decls: Declarations = [
    ["display", "block"],
    ["outline", "none"],
    ["border", p.border.width > 0 ? `${px(p.border.width)} ${p.border.style} ${p.border.color}` : "none"],
    ["text-decoration", "none"],
    ["width", "100%"],
    ["max-width", px(width)],
    ["height", p.height === "auto" ? "auto" : px(p.height)],
  ];
  if (p.borderRadius > 0) decls.push(["border-radius", px(p.borderRadius)]);
  if (p.align === "center") decls.push(["margin", "0 auto"]);
  else if (p.align === "right") decls.push(["margin", "0 0 0 auto"]);
  return decls;
}

/**
 * mj-image fixes its cell at the image's width, wider than a phone for a large image: such an image
 * fills its column on phones instead. A small one (a logo, an icon) keeps its size, and so does one
 * with a fixed height, which would be distorted.
 */
const FLUID_FROM_PX = 200;
const fluidOnMobile = (p: ImageProps, width: number) => width > FLUID_FROM_PX && p.height === "auto" && p.mobile?.["width"] === undefined;

const hasLink = (p: ImageProps) => p.enabled && p.link !== "";

export const image = defineBlock({
  type: "image",
  props: imageProps,
  editor: () => ({
    label: "Image",
    description: "An image, optionally a link.",
    groups: [
      {
        id: "content",
        label: "Content",
        fields: [
          field.imageUrl("src", "Image"),
          field.text("alt", "Alt text", { hint: "What the image shows, for screen readers and when images are off; empty when it is decorative" }),
          field.boolean("enabled", "Link the image"),
          field.url("link", "Link"),
        ],
      },
      {
        id: "layout",
        label: "Layout",
        fields: [
          field.number("width", "Width", "%", { min: 1, max: 100, step: 1 }, { hint: "Of the column", phone: true }),
          field.number("height", "Height", "px", { min: 10, max: 1000, step: 1, auto: true }, { hint: "auto keeps the image's proportions" }),
          field.align(),
        ],
      },
      frameGroup(),
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("borderColor"),
  }),
  example: { src: "https://example.com/images/parcel.png", alt: "A parcel on a doorstep", width: 60 },
  check: (p) => [
    ...(p.src === ""
      ? [finding("error", "IMAGE_SOURCE_MISSING", ["src"], p.src, "The image has no source: it is left out of the email", "Give it the image's URL")]
      : []),
    ...(p.alt === IMAGE_ALT_PLACEHOLDER
      ? [
          finding(
            "warning",
            "IMAGE_ALT_PLACEHOLDER",
            ["alt"],
            p.alt,
            `The alt text is the placeholder "${IMAGE_ALT_PLACEHOLDER}": it says nothing to a reader who cannot see the image`,
            "Describe what the image shows, or set it to an empty text if the image is decorative",
          ),
        ]
      : []),
    ...(FILE_NAME.test(p.alt.trim())
      ? [
          finding(
            "warning",
            "IMAGE_ALT_FILE_NAME",
            ["alt"],
            p.alt,
            `The alt text "${p.alt.trim()}" is a file name: a screen reader reads it out, and it says nothing about the image`,
            "Describe what the image shows, or set it to an empty text if the image is decorative",
          ),
        ]
      : []),
    ...(p.enabled && p.link === ""
      ? [finding("warning", "IMAGE_LINK_MISSING", ["link"], p.link, "The image is set to be a link but has no URL", "Give it the URL, or switch the link off")]
      : []),
  ],
  codes: {
    IMAGE_SOURCE_MISSING: { severity: "error", summary: "An image without a source" },
    IMAGE_ALT_PLACEHOLDER: { severity: "warning", summary: 'An image whose alt text is the placeholder "Image"' },
    IMAGE_ALT_FILE_NAME: { severity: "warning", summary: "An image whose alt text is a file name" },
    IMAGE_LINK_MISSING: { severity: "warning", summary: "An image set to be a link, without a URL" },
  },
  reading: (p) => ({
    urls: [{ path: ["src"], url: p.src, kind: "image" }, ...(p.enabled ? [{ path: ["link"], url: p.link, kind: "link" as const }] : [])],
  }),
  // The editor offers a height on phones, which this engine does not apply (the image keeps its proportions).
  editorKeys: { mobile: ["height"] },
  // An image without a source is left out (`<img src="">` is a broken image, or a second request for
  // the page in a browser); the checks report it (IMAGE_SOURCE_MISSING). A source from a merge tag
  // is the recipient's, decided at substitution.
  text: (p, values) => (p.src === "" ? [] : textParagraphs(linked(values.text(p.alt), p.enabled ? values.url(p.link) : ""))),
  dark: { border: "& img" },
  phone: {
    surface: "& img",
    // A fluid image fills its column on phones: its border goes inside that width.
    borderInsideWidth: true,
    props: {
      // mj-image sizes the image by its inner table and that table's cell (its css-class is on the
      // cell around the table); plain HTML sizes the <img> itself.
      width: {
        unit: "%",
        declarations: (value, renderer) =>
          renderer === "mjml"
            ? [
                ["& table", "width", value],
                ["& td", "width", "auto"],
              ]
            : [
                ["& img", "width", value],
                ["& img", "max-width", value],
              ],
      },
    },
  },
  mjml(p, ctx) {
    if (p.src === "") return "";
    const width = pixelWidth(p, ctx);
    const border = p.border.width > 0 ? `${px(p.border.width)} ${p.border.style} ${toMjmlColor(p.border.color)}` : undefined;
    // mj-image draws the border outside its width: the image is narrower by it, so that both fit.
    const borders = 2 * p.border.width;
    const fluid = fluidOnMobile(p, width);
    let className = ctx.className;
    if (fluid && borders > 0) {
      className = `${className} ${ctx.uid}`.trim();
      ctx.mobileCss.push(`.${ctx.uid} img{width:calc(100% - ${px(borders)}) !important}`);
    }
    // An attribute at a time (`attr`): cheaper in QuickJS than a literal enumerated by `mjmlAttrs`.
    const u = unchangedOf("mj-image");
    const attributes =
      ownAttr("width", px(Math.max(1, width - borders)), u) +
      ownAttr("height", p.height === "auto" ? undefined : px(p.height), u) +
      ownAttr("align", p.align, u) +
      ownAttr("border-radius", p.borderRadius > 0 ? px(p.borderRadius) : undefined, u) +
      ownAttr("border", border, u) +
      ownAttr("padding", spacingSum(p.margin, p.padding), u) +
      ownAttr("css-class", className, u) +
      ownAttr("fluid-on-mobile", fluid ? "true" : undefined, u);
    return `<mj-image src="${ctx.out.url(p.src)}"${mjmlAlt(ctx.out.attr(p.alt))}${hasLink(p) ? ` href="${ctx.out.url(p.link)}"` : ""}${attributes} />`;
  },
  html(p, ctx) {
    if (p.src === "") return "";
    const width = pixelWidth(p, ctx);
    const img = `<img src="${ctx.out.url(p.src)}" alt="${ctx.out.attr(p.alt)}" width="${width}"${attrs({ style: cssText(imgDeclarations(p, width)) })}>`;
    const linked = hasLink(p) ? `<a href="${ctx.out.url(p.link)}" target="_blank">${img}</a>` : img;
    const outer = cssText([["text-align", p.align], ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ style: outer })}>${linked}</div>`;
  },
  jsx(p, ctx) {
    if (p.src === "") return "";
    const width = pixelWidth(p, ctx);
    const img = `<Img src="${ctx.out.url(p.src)}" alt="${ctx.out.attr(p.alt)}" width="${width}" style={${jsxStyle(imgDeclarations(p, width))}} />`;
    const linked = hasLink(p) ? `<Link href="${ctx.out.url(p.link)}" target="_blank">${img}</Link>` : img;
    const outer = jsxStyle([["text-align", p.align], ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<Section${jsxClass(ctx.className)} style={${outer}}>${linked}</Section>`;
  },
});
