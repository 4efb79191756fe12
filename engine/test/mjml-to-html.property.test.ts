/**
 * Property: for any template the engine accepts, our MJML compiler (src/mjml-to-html) turns the MJML
 * the `mjml` target writes into exactly the HTML mjml 5.4.1 makes of it. Random templates span the
 * whole document model (canvas, rows, nesting, every block and prop, merge tags, visibility), so every
 * mj-* component and attribute path our MJML writer can produce is compared, not only the fixtures'.
 */
import fc from "fast-check";
import mjml2html from "mjml";
import { describe, it } from "vitest";
import type * as z from "zod/mini";
import type { anchorProps } from "../src/blocks/anchor/index.js";
import type { buttonProps } from "../src/blocks/button/index.js";
import type { dividerProps } from "../src/blocks/divider/index.js";
import type { headingProps } from "../src/blocks/heading/index.js";
import type { imageProps } from "../src/blocks/image/index.js";
import type { listProps } from "../src/blocks/list/index.js";
import type { menuProps } from "../src/blocks/menu/index.js";
import type { paragraphProps } from "../src/blocks/paragraph/index.js";
import type { socialsProps } from "../src/blocks/socials/index.js";
import type { spacerProps } from "../src/blocks/spacer/index.js";
import type { videoProps } from "../src/blocks/video/index.js";
import type { canvasObjectSchema, columnStyleSchema, rowStyleSchema } from "../src/document/schema.js";
import { type DynamicData, render } from "../src/index.js";
import { compileMjmlToHtml } from "../src/mjml-to-html/index.js";
import { CSS_COLOR_NAMES } from "../src/schema/color-names.js";
import { VISIBILITY_OPERATOR_ALIASES, VISIBILITY_OPERATORS, type visibilitySchema } from "../src/schema/common.js";

/** A JSON object of the template tree (rows, columns, components). */
type Node = Readonly<Record<string, unknown>>;
type Arb<S extends z.ZodMiniType> = fc.Arbitrary<z.input<S>>;

/** Every key may be left out: the engine fills in the default, as for an editor export. */
function optional<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<Partial<T>> {
  return fc.record<T, never>(model, { requiredKeys: [], noNullPrototype: true }) as fc.Arbitrary<Partial<T>>;
}

// ---- values -------------------------------------------------------------------------------------

/** A px value: mostly whole, sometimes with decimals (the writer rounds to 2 digits). */
const size = (max: number) =>
  fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: max * 100 }).map((n) => n / 100) });
const percent = fc.oneof(
  fc.integer({ min: 0, max: 100 }),
  fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
);

const hexDigits = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: n, maxLength: n }).map((h) => `#${h}`);
const byte = fc.integer({ min: 0, max: 255 });
/** Every colour form the schema accepts: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), names in any case. */
const color = fc.oneof(
  { weight: 3, arbitrary: hexDigits(6) },
  { weight: 1, arbitrary: fc.oneof(hexDigits(3), hexDigits(4), hexDigits(8)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("rgb", "RGB"), byte, byte, byte, fc.constantFrom(",", ", ", " , "))
      .map(([f, r, g, b, s]) => `${f}(${r}${s}${g}${s}${b})`),
  },
  {
    weight: 1,
    // Every alpha form the schema takes; the writer normalises them to what mjml's validator takes.
    arbitrary: fc
      .tuple(fc.constantFrom("rgba", "RGBA", "rgb"), byte, byte, byte, fc.constantFrom("0", "1", "0.5", ".25", "0.125", "0.12345", ".0001"))
      .map(([f, r, g, b, a]) => `${f}(${r}, ${g}, ${b}, ${a})`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...CSS_COLOR_NAMES), fc.constantFrom("lower", "upper", "title"))
      .map(([name, form]) => (form === "lower" ? name : form === "upper" ? name.toUpperCase() : name[0]!.toUpperCase() + name.slice(1))),
  },
);

const spacing = (max: number) => fc.oneof(size(max), optional({ top: size(max), right: size(max), bottom: size(max), left: size(max) }));
const border = optional({ width: size(8), style: fc.constantFrom("solid", "dashed", "dotted", "double", "none"), color, radius: size(40) });
const gradient = optional({ useGradient: fc.boolean(), from: color, to: color, angle: fc.oneof(fc.integer({ min: -360, max: 360 }), fc.constantFrom(22.5)) });
const align = fc.constantFrom("left", "center", "right");
const textAlign = fc.constantFrom("start", "left", "center", "right", "end");
const direction = fc.constantFrom("ltr", "rtl", "auto");

