/**
 * The editor description: for each prop of a block (and of the canvas, rows, columns and row
 * spacers), what kind of value it is, how an editor labels it, and where it goes in the settings
 * panel. A form is generated from it (the studio's editor); the engine reads it too, for the props
 * that hold content HTML and URLs, and the docs' per-block tables are generated from it. Plain data
 * (JSON-serialisable) and built on first use: a render never pays for the descriptions of blocks it
 * does not use.
 */
import { VISIBILITY_OPERATORS, type VisibilityOperator } from "./common.js";

/** The dark-mode keys (schema/dark.ts): each names the light colour, or gradient, it replaces. */
export type DarkKey = "bodyBackgroundColor" | "backgroundColor" | "backgroundGradient" | "color" | "linkColor" | "borderColor";

interface FieldBase {
  /** The prop's name (in a list's item fields: the item's key). */
  readonly prop: string;
  readonly label: string;
  /** What it does, in a sentence, when the label alone does not say. */
  readonly hint?: string;
  /** Whether `mobile.<prop>` overrides it on phones. */
  readonly phone?: boolean;
  /** The key in the node's `dark` object holding this colour's dark-mode replacement. */
  readonly dark?: DarkKey;
}

export type Field =
  /** Plain text; `mergeTags`: `{{ tag }}` is replaced per recipient. */
  | (FieldBase & { readonly kind: "text"; readonly mergeTags: boolean; readonly multiline?: boolean })
  /**
   * Content HTML (its email-safe subset), merge tags and the editor's merge spans included. `markup`:
   * what the HTML holds — inline text (a heading's), paragraphs (`<p>`…), or one list (`<ul>`/`<ol>`).
   */
  | (FieldBase & { readonly kind: "richText"; readonly markup: RichTextMarkup })
  /** A link: http(s), mailto or tel; a merge tag may give the whole URL or a part. */
  | (FieldBase & { readonly kind: "url" })
  /** An image's URL (http(s), `data:image/…`, `cid:`); merge tags allowed. */
  | (FieldBase & { readonly kind: "imageUrl" })
  | (FieldBase & { readonly kind: "color" })
  /** A number in `unit`; `min`…`max` (by `step`) is the range a form offers. `auto`: the keyword `"auto"` is allowed too. */
  | (FieldBase & {
      readonly kind: "number";
      readonly unit: "px" | "%" | "";
      readonly min: number;
      readonly max: number;
      readonly step: number;
      readonly auto?: boolean;
    })
  | (FieldBase & { readonly kind: "enum"; readonly options: readonly { readonly value: string; readonly label: string }[] })
  | (FieldBase & { readonly kind: "boolean" })
  /** `{top, right, bottom, left}` in px, or one number for all four. */
  | (FieldBase & { readonly kind: "spacing" })
  /** `{width, style, color, radius}`. */
  | (FieldBase & { readonly kind: "border" })
  /** The editor's gradient: `{useGradient, solid, gradient: {type, direction, colors}}`. */
  | (FieldBase & { readonly kind: "gradient" })
  /** A CSS font-family list; `suggestions` are the web-safe families. */
  | (FieldBase & { readonly kind: "fontFamily"; readonly suggestions: readonly string[] })
  /** A CSS value of a grammar a text box takes (background size, position, repeat). */
  | (FieldBase & { readonly kind: "css"; readonly suggestions: readonly string[] })
  /** An array of objects (menu items, social platforms), each edited with `fields`. */
  | (FieldBase & { readonly kind: "entries"; readonly itemLabel: string; readonly fields: readonly Field[] })
  /** Visibility rules (spec/template.md, "Visibility"), with the operators a rule may use. */
  | (FieldBase & { readonly kind: "visibility"; readonly operators: readonly { readonly value: VisibilityOperator; readonly label: string }[] });

export type FieldKind = Field["kind"];

export type RichTextMarkup = "inline" | "paragraphs" | "list";

