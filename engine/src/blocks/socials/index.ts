import * as z from "zod/mini";
import { lineParagraphs, linked } from "../../markup/html-to-text.js";
import { cssText, jsxStyle, px, spacingSum } from "../../markup/style.js";
import { commonBlockFields, defaultedAlign, emptyByDefault, mobileOverridesSchema, nonNegative } from "../../schema/common.js";
import { constantDefault } from "../../schema/constant-default.js";
import { field, spacingGroup, visibilityGroup } from "../../schema/editor.js";
import { booleanSchema } from "../../schema/leaves.js";
import { type BlockRenderContext, defineBlock, finding } from "../block.js";
import { addSpacing, attrs, htmlClass, ICON_SIZE_ON_PHONES, jsxClass, mjmlAlt, ownAttr, paddingDeclaration, unchangedOf } from "../shared.js";

export const socialsProps = () =>
  z.object({
    platforms: z._default(
      z.array(
        z.object({
          name: emptyByDefault,
          link: emptyByDefault,
          enabled: constantDefault(booleanSchema, true),
          /** Icon image URL; empty uses MJML's hosted icon for the networks it knows. */
          icon: emptyByDefault,
        }),
      ),
      [],
    ),
    iconSize: nonNegative(28),
    spacing: nonNegative(10),
    align: defaultedAlign("center"),
    ...commonBlockFields(),
    mobile: mobileOverridesSchema(),
  });
type SocialsProps = z.output<ReturnType<typeof socialsProps>>;

/** The networks MJML ships icons for (mjml-social), and where those icons live. */
const MJML_ICON_BASE = "https://www.mailjet.com/images/theme/v1/icons/ico-social/";
const MJML_NETWORKS: Record<string, { icon: string; share: boolean }> = {
  facebook: { icon: "facebook", share: true },
  twitter: { icon: "twitter", share: true },
  x: { icon: "twitter-x", share: true },
  google: { icon: "google-plus", share: true },
  pinterest: { icon: "pinterest", share: true },
  linkedin: { icon: "linkedin", share: true },
  instagram: { icon: "instagram", share: false },
  web: { icon: "web", share: false },
  snapchat: { icon: "snapchat", share: false },
  youtube: { icon: "youtube", share: false },
  tumblr: { icon: "tumblr", share: true },
  github: { icon: "github", share: false },
  xing: { icon: "xing", share: true },
  vimeo: { icon: "vimeo", share: false },
  medium: { icon: "medium", share: false },
  soundcloud: { icon: "soundcloud", share: false },
  dribbble: { icon: "dribbble", share: false },
};

type Platform = SocialsProps["platforms"][number];

const visiblePlatforms = (p: SocialsProps) => p.platforms.filter((platform) => platform.enabled && (platform.name !== "" || platform.icon !== ""));

/** A network with neither an icon of its own nor one MJML ships (Bluesky, Threads, …) shows its name as a link. */
const hasIcon = (platform: Platform) => platform.icon !== "" || platform.name.toLowerCase() in MJML_NETWORKS;

function iconUrl(platform: Platform): string {
  if (platform.icon) return platform.icon;
  return `${MJML_ICON_BASE}${MJML_NETWORKS[platform.name.toLowerCase()]?.icon ?? "web"}.png`;
}

/** `bluesky` → `Bluesky`. */
const label = (platform: Platform) => platform.name.charAt(0).toUpperCase() + platform.name.slice(1);

/** A network shown by its name. The block has no font of its own: the web-safe stack mjml's social labels fall back to. */
const LABEL_STYLE = (size: number): Array<readonly [string, string]> => [
  ["display", "inline-block"],
  ["color", "#000000"],
  ["font-family", "Helvetica, Arial, sans-serif"],
  ["font-size", "13px"],
  ["line-height", px(size)],
  ["text-decoration", "none"],
];

/** mjml turns a known network's href into a share link; the `-noshare` name keeps the profile link. */
function mjmlName(name: string): string {
  const known = MJML_NETWORKS[name.toLowerCase()];
  if (!known) return name.toLowerCase().replace(/[^a-z0-9-]/g, "") || "web";
  return known.share ? `${name.toLowerCase()}-noshare` : name.toLowerCase();
}

