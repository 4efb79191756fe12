import * as z from "zod/mini";
import { encodeUnsafeUrlCharsOutsideTags } from "../../data/escape.js";
import { hasMergeTags } from "../../data/merge-tags.js";
import { linked, textParagraphs } from "../../markup/html-to-text.js";
import { cssText, type Declarations, jsxStyle, px, spacingSum } from "../../markup/style.js";
import {
  autoOrPxHeight,
  borderSchema,
  commonBlockFields,
  defaultedAlign,
  defaultedPercent,
  emptyByDefault,
  mobileOverridesSchema,
  nonNegative,
} from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { frameDarkSchema } from "../../schema/dark.js";
import { darkColors, field, frameGroup, spacingGroup, visibilityGroup } from "../../schema/editor.js";
import { stringSchema } from "../../schema/leaves.js";
import { type BlockRenderContext, defineBlock, finding } from "../block.js";
import { addSpacing, attrs, htmlClass, jsxClass, mjmlAttrs, paddingDeclaration } from "../shared.js";

export const videoProps = () =>
  z.object({
    /** The video's page (YouTube, Vimeo, …): email cannot play video, so the thumbnail links to it. */
    src: emptyByDefault,
    coverImage: emptyByDefault,
    /** Where the thumbnail links when `src` is empty. */
    fallbackLink: emptyByDefault,
    alt: constantDefault(stringSchema, "Watch video"),
    width: defaultedPercent(100),
    /** `auto` (16:9 of the width) or a height in px. */
    height: autoOrPxHeight(),
    borderRadius: nonNegative(0),
    border: borderSchema,
    align: defaultedAlign("center"),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: frameDarkSchema(),
  });
type VideoProps = z.output<ReturnType<typeof videoProps>>;

function geometry(p: VideoProps, ctx: BlockRenderContext) {
  const available = ctx.width - p.margin.left - p.margin.right - p.padding.left - p.padding.right;
  const width = Math.max(1, Math.round((available * p.width) / 100));
  return { width, height: p.height === "auto" ? Math.round((width * 9) / 16) : Math.round(p.height) };
}

/** A 16:9 box showing the cover as its background with a centred play badge: no image hosting needed. */
function frameDeclarations(p: VideoProps, cover: string | undefined, width: number, height: number): Declarations {
  const align = p.align;
  const margin = align === "center" ? "0 auto" : align === "right" ? "0 0 0 auto" : "0";
  const decls: Declarations = [
    // Its width attribute sizes it in Outlook; elsewhere it narrows to fit a phone.
    ["width", "100%"],
    ["max-width", px(width)],
    ["height", px(height)],
    ["margin", margin],
    ["background-color", "#000000"],
  ];
  if (cover !== undefined) decls.push(["background-image", `url('${cover}')`]);
  decls.push(["background-size", "cover"], ["background-position", "center center"], ["background-repeat", "no-repeat"]);
  if (p.borderRadius > 0) decls.push(["border-radius", px(p.borderRadius)]);
  if (p.border.width > 0) decls.push(["border", `${px(p.border.width)} ${p.border.style} ${p.border.color}`]);
  return decls;
}

const BADGE: Declarations = [
  ["display", "inline-block"],
  ["width", "64px"],
  ["height", "64px"],
  ["line-height", "64px"],
  ["border-radius", "32px"],
  ["background-color", "rgba(0,0,0,0.6)"],
  ["color", "#ffffff"],
  ["font-size", "28px"],
  ["font-family", "Arial, Helvetica, sans-serif"],
  ["text-align", "center"],
  ["text-decoration", "none"],
];

function videoMarkup(p: VideoProps, ctx: BlockRenderContext): string {
  const { width, height } = geometry(p, ctx);
  const cover = ctx.out.url(encodeUnsafeUrlCharsOutsideTags(p.coverImage));
  const link = ctx.out.url(p.src || p.fallbackLink);
  const alt = ctx.out.attr(p.alt);
  const frame = cssText(frameDeclarations(p, cover, width, height));
  return (
    `<a href="${link}" target="_blank" title="${alt}" style="display:block;text-decoration:none">` +
    `<table role="presentation" border="0" cellpadding="0" cellspacing="0" width="${width}" background="${cover}" style="${frame}">` +
    `<tr><td align="center" valign="middle" height="${height}" style="height:${px(height)};text-align:center">` +
    `<span style="${cssText(BADGE)}">&#9654;</span><span style="display:none">${alt}</span>` +
    `</td></tr></table></a>`
  );
}

