/**
 * A template in the two forms the Maildeno editor writes (`@maildeno/editor`,
 * packages/editor/src/composables/emailBuilder): the in-memory *hydrated* form (every default filled,
 * transform/pipeline/hydrate.ts over core/useEmailBuilderDefault.ts) and the *export* form (defaults
 * stripped again, transform/pipeline/optimize.ts). Written from that source for tests: the same design
 * must read the same in every form.
 */
import { BLOCKS, blockOf } from "../../src/blocks/registry.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const ZERO = { top: 0, right: 0, bottom: 0, left: 0 };
const gradient = (solid: string, first: string, last: string) => ({
  useGradient: false,
  solid,
  gradient: {
    type: "linear",
    direction: "to right",
    colors: [
      { color: first, position: 0 },
      { color: last, position: 100 },
    ],
  },
});
const background = (solid: string) => gradient(solid, solid, "#00ff88");
const transparentBackground = () => gradient("transparent", "#ffffff", "#eeeeee");
const nulls = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, null]));
const TEXT_MOBILE = [
  "fontSize",
  "lineHeight",
  "color",
  "fontWeight",
  "fontFamily",
  "letterSpacing",
  "backgroundColor",
  "backgroundGradient",
  "textTransform",
  "textDecoration",
  "align",
  "margin",
  "padding",
];

/** core/useEmailBuilderDefault.ts, without the base config (visibility and hide flags, added below). */
export const EDITOR_DEFAULTS: Record<string, Json> = {
  paragraph: {
    content: "Enter your paragraph text here",
    fontSize: 16,
    lineHeight: 1.5,
    color: "#111111",
    fontWeight: "normal",
    fontFamily: "Arial",
    fontStyle: "normal",
    letterSpacing: 0,
    backgroundColor: "transparent",
    backgroundGradient: transparentBackground(),
    margin: ZERO,
    padding: ZERO,
    textTransform: "none",
    textDecoration: "none",
    align: "left",
    mobile: nulls(...TEXT_MOBILE, "fontStyle"),
  },
  heading: {
    content: "Heading Text",
    level: "h2",
    fontSize: 32,
    lineHeight: 1.2,
    color: "#111111",
    fontWeight: "bold",
    fontFamily: "Arial",
    letterSpacing: 0,
    backgroundColor: "transparent",
    backgroundGradient: transparentBackground(),
    margin: ZERO,
    padding: ZERO,
    textTransform: "none",
    textDecoration: "none",
    align: "left",
    mobile: nulls(...TEXT_MOBILE),
  },
  image: {
    src: "https://email-builder-nor-dev.s3.amazonaws.com/images/2026/08/20/5bffeaf2.jpeg",
    alt: "Image",
    width: 100,
    height: "auto",
    align: "center",
    link: "https://example.com",
    enabled: false,
    margin: ZERO,
    padding: ZERO,
    borderRadius: 0,
    border: { width: 0, color: "transparent", style: "solid" },
    mobile: nulls("width", "height", "align", "margin", "padding", "borderRadius", "border"),
  },
  video: {
    fallbackLink: "https://example.com",
    src: "",
    coverImage: "",
    alt: "Watch video",
    width: 100,
    height: "auto",
    align: "center",
    margin: ZERO,
    padding: ZERO,
    borderRadius: 0,
    border: { width: 0, color: "transparent", style: "solid" },
    mobile: nulls("width", "height", "align", "margin", "padding", "borderRadius", "border"),
  },
  list: {
    content: "<ul><li>List item 1</li><li>List item 2</li><li>List item 3</li></ul>",
    fontSize: 16,
    lineHeight: 1.5,
    fontFamily: "Arial",
    letterSpacing: 0,
    color: "#111111",
    backgroundColor: "transparent",
    backgroundGradient: transparentBackground(),
    margin: ZERO,
    padding: { top: 0, right: 0, bottom: 0, left: 20 },
    itemSpacing: 8,
    mobile: nulls(
      "fontSize",
      "lineHeight",
      "fontFamily",
      "letterSpacing",
      "color",
      "backgroundColor",
      "backgroundGradient",
      "margin",
      "padding",
      "itemSpacing",
    ),
  },
  button: {
    text: "Click Me",
    link: "https://example.com",
    backgroundColor: "#007bff",
    backgroundGradient: background("#007bff"),
    color: "#fafafa",
    fontSize: 16,
    fontWeight: "medium",
    fontFamily: "Arial",
    letterSpacing: 0,
    margin: ZERO,
    padding: { top: 12, right: 24, bottom: 12, left: 24 },
    borderRadius: 4,
    border: { width: 0, color: "transparent", style: "solid" },
    align: "center",
    icon: "",
    iconAlt: "",
    iconPosition: "before",
    iconSize: 20,
    iconGap: 8,
    mobile: nulls(
      "fontSize",
      "fontWeight",
      "fontFamily",
      "letterSpacing",
      "backgroundColor",
      "backgroundGradient",
      "color",
      "padding",
      "margin",
      "borderRadius",
      "border",
      "align",
    ),
  },
  anchor: {
    text: "Click here",
    link: "https://example.com",
    color: "#007bff",
    fontSize: 16,
    fontWeight: "normal",
    fontFamily: "Arial",
    letterSpacing: 0,
    textDecoration: "underline",
    margin: ZERO,
    padding: ZERO,
    align: "left",
    mobile: nulls("fontSize", "fontWeight", "fontFamily", "letterSpacing", "color", "textDecoration", "margin", "padding", "align"),
  },
  divider: {
    backgroundColor: "#cccccc",
    backgroundGradient: background("#cccccc"),
    height: 1,
    width: 100,
    margin: { top: 20, right: 0, bottom: 20, left: 0 },
    padding: { top: 5, right: 0, bottom: 5, left: 0 },
    align: "center",
    mobile: nulls("backgroundColor", "backgroundGradient", "height", "width", "margin", "padding", "align"),
  },
  spacer: {
    height: 20,
    backgroundColor: "transparent",
    backgroundGradient: background("transparent"),
    mobile: nulls("height", "backgroundColor", "backgroundGradient"),
  },
  menu: {
    items: [
      { label: "Home", link: "https://example.com", enabled: true },
      { label: "About", link: "https://example.com", enabled: true },
      { label: "Contact", link: "https://example.com", enabled: true },
    ],
    fontSize: 16,
    lineHeight: 1.5,
    fontWeight: "normal",
    fontFamily: "Arial",
    fontStyle: "normal",
    letterSpacing: 0,
    color: "#111111",
    textTransform: "none",
    textDecoration: "none",
    backgroundColor: "transparent",
    backgroundGradient: transparentBackground(),
    spacing: 16,
    align: "center",
    margin: ZERO,
    padding: ZERO,
    mobileStack: false,
    mobile: nulls(
      "fontSize",
      "lineHeight",
      "fontWeight",
      "fontFamily",
      "fontStyle",
      "letterSpacing",
      "color",
      "textTransform",
      "textDecoration",
      "backgroundColor",
      "backgroundGradient",
      "spacing",
      "align",
      "margin",
      "padding",
    ),
  },
  socials: {
    platforms: [],
    iconSize: 28,
    spacing: 10,
    align: "center",
    margin: ZERO,
    padding: ZERO,
    mobile: nulls("iconSize", "spacing", "align", "margin", "padding"),
  },
};