const imageUrl = fc.constantFrom(
  "https://example.com/bg.jpg",
  "https://cdn.example.com/a/b%20c.png?w=600&h=400",
  "http://example.com/it's (1).png",
  "//example.com/pixel.gif",
);
const backgroundImageFields = {
  backgroundImage: fc.oneof(fc.constant(""), imageUrl),
  backgroundSize: fc.constantFrom("cover", "contain", "auto", "100px", "50% auto", "auto 100%", "10em 5rem", "0", "120%"),
  backgroundPosition: fc.constantFrom(
    "center center",
    "center",
    "left top",
    "right bottom",
    "top",
    "50% 50%",
    "10px 20px",
    "left 10px top 5px",
    "-5px center",
    "bottom right",
  ),
  backgroundRepeat: fc.constantFrom("no-repeat", "repeat", "repeat-x", "repeat-y", "space", "round", "repeat no-repeat"),
};

// ---- merge tags, text, URLs, rich-text content --------------------------------------------------

const TAG_NAMES = ["name", "first_name", "link", "uid", "email", "city", "order.total"] as const;
/** Bare and group-qualified tags, with and without spaces and pipe defaults in each quoting. */
const mergeTag = fc
  .tuple(
    fc.constantFrom("", "", "text.", "url.", "attr."),
    fc.constantFrom(...TAG_NAMES),
    fc.constantFrom("{{%}}", "{{ % }}", "{{  %}}"),
    fc.constantFrom("", "", "|'friend'", '|"pal"', "|buddy", "|'https://fallback.example/x?a=1&b=2'", "|''"),
  )
  .map(([group, name, form, fallback]) => form.replace("%", group + name + fallback));
/** A tag that can stand inside a double-quoted attribute of content HTML. */
const attrSafeTag = mergeTag.filter((tag) => !tag.includes('"'));

const word = fc.constantFrom(
  "Hello",
  "world",
  "Tom & Jerry's",
  '"quoted"',
  "Zoë ✓ 🎉",
  "50%",
  "a > b",
  "x<y",
  "—",
  "  two  spaces",
  "line\nbreak",
  "&amp;",
  "{curly}",
  "]]>",
);
/** A plain-text prop (escaped by the writer): words and merge tags. */
const plainText = fc.array(fc.oneof({ weight: 3, arbitrary: word }, { weight: 1, arbitrary: mergeTag }), { maxLength: 4 }).map((parts) => parts.join(" "));

const url = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "",
      "https://example.com/",
      "https://example.com/p?a=1&b=2#top",
      "http://example.com/ü x",
      "mailto:hi@example.com",
      "tel:+1-555-0100",
      "#",
      "/relative/path",
      "https://example.com/it's(1)",
    ),
  },
  { weight: 1, arbitrary: mergeTag },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("https://example.com/?u=", "https://example.com/p/", "mailto:", "tel:"), mergeTag).map(([a, b]) => a + b) },
);
const contentUrl = url.filter((u) => !u.includes('"'));

/** Text of content HTML is trusted markup: entities and `>` as authors write them, no stray `<`. */
const htmlWord = fc.constantFrom(
  "Hello",
  "world",
  "Tom &amp; Jerry's",
  "Tom & Jerry",
  '"quoted"',
  "Zoë ✓ 🎉",
  "50%",
  "a &gt; b",
  "a > b",
  "—",
  "  spaced  ",
  "line\nbreak",
);
const inlineLeaf = fc.oneof(
  { weight: 4, arbitrary: htmlWord },
  { weight: 2, arbitrary: mergeTag },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "<br>",
      "<BR/>",
      "&nbsp;",
      "&copy;",
      "&#8217;",
      "<!-- note -->",
      "<!--[if mso]><b>Outlook</b><![endif]-->",
      '<img src="https://example.com/i.png" alt="i" width="16">',
      "<a href='https://example.com/single'>single-quoted</a>",
      '<table role="presentation"><tr><td>cell</td></tr></table>',
    ),
  },
);
const inlineRun = fc.array(inlineLeaf, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(" "));
const inline = fc.oneof(
  { weight: 3, arbitrary: inlineRun },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom("strong", "em", "b", "i", "u", "s", "span", "sup"), inlineRun).map(([tag, text]) => `<${tag}>${text}</${tag}>`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(contentUrl, fc.option(color, { nil: undefined }), inlineRun)
      .map(([href, c, text]) => `<a href="${href}"${c ? ` style="color:${c};text-decoration:none"` : ""} target="_blank">${text}</a>`),
  },
  { weight: 1, arbitrary: fc.tuple(size(30), inlineRun).map(([s, text]) => `<span style="font-size:${s}px;font-family:'Open Sans', Arial">${text}</span>`) },
  { weight: 1, arbitrary: fc.tuple(attrSafeTag, inlineRun).map(([tag, text]) => `<span title="${tag}">${text}</span>`) },
);
const inlines = fc.array(inline, { maxLength: 3 }).map((parts) => parts.join(" "));

