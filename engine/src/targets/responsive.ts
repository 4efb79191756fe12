/**
 * Responsive behaviour: desktopHide/mobileHide classes and per-block `mobile` overrides become
 * classes plus CSS in the document head. The same rules serve the three targets.
 */
import { px } from "../render/style.js";

export const HIDE_ON_DESKTOP = "mr-hide-desktop";
export const HIDE_ON_MOBILE = "mr-hide-mobile";
export const STACK_ON_MOBILE = "mr-stack";

export interface ResponsiveProps {
  readonly desktopHide?: boolean;
  readonly mobileHide?: boolean;
  readonly mobile?: Readonly<Record<string, string | number>>;
}

/** Mobile override keys and the CSS property each sets. */
const OVERRIDES: Record<string, { property: string; unit: "px" | "%" | ""; scope: "text" | "box" | "height" | "image" }> = {
  fontSize: { property: "font-size", unit: "px", scope: "text" },
  lineHeight: { property: "line-height", unit: "", scope: "text" },
  color: { property: "color", unit: "", scope: "text" },
  letterSpacing: { property: "letter-spacing", unit: "px", scope: "text" },
  align: { property: "text-align", unit: "", scope: "text" },
  paddingTop: { property: "padding-top", unit: "px", scope: "box" },
  paddingRight: { property: "padding-right", unit: "px", scope: "box" },
  paddingBottom: { property: "padding-bottom", unit: "px", scope: "box" },
  paddingLeft: { property: "padding-left", unit: "px", scope: "box" },
  height: { property: "height", unit: "px", scope: "height" },
  width: { property: "width", unit: "%", scope: "image" },
};

function cssValue(value: string | number, unit: "px" | "%" | ""): string {
  if (typeof value === "number") return unit === "px" ? px(value) : unit === "%" ? `${value}%` : String(value);
  return value.replace(/[;{}<>"\\]/g, "");
}

/** Where the block's markup keeps what an override changes, per renderer. */
function overrideRule(scope: string, property: string, value: string, uid: string, block: string, renderer: "mjml" | "html" | "jsx"): string {
  const set = (selector: string, prop = property) => `${selector}{${prop}:${value} !important}`;
  switch (scope) {
    case "text":
      return set(`.${uid},.${uid} *`);
    case "box":
      // A button's padding is the space inside it, which lives on its link.
      return set(block === "button" ? `.${uid} a` : `.${uid}`);
    case "height":
      return set(`.${uid},.${uid} div`) + set(`.${uid} div`, "line-height");
    default:
      // mj-image sizes the image by its inner table; plain HTML sizes the <img> itself.
      return renderer === "mjml" ? set(`.${uid} table`) + `.${uid} td td{width:auto !important}` : set(`.${uid} img`) + set(`.${uid} img`, "max-width");
  }
}

/** Classes for a block, registering the mobile rules its overrides need. */
export function blockClasses(props: ResponsiveProps, uid: string, mobileCss: string[], block: string, renderer: "mjml" | "html" | "jsx"): string {
  const classes: string[] = [];
  if (props.desktopHide) classes.push(HIDE_ON_DESKTOP);
  if (props.mobileHide) classes.push(HIDE_ON_MOBILE);
  const overrides = Object.entries(props.mobile ?? {}).filter(([key]) => key in OVERRIDES);
  if (overrides.length > 0) {
    classes.push(uid);
    for (const [key, value] of overrides) {
      const rule = OVERRIDES[key];
      if (rule) mobileCss.push(overrideRule(rule.scope, rule.property, cssValue(value, rule.unit), uid, block, renderer));
    }
  }
  return classes.join(" ");
}

/** Head CSS shared by every document: light/dark support, paragraph reset, hide classes. */
export function baseCss(): string {
  return [
    ":root{color-scheme:light dark;supported-color-schemes:light dark}",
    "p{margin:0}",
    `.${HIDE_ON_DESKTOP}{display:none !important;mso-hide:all !important;max-height:0 !important;overflow:hidden !important}`,
  ].join("\n");
}

export function mobileCss(breakpoint: number, rules: readonly string[]): string {
  const all = [
    `.${HIDE_ON_DESKTOP}{display:block !important;max-height:none !important;overflow:visible !important}`,
    `.${HIDE_ON_MOBILE}{display:none !important;mso-hide:all !important}`,
    `.${STACK_ON_MOBILE}{display:block !important;width:auto !important;max-width:100% !important}`,
    ...rules,
  ];
  return `@media only screen and (max-width:${breakpoint}px){\n${all.join("\n")}\n}`;
}

/** Rules for screens wider than the breakpoint only (none: no media query at all). */
export function desktopCss(breakpoint: number, rules: readonly string[]): string[] {
  return rules.length === 0 ? [] : [`@media only screen and (min-width:${breakpoint + 1}px){\n${rules.join("\n")}\n}`];
}

export const APPLE_NO_REFORMAT = "x-apple-disable-message-reformatting";

export const META_TAGS: ReadonlyArray<Readonly<Record<string, string>>> = [
  { name: APPLE_NO_REFORMAT, content: "" },
  { name: "color-scheme", content: "light dark" },
  { name: "supported-color-schemes", content: "light dark" },
  { name: "format-detection", content: "telephone=no,date=no,address=no,email=no,url=no" },
];

/** `&#847; &zwnj; &nbsp;` ×7 after the preheader: keeps clients from pulling body text into the preview. */
export const PREHEADER_SPACER = Array.from({ length: 7 }, () => "&#847; &zwnj; &nbsp;").join(" ");