/**
 * Props whose editor default differs from this engine's *and* which a reader sees. A design keeps what
 * it shows in every form, so these are made explicit (from this engine's defaults) before the editor's
 * defaults fill the rest, as the editor would hold a design that shows exactly that. (The editor's
 * socials default platforms are left out above for the same reason.)
 */
const READER_FACING = ["content", "text", "link", "src", "alt", "items", "platforms", "coverImage", "fallbackLink", "enabled", "label"];

const ROW_DEFAULTS = {
  backgroundColor: "#ffffff",
  backgroundGradient: gradient("#ffffff", "#ffffff", "#eeeeee"),
  backgroundImage: "",
  backgroundSize: "cover",
  backgroundPosition: "center center",
  backgroundRepeat: "no-repeat",
  padding: ZERO,
  border: { width: 0, style: "solid", color: "#000000", radius: 0 },
  minHeight: 0,
  gap: 12,
  mobileStack: true,
};
const ROW_SPACER_DEFAULTS = { backgroundColor: "transparent", backgroundGradient: gradient("transparent", "#ffffff", "#eeeeee") };
const COLUMN_DEFAULTS = {
  backgroundColor: "transparent",
  backgroundGradient: gradient("transparent", "#ffffff", "#eeeeee"),
  backgroundImage: "",
  backgroundSize: "cover",
  backgroundPosition: "center center",
  backgroundRepeat: "no-repeat",
  padding: ZERO,
  border: { width: 0, style: "solid", color: "#000000", radius: 0 },
  verticalAlign: "top",
};
const CANVAS_DEFAULTS = {
  language: "en-US",
  preheaderText: "View this email in your browser",
  bodyBackgroundColor: "#f9fafb",
  bodyBackgroundImage: "",
  bodyBackgroundSize: "cover",
  bodyBackgroundPosition: "center center",
  bodyBackgroundRepeat: "no-repeat",
  backgroundColor: "#ffffff",
  width: 600,
  padding: ZERO,
  mobileBreakpoint: 600,
};
const defaultVisibility = () => ({ enabled: false, match: "all", rules: [] as unknown[] });