const paragraphContent = fc.oneof(
  fc
    .array(fc.tuple(fc.constantFrom("<p>", '<p style="margin:0 0 8px">', '<p class="lead">', '<p align="center">'), inlines), { maxLength: 3 })
    .map((ps) => ps.map(([open, text]) => `${open}${text}</p>`).join("")),
  inlines,
  fc
    .tuple(fc.constantFrom('<div style="text-align:center">', "<div>", "<blockquote>"), inlines)
    .map(([open, text]) => `${open}${text}</${open.slice(1).split(/[ >]/)[0]}>`),
);
const listContent = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("<ul>", "<ol>", '<ol start="3" type="i">', '<ul style="list-style-type:square">', '<ul class="ticks">'),
      fc.array(fc.tuple(fc.constantFrom("<li>", '<li style="color:#555555">'), inlines), { minLength: 1, maxLength: 4 }),
    )
    .map(([open, items]) => `${open}${items.map(([li, text]) => `${li}${text}</li>`).join("")}</${open.slice(1, 3)}>`),
  fc.constant(""),
);

// ---- visibility and per-recipient data ----------------------------------------------------------

const OPERATORS = [...VISIBILITY_OPERATORS, ...(Object.keys(VISIBILITY_OPERATOR_ALIASES) as Array<keyof typeof VISIBILITY_OPERATOR_ALIASES>)];
const rule = fc.record(
  {
    tag: fc.constantFrom("plan", "Plan", "country", "age", "signup", "vip", "missing"),
    operator: fc.constantFrom(...OPERATORS),
    value: fc.oneof(fc.constantFrom("pro", "free", "us, ca; fr", "18", "2025-01-01", ""), fc.integer({ min: 0, max: 99 }), fc.boolean()),
  },
  { requiredKeys: ["tag", "operator"], noNullPrototype: true },
);
const match = fc.constantFrom("all", "any");
/** Mostly switched off (as on most nodes of an editor export), else random rules that may hide the node. */
const visibility: Arb<ReturnType<typeof visibilitySchema>> = fc.oneof(
  { weight: 2, arbitrary: optional({ enabled: fc.constant(false), match }) },
  {
    weight: 1,
    arbitrary: optional({
      enabled: fc.boolean(),
      match,
      rules: fc.array(rule, { maxLength: 3 }),
      groups: fc.array(optional({ match, rules: fc.array(rule, { maxLength: 2 }) }), { maxLength: 2 }),
    }),
  },
);
const context = optional({
  plan: fc.constantFrom("pro", "free", "PRO"),
  Country: fc.constantFrom("us", "fr", "ca"),
  age: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom("18", "abc")),
  signup: fc.constantFrom("2024-06-01", "2025-01-01T10:00:00Z", "not a date"),
  vip: fc.boolean(),
});
const mergeValue = fc.constantFrom(
  "Ada",
  "Tom & Jerry's <b>",
  '"quoted"',
  "",
  "Zoë ✓",
  "https://example.com/a?b=1&c=2",
  "javascript:alert(1)",
  "mailto:x@example.com",
  " tel:+1 555 ",
  "{{ name }}",
  "a\nb",
  "50% off",
);
const mergeGroup = fc.dictionary(fc.constantFrom(...TAG_NAMES), mergeValue, { maxKeys: 5, noNullPrototype: true });
const dynamicData: fc.Arbitrary<DynamicData | undefined> = fc.option(
  optional({ merge_tags: optional({ text: mergeGroup, url: mergeGroup, attr: mergeGroup }), context }),
  { nil: undefined, freq: 4 },
);

// ---- blocks -------------------------------------------------------------------------------------

