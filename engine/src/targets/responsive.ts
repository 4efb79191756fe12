/**
 * Responsive behaviour: desktopHide/mobileHide classes and per-block `mobile` overrides become
 * classes plus CSS in the document head. The same rules serve the three targets.
 */

import type { PhoneRoles, Renderer, Selector } from "../blocks/block.js";
import { fontStack } from "../markup/fonts.js";
import { px } from "../markup/style.js";
import {
  activeGradient,
  type Border,
  type Gradient,
  type MobileOverrides,
  NAMED_FONT_WEIGHTS,
  type PartialSpacing,
  type SharedPhoneKey,
  type Spacing,
} from "../schema/common.js";

export const HIDE_ON_DESKTOP = "mr-hide-desktop";
export const HIDE_ON_MOBILE = "mr-hide-mobile";
export const STACK_ON_MOBILE = "mr-stack";

export interface ResponsiveProps {
  readonly desktopHide?: boolean;
  readonly mobileHide?: boolean;
  readonly mobile?: Readonly<MobileOverrides>;
  readonly margin?: Spacing;
  readonly padding?: Spacing;
}

type Scope = "text" | "box" | "surface" | "frame";

/**
 * The scalar override keys every block takes, the CSS property each sets, and the part of the block
 * it sets it on (the object keys are written by `objectOverrides`); SHARED_PHONE_KEYS lists both.
 */
const OVERRIDES: Record<
  Exclude<SharedPhoneKey, "padding" | "margin" | "border" | "backgroundGradient">,
  { property: string; unit: "px" | "%" | ""; scope: Scope }
> = {
  fontSize: { property: "font-size", unit: "px", scope: "text" },
  lineHeight: { property: "line-height", unit: "", scope: "text" },
  color: { property: "color", unit: "", scope: "text" },
  letterSpacing: { property: "letter-spacing", unit: "px", scope: "text" },
  align: { property: "text-align", unit: "", scope: "text" },
  fontWeight: { property: "font-weight", unit: "", scope: "text" },
  fontFamily: { property: "font-family", unit: "", scope: "text" },
  fontStyle: { property: "font-style", unit: "", scope: "text" },
  textTransform: { property: "text-transform", unit: "", scope: "text" },
  textDecoration: { property: "text-decoration", unit: "", scope: "text" },
  paddingTop: { property: "padding-top", unit: "px", scope: "box" },
  paddingRight: { property: "padding-right", unit: "px", scope: "box" },
  paddingBottom: { property: "padding-bottom", unit: "px", scope: "box" },
  paddingLeft: { property: "padding-left", unit: "px", scope: "box" },
  backgroundColor: { property: "background-color", unit: "", scope: "surface" },
  borderRadius: { property: "border-radius", unit: "px", scope: "frame" },
};

/** The override keys every block takes, whatever its props (`PhoneRoles.props` adds a block's own). */
export const SHARED_PHONE_KEYS: readonly string[] = Object.keys(OVERRIDES);