/** hydrate.ts's deepMerge: saved wins, null/undefined keep the default, objects merge, arrays replace. */
function deepMerge(defaults: Json, saved: Json): Json {
  const result = clone(defaults);
  for (const [key, value] of Object.entries(saved)) {
    if (value === null || value === undefined) continue;
    const base = defaults[key];
    result[key] = isObject(value) && isObject(base) ? deepMerge(base, value) : value;
  }
  return result;
}

/** Spacing written as one number (this engine's shorthand) as the editor's object. */
const expandSpacing = (v: unknown) => (typeof v === "number" ? { top: v, right: v, bottom: v, left: v } : v);

function hydrateComponent(node: Json): Json {
  const type = String(node["componentType"] ?? node["type"]);
  const block = blockOf(BLOCKS, type);
  if (block === undefined) return { ...node, type: "component", componentType: type };
  const saved = isObject(node["props"]) ? { ...node["props"] } : {};
  for (const key of ["margin", "padding"]) if (key in saved) saved[key] = expandSpacing(saved[key]);
  const ours = block.props.parse({}) as Json;
  for (const key of READER_FACING) if (!(key in saved) && key in ours) saved[key] = ours[key];
  const defaults = EDITOR_DEFAULTS[type]!;
  const props = deepMerge(defaults, saved);
  props["mobile"] = { ...(defaults["mobile"] as Json), ...(isObject(saved["mobile"]) ? saved["mobile"] : {}) };
  props["visibility"] = props["visibility"] ?? defaultVisibility();
  props["desktopHide"] = props["desktopHide"] ?? false;
  props["mobileHide"] = props["mobileHide"] ?? false;
  // hydrate.ts keeps the gradient's solid colour in step with backgroundColor.
  if (isObject(props["backgroundGradient"]) && typeof props["backgroundColor"] === "string")
    (props["backgroundGradient"] as Json)["solid"] = props["backgroundColor"];
  return { id: node["id"], type: "component", componentType: type, props };
}

function hydrateChild(child: Json): Json {
  const type = child["type"];
  if (type === "component" || (typeof type === "string" && type in EDITOR_DEFAULTS)) return hydrateComponent(child);
  return hydrateRow(child);
}

function hydrateColumn(column: Json): Json {
  const { children, components, ...rest } = column;
  const explicit = rest["backgroundColor"] !== undefined || rest["backgroundGradient"] !== undefined || rest["backgroundImage"] !== undefined;
  const { backgroundColor, backgroundGradient, ...noBackground } = COLUMN_DEFAULTS;
  if ("padding" in rest) rest["padding"] = expandSpacing(rest["padding"]);
  const base = deepMerge(noBackground, rest);
  if (!explicit) Object.assign(base, clone({ backgroundColor, backgroundGradient }));
  const kids = (Array.isArray(children) ? children : Array.isArray(components) ? components : []) as Json[];
  return { ...base, children: kids.map(hydrateChild) };
}

function hydrateRow(row: Json): Json {
  if (row["type"] === "row-spacer") return { ...deepMerge(ROW_SPACER_DEFAULTS, row), visibility: row["visibility"] ?? defaultVisibility() };
  const { columns, ...rest } = row;
  const explicit = rest["backgroundColor"] !== undefined || rest["backgroundGradient"] !== undefined || rest["backgroundImage"] !== undefined;
  const { backgroundColor, backgroundGradient, ...noBackground } = ROW_DEFAULTS;
  if ("padding" in rest) rest["padding"] = expandSpacing(rest["padding"]);
  const base = deepMerge({ ...noBackground, visibility: defaultVisibility() }, rest);
  if (!explicit) Object.assign(base, clone({ backgroundColor, backgroundGradient }));
  return { ...base, type: "row", columns: (Array.isArray(columns) ? (columns as Json[]) : []).map(hydrateColumn) };
}

/** The editor's in-memory form of a template: every default filled. */
export function toHydrated(template: Json): Json {
  const canvas = isObject(template["canvas"]) ? { ...template["canvas"] } : {};
  if ("padding" in canvas) canvas["padding"] = expandSpacing(canvas["padding"]);
  return {
    ...template,
    canvas: deepMerge(CANVAS_DEFAULTS, canvas),
    rows: (Array.isArray(template["rows"]) ? (template["rows"] as Json[]) : []).map(hydrateRow),
  };
}