const fontFamily = fc.constantFrom(
  "Arial",
  "Georgia",
  "Times New Roman",
  "'Times New Roman'",
  "Courier New",
  "verdana",
  "Trebuchet MS",
  "Roboto",
  "Open Sans",
  "'Open Sans'",
  '"Playfair Display"',
  "Lato, Helvetica, sans-serif",
  "Georgia, serif",
  "monospace",
);
const fontWeight = fc.oneof(fc.constantFrom("normal", "bold", "bolder", "lighter", "100", "300", "600", "1000"), fc.integer({ min: 1, max: 1000 }));
// Includes values JavaScript prints in exponent notation (1e-7), which the writer must not.
const lineHeight = fc.oneof(
  fc.integer({ min: 0, max: 300 }).map((n) => n / 100),
  fc.constantFrom(1e-7, 0.00001234, 1.23456789),
);
const textDecoration = fc.constantFrom("none", "underline", "line-through", "overline");
const typography = {
  fontSize: size(48),
  lineHeight,
  color,
  fontWeight,
  fontFamily,
  align: textAlign,
  letterSpacing: fc.integer({ min: -30, max: 60 }).map((n) => n / 10),
  textTransform: fc.constantFrom("none", "uppercase", "lowercase", "capitalize"),
  textDecoration,
};

/** Per-breakpoint overrides: known keys, an unknown one, numbers, strings and null (= unset). */
const mobileOverrides = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 3,
    arbitrary: fc.dictionary(
      fc.constantFrom(
        "fontSize",
        "lineHeight",
        "color",
        "letterSpacing",
        "align",
        "paddingTop",
        "paddingRight",
        "paddingBottom",
        "paddingLeft",
        "height",
        "width",
        "unknownKey",
      ),
      fc.oneof(size(40), fc.constantFrom("14px", "1.3", "#333", "red", "center", "50%", "auto", "rgb(1,2,3)", "x&y 'z'"), fc.constant(null)),
      { maxKeys: 4, noNullPrototype: true },
    ),
  },
);
/** Props every block carries. */
const common = { visibility, desktopHide: fc.boolean(), mobileHide: fc.boolean(), margin: spacing(30), padding: spacing(30), mobile: mobileOverrides };

const paragraph: Arb<ReturnType<typeof paragraphProps>> = optional({ content: paragraphContent, ...typography, direction, ...common });
const heading: Arb<ReturnType<typeof headingProps>> = optional({
  content: inlines,
  level: fc.oneof(fc.constantFrom("h1", "h2", "h3", "h4", "h5", "h6"), fc.integer({ min: 1, max: 6 })),
  ...typography,
  direction,
  ...common,
});
const list: Arb<ReturnType<typeof listProps>> = optional({
  content: listContent,
  ...typography,
  direction,
  paddingLeft: size(40),
  itemSpacing: size(20),
  ...common,
});
const anchor: Arb<ReturnType<typeof anchorProps>> = optional({ text: plainText, link: url, ...typography, ...common });
const button: Arb<ReturnType<typeof buttonProps>> = optional({
  text: plainText,
  direction,
  link: url,
  backgroundColor: color,
  backgroundGradient: gradient,
  color,
  fontSize: size(40),
  fontWeight,
  fontFamily,
  lineHeight,
  borderRadius: size(30),
  border,
  align,
  fullWidth: fc.boolean(),
  icon: fc.oneof(fc.constant(""), imageUrl, url),
  iconAlt: plainText,
  iconPosition: fc.constantFrom("before", "after"),
  iconSize: size(40),
  iconGap: size(20),
  ...common,
});
const image: Arb<ReturnType<typeof imageProps>> = optional({
  src: fc.oneof(imageUrl, url),
  alt: plainText,
  width: percent,
  height: fc.oneof(fc.constant("auto"), size(400)),
  align,
  link: url,
  enabled: fc.boolean(),
  borderRadius: size(50),
  border,
  ...common,
});
const video: Arb<ReturnType<typeof videoProps>> = optional({
  src: url,
  coverImage: fc.oneof(imageUrl, url),
  fallbackLink: url,
  alt: plainText,
  width: percent,
  align,
  ...common,
});
const divider: Arb<ReturnType<typeof dividerProps>> = optional({
  backgroundColor: color,
  height: size(10),
  width: percent,
  borderStyle: fc.constantFrom("solid", "dashed", "dotted"),
  align,
  ...common,
});
const spacer: Arb<ReturnType<typeof spacerProps>> = optional({ height: size(100), ...common });
const menu: Arb<ReturnType<typeof menuProps>> = optional({
  items: fc.array(optional({ label: fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: plainText }), link: url, enabled: fc.boolean() }), {
    maxLength: 5,
  }),
  ...typography,
  direction,
  spacing: size(40),
  mobileStack: fc.boolean(),
  ...common,
});
/** Networks mjml has icons for (in any case), and others that need an icon URL. */
const platformName = fc.constantFrom(
  "facebook",
  "Twitter",
  "x",
  "google",
  "pinterest",
  "LinkedIn",
  "instagram",
  "web",
  "snapchat",
  "youtube",
  "tumblr",
  "github",
  "xing",
  "vimeo",
  "medium",
  "soundcloud",
  "dribbble",
  "TikTok",
  "Mastodon",
  "",
  "{{ name }}",
);
const socials: Arb<ReturnType<typeof socialsProps>> = optional({
  platforms: fc.array(optional({ name: platformName, link: url, enabled: fc.boolean(), icon: fc.oneof(fc.constant(""), imageUrl) }), { maxLength: 6 }),
  iconSize: size(64),
  spacing: size(30),
  align,
  ...common,
});

