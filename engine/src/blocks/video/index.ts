import * as z from "zod/mini";
import { encodeUnsafeUrlCharsOutsideTags } from "../../data/escape.js";
import { hasMergeTags } from "../../data/merge-tags.js";
import { cssText, type Declarations, jsxStyle, px, spacing } from "../../markup/style.js";
import { alignSchema, borderSchema, commonBlockFields, emptyByDefault, mobileOverridesSchema, nonNegative } from "../../schema/common.js";
import { type BlockRenderContext, defineBlock } from "../block.js";
import { addSpacing, attrs, htmlClass, jsxClass, paddingDeclaration } from "../shared.js";

export const videoProps = () =>
  z.object({
    /** The video's page (YouTube, Vimeo, …): email cannot play video, so the thumbnail links to it. */
    src: emptyByDefault,
    coverImage: emptyByDefault,
    /** Where the thumbnail links when `src` is empty. */
    fallbackLink: emptyByDefault,
    alt: z._default(z.string(), "Watch video"),
    width: z._default(z.number().check(z.minimum(0), z.maximum(100)), 100),
    /** `auto` (16:9 of the width) or a height in px. */
    height: z._default(z.union([z.literal("auto"), z.number().check(z.minimum(0))]), "auto"),
    borderRadius: nonNegative(0),
    border: borderSchema,
    align: z._default(alignSchema, "center"),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema,
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
  mjml(p, ctx) {
    const attributes = attrs({ align: p.align, padding: spacing(addSpacing(p.margin, p.padding)), "css-class": ctx.className });
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