function cssValue(value: string | number, unit: "px" | "%" | ""): string {
  if (typeof value === "number") return unit === "px" ? px(value) : unit === "%" ? `${value}%` : String(value);
  return value.replace(/[;{}<>"\\]/g, "");
}

/** A block's selector for this renderer, `&` made its class. */
function select(selector: Selector | undefined, uid: string, renderer: Renderer): string {
  const own = selector === undefined ? "&" : typeof selector === "string" ? selector : selector[renderer];
  return own.replaceAll("&", `.${uid}`);
}

const rule = (selector: string, property: string, value: string): string => `${selector}{${property}:${value} !important}`;

/** Where the block's markup keeps what an override of every block's keys changes. */
function overrideRule(scope: Scope, property: string, value: string, uid: string, roles: PhoneRoles, renderer: Renderer): string {
  switch (scope) {
    case "text":
      return rule(
        `.${uid},.${uid} *`,
        property,
        property === "font-family" ? fontStack(value) : property === "font-weight" ? (NAMED_FONT_WEIGHTS[value.toLowerCase()] ?? value) : value,
      );
    case "box":
      return rule(select(roles.padding, uid, renderer), property, value);
    case "surface":
      return roles.line !== undefined
        ? rule(select(roles.line, uid, renderer), "border-top-color", value)
        : rule(select(roles.surface, uid, renderer), property, value);
    case "frame":
      return rule(select(roles.surface, uid, renderer), property, value);
  }
}

const SIDES = ["top", "right", "bottom", "left"] as const;

/** The editor's object overrides (padding and margin per side, border, background gradient), added to `rules`. */
function objectRules(props: ResponsiveProps, uid: string, roles: PhoneRoles, renderer: Renderer, rules: string[]): void {
  const mobile = props.mobile ?? {};
  const padding = mobile["padding"] as PartialSpacing | undefined;
  const margin = mobile["margin"] as PartialSpacing | undefined;
  if (padding || margin) {
    for (const side of SIDES) {
      const inner = padding?.[side] ?? props.padding?.[side] ?? 0;
      const outer = margin?.[side] ?? props.margin?.[side] ?? 0;
      // Padding inside the block (a button's) apart from its margin; otherwise one box for both.
      if (roles.padding !== undefined) {
        if (padding?.[side] !== undefined) rules.push(`${select(roles.padding, uid, renderer)}{padding-${side}:${px(inner)} !important}`);
        if (margin?.[side] !== undefined) rules.push(`.${uid}{padding-${side}:${px(outer)} !important}`);
      } else if (padding?.[side] !== undefined || margin?.[side] !== undefined) rules.push(`.${uid}{padding-${side}:${px(inner + outer)} !important}`);
    }
  }
  const border = mobile["border"] as Partial<Border> | undefined;
  if (border) {
    const decls: string[] = [];
    if (border.width !== undefined) decls.push(`border-width:${px(border.width)} !important`);
    if (border.style !== undefined) decls.push(`border-style:${border.style} !important`);
    if (border.color !== undefined) decls.push(`border-color:${border.color} !important`);
    if (border.radius !== undefined) decls.push(`border-radius:${px(border.radius)} !important`);
    // Inside a width that fills the column on phones, the border must not push past the screen.
    if (roles.borderInsideWidth && border.width !== undefined && border.width > 0) decls.push(`max-width:calc(100% - ${px(2 * border.width)}) !important`);
    if (decls.length > 0) rules.push(`${select(roles.border ?? roles.surface, uid, renderer)}{${decls.join(";")}}`);
  }
  const gradient = mobile["backgroundGradient"] as Gradient | undefined;
  if (activeGradient(gradient)) rules.push(`${select(roles.surface, uid, renderer)}{background-image:${gradient.css} !important}`);
}

/** Classes for a block, registering the mobile rules its overrides need (its roles: blocks/block.ts). */
export function blockClasses(props: ResponsiveProps, uid: string, mobileCss: string[], roles: PhoneRoles, renderer: Renderer): string {
  // The rules go straight into the stylesheet; the block's class is there when any went in.
  const before = mobileCss.length;
  const mobile = props.mobile;
  if (mobile !== undefined) {
    let overrides = false;
    for (const key in mobile) {
      overrides = true;
      const value = mobile[key];
      if (typeof value !== "string" && typeof value !== "number") continue;
      const shared = Object.hasOwn(OVERRIDES, key) ? OVERRIDES[key as keyof typeof OVERRIDES] : undefined;
      if (shared) {
        mobileCss.push(overrideRule(shared.scope, shared.property, cssValue(value, shared.unit), uid, roles, renderer));
        continue;
      }
      const own = roles.props !== undefined && Object.hasOwn(roles.props, key) ? roles.props[key] : undefined;
      if (own)
        mobileCss.push(
          own
            .declarations(cssValue(value, own.unit), renderer)
            .map(([selector, property, css]) => rule(select(selector, uid, renderer), property, css))
            .join(""),
        );
    }
    // Only a block with overrides has object ones: most blocks have none (`{}`), and every block asks.
    if (overrides) objectRules(props, uid, roles, renderer, mobileCss);
  }
  const hidden = props.desktopHide ? (props.mobileHide ? `${HIDE_ON_DESKTOP} ${HIDE_ON_MOBILE}` : HIDE_ON_DESKTOP) : props.mobileHide ? HIDE_ON_MOBILE : "";
  if (mobileCss.length === before) return hidden;
  return hidden === "" ? uid : `${hidden} ${uid}`;
}

/**
 * The colour schemes a document declares: `light dark` when it has dark colours; else `light`, so
 * that a client does not take it for dark-ready and paint what it leaves to defaults (a link's
 * colour) in dark-scheme colours over the light design (spec/template.md, "Dark mode").
 */
export function colorSchemes(dark: boolean): string {
  return dark ? "light dark" : "light";
}

/** Head CSS shared by every document: colour schemes, paragraph reset, hide classes. */
export function baseCss(schemes: string): string {
  return [
    `:root{color-scheme:${schemes};supported-color-schemes:${schemes}}`,
    "p{margin:0}",
    // An image in rich content has no width of its own: it must not push a phone's page sideways.
    "img{max-width:100%}",
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

export function metaTags(schemes: string): ReadonlyArray<Readonly<Record<string, string>>> {
  return [
    { name: APPLE_NO_REFORMAT, content: "" },
    { name: "color-scheme", content: schemes },
    { name: "supported-color-schemes", content: schemes },
    { name: "format-detection", content: "telephone=no,date=no,address=no,email=no,url=no" },
  ];
}

/** `&#847; &zwnj; &nbsp;` ×7 after the preheader: keeps clients from pulling body text into the preview. */
export const PREHEADER_SPACER = Array.from({ length: 7 }, () => "&#847; &zwnj; &nbsp;").join(" ");

/** Class names joined for a `class` attribute, the empty ones left out (two: `classPair`). */
export function classList(...names: readonly string[]): string {
  let list = "";
  for (let i = 0; i < names.length; i++) if (names[i] !== "") list = list === "" ? names[i]! : `${list} ${names[i]}`;
  return list;
}