export interface FieldGroup {
  readonly id: string;
  readonly label: string;
  readonly fields: readonly Field[];
}

/** How an editor presents one block type, or the canvas, a row, a column, a row spacer. */
export interface EditorDescription {
  readonly label: string;
  /** What it is, in a sentence. */
  readonly description: string;
  readonly groups: readonly FieldGroup[];
  /**
   * Its `dark` colours, with the light prop each replaces (`linkColor`: the links inside it);
   * `kind: "gradient"` marks a gradient in the light one's shape (the `gradient` field kind).
   */
  readonly dark: readonly { readonly key: DarkKey; readonly label: string; readonly kind?: "gradient" }[];
}

const fieldLists = new WeakMap<EditorDescription, readonly Field[]>();

/** Every field of a description, lists' item fields not included (one list per description, kept). */
export function fieldsOf(description: EditorDescription): readonly Field[] {
  let fields = fieldLists.get(description);
  if (fields === undefined) {
    fields = description.groups.flatMap((group) => group.fields);
    fieldLists.set(description, fields);
  }
  return fields;
}

// ---- building blocks shared by the descriptions -------------------------------------------------

const WEB_SAFE_FONTS = [
  "Arial",
  "Arial Black",
  "Comic Sans MS",
  "Courier New",
  "Georgia",
  "Helvetica",
  "Impact",
  "Lucida Console",
  "Lucida Sans Unicode",
  "Palatino Linotype",
  "Tahoma",
  "Times New Roman",
  "Trebuchet MS",
  "Verdana",
];

const options = (...pairs: readonly (readonly [string, string])[]) => pairs.map(([value, label]) => ({ value, label }));

/** Every operator of a visibility rule (schema/common.ts), as an editor names it. */
const VISIBILITY_OPERATOR_LABELS: Readonly<Record<VisibilityOperator, string>> = {
  "==": "is",
  "!=": "is not",
  contains: "contains",
  not_contains: "does not contain",
  starts_with: "starts with",
  ends_with: "ends with",
  in: "is one of",
  not_in: "is none of",
  ">": "is more than",
  "<": "is less than",
  ">=": "is at least",
  "<=": "is at most",
  date_before: "is a date before",
  date_after: "is a date after",
  date_on: "is the date",
  is_empty: "is empty",
  is_not_empty: "is not empty",
};
const visibilityOperatorOptions = shared(() => VISIBILITY_OPERATORS.map((value) => ({ value, label: VISIBILITY_OPERATOR_LABELS[value] })));

const ALIGN_OPTIONS = options(["left", "Left"], ["center", "Centre"], ["right", "Right"]);
const TEXT_ALIGN_OPTIONS = options(["start", "Start"], ["left", "Left"], ["center", "Centre"], ["right", "Right"], ["end", "End"]);
const DIRECTION_OPTIONS = options(["ltr", "Left to right"], ["rtl", "Right to left"], ["auto", "From the text"]);

const px = (prop: string, label: string, min: number, max: number, extra: Partial<FieldBase> = {}): Field => ({
  prop,
  label,
  kind: "number",
  unit: "px",
  min,
  max,
  step: 1,
  ...extra,
});