const BLOCK_PROPS: Record<string, fc.Arbitrary<object>> = { paragraph, heading, list, anchor, button, image, video, divider, spacer, menu, socials };

const nodeId = optional({ id: fc.oneof(fc.constantFrom("x", "node-1"), fc.nat(999)) });

/** A component in the current shape (`componentType`) or the legacy one (block type in `type`). */
const componentNode: fc.Arbitrary<Node> = fc.oneof(
  ...Object.entries(BLOCK_PROPS).map(([type, props]) =>
    fc
      .tuple(fc.oneof({ weight: 6, arbitrary: props }, { weight: 1, arbitrary: fc.constant({}) }), fc.constantFrom("current", "current", "legacy"), nodeId)
      .map(([p, shape, id]): Node => (shape === "current" ? { ...id, type: "component", componentType: type, props: p } : { ...id, type, props: p })),
  ),
  // A block from a newer editor: left out with a warning.
  fc.constant<Node>({ type: "component", componentType: "countdown", props: { until: "2030-01-01" } }),
);

// ---- rows, columns, spacers, canvas -------------------------------------------------------------

const MAX_DEPTH = 5;

const rowSpacer: fc.Arbitrary<Node> = fc
  .tuple(
    optional({ backgroundColor: color, visibility }),
    // Missing or non-positive heights are dropped with a warning.
    fc.option(fc.oneof(fc.integer({ min: 1, max: 80 }), fc.constantFrom(0, -4, 12.5)), { nil: undefined, freq: 10 }),
    nodeId,
  )
  .map(([style, height, id]) => ({ ...id, type: "row-spacer", ...style, ...(height === undefined ? {} : { height }) }));

const columnStyle: Arb<ReturnType<typeof columnStyleSchema>> = optional({
  backgroundColor: color,
  ...backgroundImageFields,
  padding: spacing(30),
  border,
  verticalAlign: fc.constantFrom("top", "middle", "bottom"),
  props: optional({ visibility }),
});

const rowStyle: Arb<ReturnType<typeof rowStyleSchema>> = optional({
  name: fc.constantFrom("Hero", "Footer"),
  backgroundColor: color,
  backgroundGradient: gradient,
  ...backgroundImageFields,
  padding: spacing(40),
  border,
  minHeight: size(300),
  gap: size(40),
  mobileStack: fc.boolean(),
  visibility,
});

/** Column widths: all missing, exporter-style shares summing to 100 or less, or free (may overfill or leave gaps). */
const widthPlan = fc.record({
  mode: fc.constantFrom("missing", "shares", "free"),
  shares: fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 4, maxLength: 4 }),
  total: fc.constantFrom(100, 100, 96, 92.5),
  free: fc.array(fc.option(percent, { nil: undefined }), { minLength: 4, maxLength: 4 }),
});
type WidthPlan = typeof widthPlan extends fc.Arbitrary<infer T> ? T : never;

function columnWidths(n: number, plan: WidthPlan): Array<number | undefined> {
  if (plan.mode === "missing") return Array.from({ length: n }, () => undefined);
  if (plan.mode === "free") return plan.free.slice(0, n);
  const shares = plan.shares.slice(0, n);
  const sum = shares.reduce((a, b) => a + b, 0);
  const widths = shares.map((s) => Math.round((s / sum) * plan.total * 100) / 100);
  widths[n - 1] = Math.round((plan.total - widths.slice(0, -1).reduce((a, b) => a + b, 0)) * 100) / 100;
  return widths;
}

