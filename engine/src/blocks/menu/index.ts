import * as z from "zod/mini";
import { lineParagraphs, linked } from "../../markup/html-to-text.js";
import { cssText, type Declarations, jsxStyle, px, spacingSum } from "../../markup/style.js";
import {
  commonBlockFields,
  emptyByDefault,
  falseByDefault,
  mobileOverridesSchema,
  nonNegative,
  optionalDirectionSchema,
  surfaceFields,
  textAlignSchema,
  typographyFields,
} from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { textDarkSchema } from "../../schema/dark.js";
import { backgroundFields, darkColors, directionField, field, spacingGroup, typographyGroup, visibilityGroup } from "../../schema/editor.js";
import { booleanSchema } from "../../schema/leaves.js";
import { type BlockRenderContext, defineBlock, finding } from "../block.js";
import { surfacePaint, typographyText } from "../reading.js";
import {
  addSpacing,
  attrs,
  classPair,
  dirAttribute,
  htmlClass,
  jsxClass,
  mjmlSurface,
  mjmlTypography,
  ownAttr,
  paddingDeclaration,
  sideOf,
  surfaceDeclarations,
  textDirection,
  typographyDeclarations,
  unchangedOf,
  withDir,
} from "../shared.js";

export const menuProps = () =>
  z.object({
    items: z._default(
      z.array(
        z.object({
          label: emptyByDefault,
          link: emptyByDefault,
          enabled: constantDefault(booleanSchema, true),
        }),
      ),
      [],
    ),
    ...typographyFields(),
    align: constantDefault(textAlignSchema, "center"),
    direction: optionalDirectionSchema(),
    /** Horizontal space between items, in px. */
    spacing: nonNegative(16),
    /** Stack the items vertically under the mobile breakpoint. */
    mobileStack: falseByDefault,
    ...surfaceFields(),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
    dark: textDarkSchema(),
  });
type MenuProps = z.output<ReturnType<typeof menuProps>>;

const visibleItems = (p: MenuProps) => p.items.filter((item) => item.enabled && item.label !== "");

function itemDeclarations(p: MenuProps, ctx: BlockRenderContext): Declarations {
  const text = typographyDeclarations(p, ctx).filter(([prop]) => prop !== "text-align");
  return [["display", "inline-block"], ["padding", `0 ${px(p.spacing / 2)}`], ...text, ["text-decoration", p.textDecoration]];
}

function stackRule(p: MenuProps, ctx: BlockRenderContext): string {
  if (!p.mobileStack) return "";
  ctx.mobileCss.push(`.${ctx.uid} a{display:block !important;padding:4px 0 !important}`);
  return ctx.uid;
}