export const video = defineBlock({
  type: "video",
  props: videoProps,
  editor: () => ({
    label: "Video",
    description: "A video's thumbnail with a play badge, linking to the video's page (email cannot play video).",
    groups: [
      {
        id: "content",
        label: "Content",
        fields: [
          field.url("src", "Video page", { hint: "YouTube, Vimeo, …: where the thumbnail links" }),
          field.imageUrl("coverImage", "Thumbnail"),
          field.url("fallbackLink", "Link without a video page", { hint: "Where the thumbnail links when the video page is empty" }),
          field.text("alt", "Title", { hint: "The link's title, read by screen readers and in the plain-text version" }),
        ],
      },
      {
        id: "layout",
        label: "Layout",
        fields: [
          field.number("width", "Width", "%", { min: 1, max: 100, step: 1 }, { hint: "Of the column" }),
          field.number("height", "Height", "px", { min: 10, max: 1000, step: 1, auto: true }, { hint: "auto is 16:9 of the width" }),
          field.align(),
        ],
      },
      frameGroup(),
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("borderColor"),
  }),
  example: { src: "https://example.com/videos/unboxing", coverImage: "https://example.com/images/unboxing.jpg", alt: "Watch the unboxing (2 min)" },
  check: (p) => [
    ...(p.src === "" && p.fallbackLink === ""
      ? [
          finding(
            "error",
            "VIDEO_LINK_MISSING",
            ["src"],
            p.src,
            "The video links nowhere: its page and its fallback link are empty",
            "Give it the video's page",
          ),
        ]
      : []),
    ...(p.coverImage === ""
      ? [
          finding(
            "warning",
            "VIDEO_COVER_MISSING",
            ["coverImage"],
            p.coverImage,
            "The video has no thumbnail: a black box with a play badge is shown",
            "Give it a thumbnail image",
          ),
        ]
      : []),
  ],
  codes: {
    VIDEO_LINK_MISSING: { severity: "error", summary: "A video without its page or a fallback link" },
    VIDEO_COVER_MISSING: { severity: "warning", summary: "A video without a thumbnail" },
  },
  reading: (p) => ({
    urls: [
      p.src === "" ? { path: ["fallbackLink"], url: p.fallbackLink, kind: "link" } : { path: ["src"], url: p.src, kind: "link" },
      { path: ["coverImage"], url: p.coverImage, kind: "image" },
    ],
  }),
  // The editor offers a width and height on phones; this engine keeps the video's frame at 16:9 of the column.
  editorKeys: { mobile: ["width", "height"] },
  text: (p, values) => textParagraphs(linked(values.text(p.alt), values.url(p.src || p.fallbackLink))),
  phone: { surface: "& table" },
  // The frame (its only table) draws the border.
  dark: { border: "& table" },
  mjml(p, ctx) {
    const attributes = mjmlAttrs("mj-text", { align: p.align, padding: spacingSum(p.margin, p.padding), "css-class": ctx.className });
    return `<mj-text${attributes}>${videoMarkup(p, ctx)}</mj-text>`;
  },
  html(p, ctx) {
    const outer = cssText([["text-align", p.align], ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ style: outer })}>${videoMarkup(p, ctx)}</div>`;
  },
  jsx(p, ctx) {
    const { width, height } = geometry(p, ctx);
    const cover = ctx.out.url(encodeUnsafeUrlCharsOutsideTags(p.coverImage));
    // A JS string in a style object decodes no entities, so only a literal cover URL goes into CSS there;
    // the `background` attribute carries it in every case.
    const cssCover = hasMergeTags(p.coverImage) ? undefined : cover;
    const alt = ctx.out.attr(p.alt);
    const outer = jsxStyle([["text-align", p.align], ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return (
      `<Section${jsxClass(ctx.className)} style={${outer}}>` +
      `<Link href="${ctx.out.url(p.src || p.fallbackLink)}" target="_blank" title="${alt}" style={{ display: "block", textDecoration: "none" }}>` +
      `<table role="presentation" border={0} cellPadding={0} cellSpacing={0} width="${width}" background="${cover}" style={${jsxStyle(frameDeclarations(p, cssCover, width, height))}}>` +
      `<tbody><tr><td align="center" valign="middle" height="${height}" style={${jsxStyle([
        ["height", px(height)],
        ["text-align", "center"],
      ])}}>` +
      `<span style={${jsxStyle(BADGE)}}>&#9654;</span><span style={{ display: "none" }}>${alt}</span>` +
      `</td></tr></tbody></table></Link></Section>`
    );
  },
});
