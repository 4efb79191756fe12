import * as z from "zod/mini";
import { linked, textParagraphs } from "../../markup/html-to-text.js";
import { cssText, jsxStyle } from "../../markup/style.js";
import { commonBlockFields, defaultedColor, emptyByDefault, mobileOverridesSchema, typographyFields } from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { linkDarkSchema } from "../../schema/dark.js";
import { darkColors, field, spacingGroup, typographyGroup, visibilityGroup } from "../../schema/editor.js";
import { stringSchema } from "../../schema/leaves.js";
import { defineBlock, finding } from "../block.js";
import { typographyText } from "../reading.js";
import {
  addSpacing,
  attrs,
  dirAttribute,
  directedMarkup,
  htmlClass,
  isBlank,
  jsxClass,
  mjmlTextAttributes,
  paddingDeclaration,
  typographyDeclarations,
} from "../shared.js";

export const anchorProps = () =>
  z.object({
    text: constantDefault(stringSchema, "Click here"),
    link: emptyByDefault,
    ...typographyFields(),
    color: defaultedColor("#007bff"),
    textDecoration: constantDefault(z.enum(["none", "underline", "line-through", "overline"]), "underline"),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: linkDarkSchema(),
  });

export const anchor = defineBlock({
  type: "anchor",
  props: anchorProps,
  editor: () => ({
    label: "Link",
    description: "A line of text that is one link.",
    groups: [
      { id: "content", label: "Content", fields: [field.text("text", "Text"), field.url("link", "Link")] },
      typographyGroup(),
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("color"),
  }),
  example: { text: "View it in your browser", link: "https://example.com/view/{{ message_id }}" },
  check: (p) => [
    ...(isBlank(p.text) ? [finding("error", "LINK_TEXT_MISSING", ["text"], p.text, "The link has no text", "Write what it opens")] : []),
    ...(p.link === ""
      ? [finding("error", "LINK_URL_MISSING", ["link"], p.link, "The link has no URL: it goes nowhere", "Give it the URL it should open")]
      : []),
  ],
  codes: {
    LINK_TEXT_MISSING: { severity: "error", summary: "A link block without text" },
    LINK_URL_MISSING: { severity: "error", summary: "A link block without a URL" },
  },
  reading: (p) => ({ text: [typographyText(p)], urls: [{ path: ["link"], url: p.link, kind: "link" }] }),
  text: (p, values) => textParagraphs(linked(values.text(p.text), values.url(p.link))),
  dark: { canvasText: "linkColor" },
  mjml(p, ctx) {
    const attributes = mjmlTextAttributes(p, ctx, { containerColor: undefined, className: ctx.className });
    // The link's style as `attrs({ style: cssText(…) })` writes it, without the arrays and the object
    // (a colour and a keyword: nothing to escape).
    const anchor = `<a href="${ctx.out.url(p.link)}" target="_blank" style="color:${p.color};text-decoration:${p.textDecoration}">${ctx.out.text(p.text)}</a>`;
    return `<mj-text${attributes}>${directedMarkup(anchor, p, ctx)}</mj-text>`;
  },
  html(p, ctx) {
    const outer = cssText([...typographyDeclarations(p, ctx), ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    const link = cssText([
      ["color", p.color],
      ["text-decoration", p.textDecoration],
    ]);
    return `<div${htmlClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx), style: outer })}><a href="${ctx.out.url(p.link)}" target="_blank"${attrs({ style: link })}>${ctx.out.text(p.text)}</a></div>`;
  },
  jsx(p, ctx) {
    const outer = jsxStyle([...typographyDeclarations(p, ctx), ["margin", "0"], ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    const link = jsxStyle([
      ["color", p.color],
      ["text-decoration", p.textDecoration],
    ]);
    return `<Text${jsxClass(ctx.className)}${attrs({ dir: dirAttribute(p, ctx) })} style={${outer}}><Link href="${ctx.out.url(p.link)}" target="_blank" style={${link}}>${ctx.out.text(p.text)}</Link></Text>`;
  },
});