function column(depth: number): fc.Arbitrary<Node> {
  const children = fc.array(columnChild(depth), { maxLength: depth === 1 ? 4 : 2 });
  return fc
    .tuple(columnStyle, children, fc.constantFrom("children", "children", "components"), nodeId)
    .map(([style, kids, key, id]) => ({ ...id, ...style, [key]: kids }));
}

function columnChild(depth: number): fc.Arbitrary<Node> {
  const choices = [
    { weight: 10, arbitrary: componentNode },
    { weight: 1, arbitrary: rowSpacer },
  ];
  if (depth < MAX_DEPTH) choices.push({ weight: 2, arbitrary: row(depth + 1) });
  return fc.oneof(...choices);
}

/** A row at nesting `depth` (top level = 1), with or without `type`, 0–4 columns. */
function row(depth: number): fc.Arbitrary<Node> {
  const columns = fc.oneof({ weight: 15, arbitrary: fc.array(column(depth), { minLength: 1, maxLength: 4 }) }, { weight: 1, arbitrary: fc.constant([]) });
  return fc.tuple(rowStyle, columns, widthPlan, fc.constantFrom("row", "row", undefined), nodeId).map(([style, cols, plan, type, id]) => {
    const widths = columnWidths(cols.length, plan);
    const withWidths = cols.map((c, i) => {
      const width = widths[i];
      return width === undefined ? c : { ...c, width };
    });
    return { ...id, ...(type ? { type } : {}), ...style, columns: withWidths };
  });
}

const canvas: Arb<ReturnType<typeof canvasObjectSchema>> = optional({
  width: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 100, max: 2000 }) },
    { weight: 3, arbitrary: fc.constantFrom(600, 640, 480, 320, 150, 100) },
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => n / 10) },
  ),
  backgroundColor: color,
  bodyBackgroundColor: color,
  bodyBackgroundImage: fc.oneof(fc.constant(""), imageUrl),
  bodyBackgroundSize: backgroundImageFields.backgroundSize,
  bodyBackgroundPosition: backgroundImageFields.backgroundPosition,
  bodyBackgroundRepeat: backgroundImageFields.backgroundRepeat,
  padding: spacing(40),
  preheaderText: plainText,
  language: fc.constantFrom("en-US", "en", "fr-CA", "de", "zh-Hans-CN", "pt-BR", "ar", "he-IL"),
  direction,
  mobileBreakpoint: fc.oneof(fc.integer({ min: 200, max: 2000 }), fc.constantFrom(480, 600, 640, 479.5)),
});

const template = fc.record({
  template_id: fc.constantFrom("property", "t-1"),
  template_name: plainText,
  schema_version: fc.constantFrom("1.0", "1.2"),
  canvas,
  rows: fc.array(fc.oneof({ weight: 5, arbitrary: row(1) }, { weight: 1, arbitrary: rowSpacer }), { minLength: 1, maxLength: 5 }),
});

// ---- the property -------------------------------------------------------------------------------

async function mjmlReference(mjml: string): Promise<string> {
  // A fresh options object per call: mjml registers each mj-font into `options.fonts` itself, so a
  // shared object would carry one document's fonts into the next one's output.
  const options = { validationLevel: "strict", minify: false, beautify: false, keepComments: true, ignoreIncludes: true, fonts: {} };
  const result = await mjml2html(mjml, options as Parameters<typeof mjml2html>[1]);
  return result.html;
}

/** Where two outputs first differ, with the text around that point in each. */
function firstDifference(ours: string, theirs: string): string {
  let i = 0;
  while (i < ours.length && i < theirs.length && ours[i] === theirs[i]) i++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, i - 150), i + 150));
  return `outputs differ at offset ${i} (ours ${ours.length} chars, mjml ${theirs.length}):\n  ours: ${around(ours)}\n  mjml: ${around(theirs)}`;
}

describe("mjml-to-html on generated templates", () => {
  it("our HTML equals mjml's for the MJML the engine writes of random templates", async () => {
    await fc.assert(
      fc.asyncProperty(template, dynamicData, fc.boolean(), async (doc, data, minify) => {
        const { output } = await render(doc, { target: "mjml", minify, dynamicData: data });
        const ours = compileMjmlToHtml(output);
        const theirs = await mjmlReference(output);
        if (ours !== theirs) throw new Error(`${firstDifference(ours, theirs)}\nMJML:\n${output}`);
      }),
      { numRuns: 300 },
    );
  });
});