export const field = {
  text: (prop: string, label: string, extra: Partial<FieldBase> & { mergeTags?: boolean; multiline?: boolean } = {}): Field => ({
    prop,
    label,
    kind: "text",
    mergeTags: true,
    ...extra,
  }),
  richText: (prop: string, label: string, markup: RichTextMarkup, extra: Partial<FieldBase> = {}): Field => ({
    prop,
    label,
    kind: "richText",
    markup,
    ...extra,
  }),
  url: (prop: string, label: string, extra: Partial<FieldBase> = {}): Field => ({ prop, label, kind: "url", ...extra }),
  imageUrl: (prop: string, label: string, extra: Partial<FieldBase> = {}): Field => ({ prop, label, kind: "imageUrl", ...extra }),
  color: (prop: string, label: string, extra: Partial<FieldBase> = {}): Field => ({ prop, label, kind: "color", ...extra }),
  px,
  number: (
    prop: string,
    label: string,
    unit: "px" | "%" | "",
    range: { min: number; max: number; step: number; auto?: boolean },
    extra: Partial<FieldBase> = {},
  ): Field => ({
    prop,
    label,
    kind: "number",
    unit,
    ...range,
    ...extra,
  }),
  enum: (prop: string, label: string, choices: readonly { value: string; label: string }[], extra: Partial<FieldBase> = {}): Field => ({
    prop,
    label,
    kind: "enum",
    options: choices,
    ...extra,
  }),
  boolean: (prop: string, label: string, extra: Partial<FieldBase> = {}): Field => ({ prop, label, kind: "boolean", ...extra }),
  spacing: (prop: string, label: string, extra: Partial<FieldBase> = {}): Field => ({ prop, label, kind: "spacing", ...extra }),
  border: (prop: string, label: string, extra: Partial<FieldBase> = {}): Field => ({ prop, label, kind: "border", ...extra }),
  gradient: (prop: string, label: string, extra: Partial<FieldBase> = {}): Field => ({ prop, label, kind: "gradient", ...extra }),
  css: (prop: string, label: string, suggestions: readonly string[], extra: Partial<FieldBase> = {}): Field => ({
    prop,
    label,
    kind: "css",
    suggestions,
    ...extra,
  }),
  entries: (prop: string, label: string, itemLabel: string, fields: readonly Field[], extra: Partial<FieldBase> = {}): Field => ({
    prop,
    label,
    kind: "entries",
    itemLabel,
    fields,
    ...extra,
  }),
  align: (extra: Partial<FieldBase> = {}): Field => ({ prop: "align", label: "Alignment", kind: "enum", options: ALIGN_OPTIONS, phone: true, ...extra }),
  /** Text alignment (`textAlignSchema`): start and end follow the text's direction, left and right stay. */
  textAlign: (): Field => ({
    prop: "align",
    label: "Alignment",
    kind: "enum",
    options: TEXT_ALIGN_OPTIONS,
    phone: true,
    hint: "Start and end follow the text's direction; left and right stay where they are",
  }),
  /** Which way the text runs (`directionSchema`); `hint` says what an unset one follows. */
  direction: (hint: string): Field => ({ prop: "direction", label: "Text direction", kind: "enum", options: DIRECTION_OPTIONS, hint }),
  visibility: (): Field => ({
    prop: "visibility",
    label: "Visibility rules",
    kind: "visibility",
    operators: visibilityOperatorOptions(),
    hint: "Show it only to recipients whose data matches",
  }),
};

/** `build`, called once: the shared parts of the descriptions are built on first use and then shared (they are never changed). */
function shared<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** The typography fields (`typographyFields` in common.ts), all of which phones can override. */
export const typographyGroup = shared(
  (): FieldGroup => ({
    id: "typography",
    label: "Typography",
    fields: [
      fontFamilyField(),
      px("fontSize", "Font size", 8, 72, { phone: true }),
      field.number("lineHeight", "Line height", "", { min: 0.8, max: 3, step: 0.1 }, { phone: true }),
      fontWeightField(),
      field.enum("fontStyle", "Style", options(["normal", "Normal"], ["italic", "Italic"], ["oblique", "Oblique"]), { phone: true }),
      field.color("color", "Text colour", { phone: true, dark: "color" }),
      field.number("letterSpacing", "Letter spacing", "px", { min: -2, max: 10, step: 0.5 }, { phone: true }),
      field.enum(
        "textTransform",
        "Case",
        options(["none", "As written"], ["uppercase", "UPPER CASE"], ["lowercase", "lower case"], ["capitalize", "Capitalised"]),
        {
          phone: true,
        },
      ),
      field.enum("textDecoration", "Decoration", TEXT_DECORATION_OPTIONS, { phone: true }),
      field.textAlign(),
    ],
  }),
);