// ---- optimize.ts -------------------------------------------------------------------------------

const isDefaultVisibility = (v: unknown) =>
  !isObject(v) || (!(Array.isArray(v["rules"]) && v["rules"].length > 0) && v["enabled"] === false && v["match"] === "all");
const isZero = (v: unknown) => !isObject(v) || (v["top"] === 0 && v["right"] === 0 && v["bottom"] === 0 && v["left"] === 0);
const isDefaultGradient = (v: unknown) => !isObject(v) || v["useGradient"] === false;
const isDefaultBorder = (v: unknown) =>
  !isObject(v) || (v["width"] === 0 && v["style"] === "solid" && v["color"] === "#000000" && (v["radius"] === undefined || v["radius"] === 0));

function optimizeComponent(node: Json): Json {
  const props = { ...(node["props"] as Json) };
  if (isObject(props["mobile"])) {
    const mobile = Object.fromEntries(
      Object.entries(props["mobile"]).filter(([key, v]) => v !== null && v !== undefined && !(key === "backgroundGradient" && isDefaultGradient(v))),
    );
    if (Object.keys(mobile).length > 0) props["mobile"] = mobile;
    else delete props["mobile"];
  }
  if (isDefaultVisibility(props["visibility"])) delete props["visibility"];
  if (props["desktopHide"] === false) delete props["desktopHide"];
  if (props["mobileHide"] === false) delete props["mobileHide"];
  if (isZero(props["margin"])) delete props["margin"];
  if (isZero(props["padding"])) delete props["padding"];
  if (isDefaultGradient(props["backgroundGradient"])) delete props["backgroundGradient"];
  if (props["letterSpacing"] === 0) delete props["letterSpacing"];
  if (!props["backgroundImage"]) for (const key of ["backgroundImage", "backgroundSize", "backgroundPosition", "backgroundRepeat"]) delete props[key];
  if ("icon" in props && !props["icon"]) for (const key of ["icon", "iconAlt", "iconPosition", "iconSize", "iconGap"]) delete props[key];
  if (Array.isArray(props["platforms"])) {
    const kept = (props["platforms"] as Json[]).filter((p) => !(p["enabled"] === true && p["link"] === ""));
    if (kept.length === 0) delete props["platforms"];
    else props["platforms"] = kept;
  }
  return { id: node["id"], type: node["type"], componentType: node["componentType"], props };
}

function optimizeChild(child: Json): Json {
  return child["type"] === "component" ? optimizeComponent(child) : optimizeRow(child);
}

function optimizeRow(row: Json): Json {
  const { columns, ...rest } = row;
  if (isDefaultVisibility(rest["visibility"])) delete rest["visibility"];
  if (isDefaultGradient(rest["backgroundGradient"])) delete rest["backgroundGradient"];
  if (row["type"] === "row-spacer") return rest;
  if (isDefaultBorder(rest["border"])) delete rest["border"];
  if (isZero(rest["padding"])) delete rest["padding"];
  if (!rest["backgroundImage"]) for (const key of ["backgroundImage", "backgroundSize", "backgroundPosition", "backgroundRepeat"]) delete rest[key];
  if (rest["minHeight"] === 0) delete rest["minHeight"];
  return {
    ...rest,
    columns: (Array.isArray(columns) ? (columns as Json[]) : []).map((column) => {
      const { children, ...style } = column;
      if (isDefaultBorder(style["border"])) delete style["border"];
      if (isDefaultGradient(style["backgroundGradient"])) delete style["backgroundGradient"];
      if (isZero(style["padding"])) delete style["padding"];
      if (!style["backgroundImage"]) for (const key of ["backgroundImage", "backgroundSize", "backgroundPosition", "backgroundRepeat"]) delete style[key];
      return { ...style, children: ((children ?? []) as Json[]).map(optimizeChild) };
    }),
  };
}

/** The editor's export form: its hydrated form with defaults stripped again. */
export function toExport(template: Json): Json {
  const hydrated = toHydrated(template);
  const canvas = { ...(hydrated["canvas"] as Json) };
  if (!canvas["bodyBackgroundImage"])
    for (const key of ["bodyBackgroundImage", "bodyBackgroundSize", "bodyBackgroundPosition", "bodyBackgroundRepeat"]) delete canvas[key];
  if (isZero(canvas["padding"])) delete canvas["padding"];
  return { ...hydrated, canvas, rows: (hydrated["rows"] as Json[]).map(optimizeRow) };
}