export const menu = defineBlock({
  type: "menu",
  props: menuProps,
  editor: () => ({
    label: "Menu",
    description: "A row of text links.",
    groups: [
      {
        id: "content",
        label: "Content",
        fields: [
          field.entries("items", "Items", "Item", [
            field.text("label", "Label"),
            field.url("link", "Link"),
            field.boolean("enabled", "Shown", { hint: "Hidden items are kept in the template" }),
          ]),
          directionField(),
        ],
      },
      typographyGroup(),
      {
        id: "layout",
        label: "Layout",
        fields: [
          field.px("spacing", "Space between items", 0, 60, { phone: true }),
          field.boolean("mobileStack", "Stack on phones", { hint: "One item per line under the mobile breakpoint" }),
        ],
      },
      { id: "appearance", label: "Appearance", fields: backgroundFields() },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: darkColors("color", "backgroundColor", "backgroundGradient"),
  }),
  example: {
    items: [
      { label: "Shop", link: "https://example.com/shop" },
      { label: "Orders", link: "https://example.com/orders" },
      { label: "Help", link: "https://example.com/help" },
    ],
  },
  check: (p) => {
    const shown = p.items.flatMap((item, index) => (item.enabled && item.label !== "" ? [{ item, index }] : []));
    if (shown.length === 0)
      return [finding("warning", "MENU_EMPTY", ["items"], p.items, "The menu shows no item", "Add items with a label, or remove the menu")];
    return shown
      .filter(({ item }) => item.link === "")
      .map(({ item, index }) =>
        finding(
          "error",
          "MENU_ITEM_LINK_MISSING",
          ["items", String(index), "link"],
          item.link,
          `The menu item "${item.label}" has no link`,
          "Give it the URL it should open",
        ),
      );
  },
  codes: {
    MENU_EMPTY: { severity: "warning", summary: "A menu that shows no item" },
    MENU_ITEM_LINK_MISSING: { severity: "error", summary: "A menu item without a link" },
  },
  reading: (p) => ({
    text: [typographyText(p, surfacePaint(p))],
    urls: p.items.flatMap((item, index) =>
      item.enabled && item.label !== "" ? [{ path: ["items", String(index), "link"], url: item.link, kind: "link" as const }] : [],
    ),
  }),
  // The editor keys each item with an `_id` of its own.
  editorKeys: { listItems: ["_id"] },
  text: (p, values) => lineParagraphs(visibleItems(p).map((item) => linked(values.text(item.label), values.url(item.link)))),
  dark: { canvasText: "color" },
  phone: {
    props: {
      // Half the space on each side of every item, as on desktop.
      spacing: {
        unit: "px",
        declarations: (value) => [
          ["& a", "padding-left", px(parseFloat(value) / 2)],
          ["& a", "padding-right", px(parseFloat(value) / 2)],
        ],
      },
    },
  },
  mjml(p, ctx) {
    // mj-navbar-link takes no `dir`: each label goes in a span that does (the items' order follows the email's direction).
    const dir = dirAttribute(p, ctx);
    // mj-navbar's `align` takes sides only: in `auto` text, start and end are read as in left-to-right.
    const direction = textDirection(p, ctx);
    // Every link's attributes are the same: written once.
    // Its transform and decoration even when `none`: mj-navbar-link's defaults are others.
    // Attributes one at a time (`ownAttr`: our own lengths, keywords and classes) and an index loop:
    // no object literal for `mjmlAttrs` to enumerate, no callback per link (QuickJS).
    const linkAttributes = mjmlTypography(p, ctx, "mj-navbar-link", "written") + ownAttr("padding", `0px ${px(p.spacing / 2)}`, unchangedOf("mj-navbar-link"));
    const items = visibleItems(p);
    let links = "";
    for (let i = 0; i < items.length; i++)
      links += `<mj-navbar-link href="${ctx.out.url(items[i]!.link)}"${linkAttributes}>${withDir(ctx.out.text(items[i]!.label), dir)}</mj-navbar-link>`;
    // mj-navbar has no background attribute: the background is head CSS on the block's class.
    const classes = classPair(mjmlSurface(p, ctx, false).className, stackRule(p, ctx));
    const u = unchangedOf("mj-navbar");
    const attributes =
      ownAttr("align", sideOf(p.align, direction === "auto" ? "ltr" : direction), u) +
      ownAttr("padding", spacingSum(p.margin, p.padding), u) +
      ownAttr("css-class", classes, u);
    return `<mj-navbar${attributes}>${links}</mj-navbar>`;
  },
  html(p, ctx) {
    const item = cssText(itemDeclarations(p, ctx));
    const links = visibleItems(p)
      .map((i) => `<a href="${ctx.out.url(i.link)}" target="_blank"${attrs({ style: item })}>${ctx.out.text(i.label)}</a>`)
      .join("");
    const outer = cssText([
      ["text-align", sideOf(p.align, textDirection(p, ctx))],
      ...surfaceDeclarations(p),
      ...paddingDeclaration(addSpacing(p.margin, p.padding)),
    ]);
    const classes = [ctx.className, stackRule(p, ctx)].filter(Boolean).join(" ");
    return `<div${htmlClass(classes)}${attrs({ dir: dirAttribute(p, ctx), style: outer })}>${links}</div>`;
  },
  jsx(p, ctx) {
    const item = jsxStyle(itemDeclarations(p, ctx));
    const links = visibleItems(p)
      .map((i) => `<Link href="${ctx.out.url(i.link)}" target="_blank" style={${item}}>${ctx.out.text(i.label)}</Link>`)
      .join("");
    const outer = jsxStyle([
      ["text-align", sideOf(p.align, textDirection(p, ctx))],
      ...surfaceDeclarations(p),
      ...paddingDeclaration(addSpacing(p.margin, p.padding)),
    ]);
    const classes = [ctx.className, stackRule(p, ctx)].filter(Boolean).join(" ");
    return `<Section${jsxClass(classes)}${attrs({ dir: dirAttribute(p, ctx) })} style={${outer}}>${links}</Section>`;
  },
});