/** A text block's own direction (`directionSchema`); unset, it follows the email's. */
export const directionField = shared((): Field => field.direction("Left out, it follows the email's"));

/** A font list, with the web-safe families as suggestions (others load from Google Fonts). */
export const fontFamilyField = shared((): Field => ({ prop: "fontFamily", label: "Font", kind: "fontFamily", suggestions: WEB_SAFE_FONTS, phone: true }));

/** A font weight: the common ones offered; any CSS weight (1–1000) or weight name is accepted. */
export const fontWeightField = shared(
  (): Field =>
    field.enum("fontWeight", "Weight", FONT_WEIGHT_OPTIONS, { phone: true, hint: "Also any weight from 1 to 1000, or a name such as medium or semibold" }),
);

const TEXT_DECORATION_OPTIONS = options(["none", "None"], ["underline", "Underline"], ["line-through", "Strike-through"], ["overline", "Overline"]);

const FONT_WEIGHT_OPTIONS = options(
  ["normal", "Regular (400)"],
  ["bold", "Bold (700)"],
  ["100", "Thin (100)"],
  ["200", "Extra light (200)"],
  ["300", "Light (300)"],
  ["500", "Medium (500)"],
  ["600", "Semibold (600)"],
  ["800", "Extra bold (800)"],
  ["900", "Black (900)"],
);

/** A block's background: `surfaceFields` in common.ts. */
export const backgroundFields = shared((): Field[] => [
  field.color("backgroundColor", "Background colour", { phone: true, dark: "backgroundColor" }),
  field.gradient("backgroundGradient", "Background gradient", { phone: true, dark: "backgroundGradient" }),
]);

/** Margin (outside) and padding (inside): `commonBlockFields` in common.ts. */
export function spacingGroup(hint?: { margin?: string; padding?: string }): FieldGroup {
  return hint === undefined ? plainSpacingGroup() : spacingFields(hint);
}

const plainSpacingGroup = shared(() => spacingFields({}));

function spacingFields(hint: { margin?: string; padding?: string }): FieldGroup {
  return {
    id: "spacing",
    label: "Spacing",
    fields: [
      field.spacing("margin", "Margin", { phone: true, ...(hint.margin === undefined ? {} : { hint: hint.margin }) }),
      field.spacing("padding", "Padding", { phone: true, ...(hint.padding === undefined ? {} : { hint: hint.padding }) }),
    ],
  };
}

/** Visibility rules and hiding per device: the rest of `commonBlockFields`. */
/** A framed medium's look (image, video): rounded corners and a border, both of which phones can override. */
export const frameGroup = shared(
  (): FieldGroup => ({
    id: "appearance",
    label: "Appearance",
    fields: [field.px("borderRadius", "Corner radius", 0, 100, { phone: true }), field.border("border", "Border", { phone: true, dark: "borderColor" })],
  }),
);

export const visibilityGroup = shared(
  (): FieldGroup => ({
    id: "visibility",
    label: "Visibility",
    fields: [
      field.visibility(),
      field.boolean("desktopHide", "Hide on desktop", { hint: "Shown only under the mobile breakpoint (and left out of the plain-text version)" }),
      field.boolean("mobileHide", "Hide on phones", { hint: "Hidden under the mobile breakpoint" }),
    ],
  }),
);

const DARK_LABELS: Record<DarkKey, string> = {
  bodyBackgroundColor: "Page background",
  backgroundColor: "Background",
  color: "Text",
  linkColor: "Links",
  borderColor: "Border",
  backgroundGradient: "Background gradient",
};

/** The dark colours a node takes, labelled: the keys of its `dark` schema (schema/dark.ts). */
export function darkColors(...keys: DarkKey[]): EditorDescription["dark"] {
  return keys.map((key) => (key === "backgroundGradient" ? { key, label: DARK_LABELS[key], kind: "gradient" } : { key, label: DARK_LABELS[key] }));
}