function labelLink(platform: Platform, p: SocialsProps, ctx: BlockRenderContext): string {
  return `<a href="${ctx.out.url(platform.link)}" target="_blank"${attrs({ style: cssText(LABEL_STYLE(p.iconSize)) })}>${ctx.out.text(label(platform))}</a>`;
}

export const socials = defineBlock({
  type: "socials",
  props: socialsProps,
  editor: () => ({
    label: "Social links",
    description: "Icons linking to social profiles; a network without an icon shows its name.",
    groups: [
      {
        id: "content",
        label: "Content",
        fields: [
          field.entries("platforms", "Networks", "Network", [
            field.text("name", "Network", {
              mergeTags: false,
              hint: `Its name (${Object.keys(MJML_NETWORKS).join(", ")} have a built-in icon); also the icon's alt text`,
            }),
            field.url("link", "Profile link"),
            field.imageUrl("icon", "Icon", { hint: "Empty: the built-in icon, or the name as a link" }),
            field.boolean("enabled", "Shown", { hint: "Hidden networks are kept in the template" }),
          ]),
        ],
      },
      {
        id: "layout",
        label: "Layout",
        fields: [field.px("iconSize", "Icon size", 12, 64, { phone: true }), field.px("spacing", "Space between icons", 0, 40), field.align()],
      },
      spacingGroup(),
      visibilityGroup(),
    ],
    dark: [],
  }),
  example: {
    platforms: [
      { name: "instagram", link: "https://instagram.com/example" },
      { name: "x", link: "https://x.com/example" },
    ],
  },
  check: (p) => {
    const shown = p.platforms.flatMap((platform, index) => (platform.enabled && (platform.name !== "" || platform.icon !== "") ? [{ platform, index }] : []));
    if (shown.length === 0)
      return [finding("warning", "SOCIALS_EMPTY", ["platforms"], p.platforms, "No network is shown", "Add networks with a name, or remove the block")];
    return shown.flatMap(({ platform, index }) => [
      ...(platform.link === ""
        ? [
            finding(
              "error",
              "SOCIAL_LINK_MISSING",
              ["platforms", String(index), "link"],
              platform.link,
              `The ${platform.name || "network"} icon has no link`,
              "Give it the profile's URL",
            ),
          ]
        : []),
      ...(platform.name === ""
        ? [
            finding(
              "warning",
              "SOCIAL_NAME_MISSING",
              ["platforms", String(index), "name"],
              platform.name,
              "A network has an icon but no name: its icon has no alt text",
              "Name the network",
            ),
          ]
        : []),
    ]);
  },
  codes: {
    SOCIALS_EMPTY: { severity: "warning", summary: "A social links block that shows no network" },
    SOCIAL_LINK_MISSING: { severity: "error", summary: "A network without a profile link" },
    SOCIAL_NAME_MISSING: { severity: "warning", summary: "A network without a name (its icon has no alt text)" },
  },
  reading: (p) => ({
    urls: p.platforms.flatMap((platform, index) =>
      platform.enabled && (platform.name !== "" || platform.icon !== "")
        ? [
            { path: ["platforms", String(index), "link"], url: platform.link, kind: "link" as const },
            ...(platform.icon === "" ? [] : [{ path: ["platforms", String(index), "icon"], url: platform.icon, kind: "image" as const }]),
          ]
        : [],
    ),
  }),
  // The editor keys each network with an `_id`, and offers a spacing on phones, which this engine does not apply.
  editorKeys: { listItems: ["_id"], mobile: ["spacing"] },
  text: (p, values) => lineParagraphs(visiblePlatforms(p).map((platform) => linked(values.text(platform.name), values.url(platform.link)))),
  // A platform shown as its name is a link, black on light by default.
  dark: { canvasLinks: true },
  phone: { props: { iconSize: ICON_SIZE_ON_PHONES } },
  mjml(p, ctx) {
    // Attributes one at a time (`ownAttr`, our own lengths, keywords and classes) and an index loop:
    // no object literal for `mjmlAttrs` to enumerate and no callback per network (QuickJS).
    const padding = `0px ${px(p.spacing / 2)}`;
    const elementPadding = ownAttr("padding", padding, unchangedOf("mj-social-element"));
    const platforms = visiblePlatforms(p);
    let elements = "";
    for (let i = 0; i < platforms.length; i++) {
      const platform = platforms[i]!;
      const src = platform.icon ? ` src="${ctx.out.url(platform.icon)}"` : "";
      if (!hasIcon(platform)) {
        // mj-social-element always draws an icon: the label is a cell of its own, laid out like one.
        const cell = `<table${attrs({ align: p.align })} border="0" cellpadding="0" cellspacing="0" role="presentation" style="float:none;display:inline-table"><tbody><tr><td style="padding:${padding};vertical-align:middle">${labelLink(platform, p, ctx)}</td></tr></tbody></table>`;
        elements += `<mj-raw><!--[if mso | IE]><td><![endif]-->${cell}<!--[if mso | IE]></td><![endif]--></mj-raw>`;
      } else
        elements += `<mj-social-element name="${mjmlName(platform.name)}" href="${ctx.out.url(platform.link)}"${src}${mjmlAlt(ctx.out.attr(platform.name))}${elementPadding} background-color="transparent"></mj-social-element>`;
    }
    const u = unchangedOf("mj-social");
    const attributes =
      ownAttr("mode", "horizontal", u) +
      ownAttr("align", p.align, u) +
      ownAttr("icon-size", px(p.iconSize), u) +
      ownAttr("icon-padding", "0px", u) +
      ownAttr("border-radius", "0px", u) +
      ownAttr("padding", spacingSum(p.margin, p.padding), u) +
      ownAttr("css-class", ctx.className, u);
    return `<mj-social${attributes}>${elements}</mj-social>`;
  },
  html(p, ctx) {
    const size = p.iconSize;
    const icons = visiblePlatforms(p)
      .map((platform) => {
        const box = `display:inline-block;padding:0 ${px(p.spacing / 2)}`;
        if (!hasIcon(platform)) return `<span style="${box}">${labelLink(platform, p, ctx)}</span>`;
        const img = `<img src="${ctx.out.url(iconUrl(platform))}" alt="${ctx.out.attr(platform.name)}" width="${size}" height="${size}" style="display:block;border:0;width:${px(size)};height:${px(size)}">`;
        // Without a link mjml writes the icon alone; so do the other renderers.
        return platform.link === ""
          ? `<span style="${box}">${img}</span>`
          : `<a href="${ctx.out.url(platform.link)}" target="_blank" style="${box}">${img}</a>`;
      })
      .join("");
    const outer = cssText([["text-align", p.align], ["font-size", "0"], ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<div${htmlClass(ctx.className)}${attrs({ style: outer })}>${icons}</div>`;
  },
  jsx(p, ctx) {
    const size = p.iconSize;
    const icons = visiblePlatforms(p)
      .map((platform) => {
        if (!hasIcon(platform)) {
          return `<Link href="${ctx.out.url(platform.link)}" target="_blank" style={${jsxStyle([...LABEL_STYLE(size), ["padding", `0 ${px(p.spacing / 2)}`]])}}>${ctx.out.text(label(platform))}</Link>`;
        }
        const img = `<Img src="${ctx.out.url(iconUrl(platform))}" alt="${ctx.out.attr(platform.name)}" width="${size}" height="${size}" style={{ display: "block", border: "0", width: "${px(size)}", height: "${px(size)}" }} />`;
        const box = `{{ display: "inline-block", padding: "0 ${px(p.spacing / 2)}" }}`;
        return platform.link === ""
          ? `<span style=${box}>${img}</span>`
          : `<Link href="${ctx.out.url(platform.link)}" target="_blank" style=${box}>${img}</Link>`;
      })
      .join("");
    const outer = jsxStyle([["text-align", p.align], ["font-size", "0"], ...paddingDeclaration(addSpacing(p.margin, p.padding))]);
    return `<Section${jsxClass(ctx.className)} style={${outer}}>${icons}</Section>`;
  },
});
