/**
 * Schema pieces shared by the document, its rows and columns, and every block. Defaults are
 * implicit (the editor strips values equal to their defaults), so every field here has one and
 * every object is `prefault({})`: a missing object is parsed as an empty one and filled in.
 */
import * as z from "zod/mini";
import { CSS_COLOR_NAMES } from "./color-names.js";
import { constantDefault } from "./constant-default.js";
import { cssValuePattern, cssValueProblem } from "./css-values.js";
import { withJsonSchema } from "./json-schema-hints.js";
import { booleanSchema, numberSchema, stringSchema } from "./leaves.js";
import { lazy, once } from "./once.js";
import { lazyPattern, type Pattern, trimmedMatching } from "./pattern.js";

/**
 * Written as literals, the expressions a template's commonest values meet are compiled with the
 * release executable's bytecode, at build time; `new RegExp` compiles in every process, and under
 * `i` QuickJS case-folds each `\s` and `\w` class range by range (~0.5 M instructions an expression).
 */
const HEX_OR_FUNCTIONAL_COLOR_RE =
  /^(?:#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(?:,\s*(?:0|1|0?\.\d+)\s*)?\))$/i;
const HEX_OR_FUNCTIONAL_COLOR = HEX_OR_FUNCTIONAL_COLOR_RE.source.slice("^(?:".length, -")$".length);
const COLOR_NAMES: ReadonlySet<string> = new Set(CSS_COLOR_NAMES);

/**
 * The colour pattern, `^(?:hex|rgb()|every name)$` case-insensitively, as the spec's JSON Schema
 * shows it, tested as a small expression plus a set lookup: the whole expression with its 149
 * names costs ~0.8 ms to compile, and is never compiled. Names are ASCII letters only, as the `i`
 * flag without `u` folds case. test/template.test.ts checks the two agree.
 */
export const CSS_COLOR_PATTERN: Pattern = {
  source: `^(?:${HEX_OR_FUNCTIONAL_COLOR}|${CSS_COLOR_NAMES.join("|")})$`,
  flags: "i",
  // A name as the set holds it (`transparent`, `white`) first: no expression to run.
  test: (value) => COLOR_NAMES.has(value) || HEX_OR_FUNCTIONAL_COLOR_RE.test(value) || (/^[a-z]+$/i.test(value) && COLOR_NAMES.has(value.toLowerCase())),
};

/** CSS colours the targets can all carry: hex (3, 4, 6 or 8 digits), rgb()/rgba(), or a CSS colour name. */
export const colorSchema = trimmedMatching(CSS_COLOR_PATTERN, "Expected a CSS colour: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba() or a colour name");

/** MJML's validator knows #rgb, #rrggbb, rgb(), rgba() and lower-case names; other hex forms are written as rgba(). */
export function toMjmlColor(color: string): string {
  // `#` and three or six characters, the usual case: as it is (below, hex or not, it is returned unchanged).
  if (color.charCodeAt(0) === 35 && (color.length === 7 || color.length === 4)) return color;
  const functional = /^rgba?\(([^)]*)\)$/i.exec(color.replace(/\s+/g, ""))?.[1];
  if (functional !== undefined) return functionalColor(functional.split(","));
  const hex = /^#([0-9a-fA-F]{3,8})$/.exec(color)?.[1];
  if (!hex || hex.length === 3 || hex.length === 6) return /^[a-z]+$/i.test(color) ? color.toLowerCase() : color;
  const full = hex.length === 4 ? [...hex].map((c) => c + c).join("") : hex;
  const [r, g, b, a] = [0, 2, 4, 6].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number, number];
  return `rgba(${r},${g},${b},${Math.round((a / 255) * 100) / 100})`;
}

/**
 * rgb()/rgba() as MJML's validator takes them: lower case, rgb() with three channels, rgba() with
 * four and an alpha of one digit and at most three decimals (the schema also accepts `RGB(`, `.5`,
 * `0.12345`, rgba() without alpha and rgb() with one).
 */
function functionalColor(channels: string[]): string {
  const [r, g, b, alpha] = channels;
  if (alpha === undefined) return `rgb(${r},${g},${b})`;
  return `rgba(${r},${g},${b},${Math.round(Number(alpha) * 1000) / 1000})`;
}

/*
 * Field schemas that many fields, nodes and blocks share. Every `.default()` or `.optional()` is a
 * new zod instance, and the executable (QuickJS) pays for each at every launch: building it, and
 * on its first parse zod works out an object's keys and walks its children for cycles. A schema
 * used in several places is built once, one per distinct default.
 */

const px = numberSchema.check(z.minimum(0));
const optionalPx = z.optional(px);
/** A number ≥ 0 (px, or a line height) defaulting to `value`. */
export const nonNegative = once((value: number) => constantDefault(px, value));
/** A percentage (0–100): built on first use, as are the shared fields below it that only some templates reach. */
const percentSchema = lazy(() => numberSchema.check(z.minimum(0), z.maximum(100)));
export const optionalPercent = lazy(() => z.optional(percentSchema()));
/** A percentage defaulting to `value`. */
export const defaultedPercent = once((value: number) => constantDefault(percentSchema(), value));
/** `auto` or a height in px, `auto` by default (an image's, a video's). */
export const autoOrPxHeight = lazy(() => constantDefault(z.union([z.literal("auto"), px]), "auto"));
/** A block's alignment defaulting to `value`. */
export const defaultedAlign = once((value: z.output<typeof alignSchema>) => constantDefault(alignSchema, value));
/** A colour defaulting to `value`. */
export const defaultedColor = once((value: string) => constantDefault(colorSchema, value));
const optionalColor = z.optional(colorSchema);
export const falseByDefault = constantDefault(booleanSchema, false);
export const emptyByDefault = constantDefault(stringSchema, "");

export const VISIBILITY_OPERATORS = [
  "==",
  "!=",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "in",
  "not_in",
  ">",
  "<",
  ">=",
  "<=",
  "date_before",
  "date_after",
  "date_on",
  "is_empty",
  "is_not_empty",
] as const;

/** Spellings from the editor's docs, read as the operator they name. */
export const VISIBILITY_OPERATOR_ALIASES = {
  equals: "==",
  not_equals: "!=",
  is_set: "is_not_empty",
  is_not_set: "is_empty",
} as const satisfies Record<string, (typeof VISIBILITY_OPERATORS)[number]>;

export type VisibilityOperator = (typeof VISIBILITY_OPERATORS)[number];

const contextScalar = z.union([stringSchema, numberSchema, booleanSchema]);

/** Lower-cased, trimmed text, so that `"ANY"`, `" all "` or `"Contains"` read as the editor means them. */
const caseless = <T extends z.core.util.EnumLike>(schema: z.ZodMiniEnum<T>) =>
  withJsonSchema(
    z.pipe(
      z.transform((value: unknown) => (typeof value === "string" ? value.trim().toLowerCase() : value)),
      schema,
    ),
    { pattern: () => oneOfWords(schema.options), trimmed: true },
  );

/** `^(?:a|b|…)$` in any case, for the JSON Schema of a refinement that reads names in any case. */
function oneOfWords(words: readonly (string | number)[]): RegExp {
  return new RegExp(`^(?:${words.map((w) => String(w).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`, "i");
}

const OPERATOR_NAMES = [...VISIBILITY_OPERATORS, ...(Object.keys(VISIBILITY_OPERATOR_ALIASES) as Array<keyof typeof VISIBILITY_OPERATOR_ALIASES>)] as const;

/** The visibility schemas are built on first use: most templates never read a rule, and `--version` no template. */
export const visibilityRuleSchema = lazy(() =>
  z.pipe(
    z.object({
      /** The context key; the editor creates every new rule with an empty one (see `meaninglessRuleReason`). */
      tag: emptyByDefault,
      /** Known names in any case; `written` keeps the spelling for the rule's meaning (below). */
      operator: withJsonSchema(
        stringSchema.check(
          z.refine((op) => (OPERATOR_NAMES as readonly string[]).includes(op.trim().toLowerCase()), {
            message: `Input should be ${OPERATOR_NAMES.map((op) => JSON.stringify(op)).join(", ")} (any case)`,
            params: { type: "literal_error" },
          }),
        ),
        { pattern: () => oneOfWords(OPERATOR_NAMES), trimmed: true },
      ),
      value: z._default(
        z.optional(
          z.union([
            contextScalar,
            z.pipe(
              z.null(),
              z.transform(() => ""),
            ),
          ]),
        ),
        "",
      ),
    }),
    z.transform((rule) => {
      const name = rule.operator.trim().toLowerCase();
      const operator: VisibilityOperator =
        name in VISIBILITY_OPERATOR_ALIASES ? VISIBILITY_OPERATOR_ALIASES[name as keyof typeof VISIBILITY_OPERATOR_ALIASES] : (name as VisibilityOperator);
      // The Maildeno editor and engine compare operator names exactly: one in another case is unknown
      // to them, and an unknown operator is true. Such a rule is read the same way (and warned about).
      return { tag: rule.tag, operator, value: rule.value, ...(rule.operator !== name ? { alwaysTrue: true as const } : {}) };
    }),
  ),
);

/** `all` or `any` in any case; only the exact `any` means any, as in the editor and its engine (others are warned about). */
const matchSchema = lazy(() =>
  z._default(
    z.pipe(
      withJsonSchema(
        z
          .string()
          .check(
            z.refine((m) => ["all", "any"].includes(m.trim().toLowerCase()), { message: 'Input should be "all" or "any"', params: { type: "literal_error" } }),
          ),
        { pattern: () => oneOfWords(["all", "any"]), trimmed: true },
      ),
      z.transform((m: string): "all" | "any" => (m === "any" ? "any" : "all")),
    ),
    "all",
  ),
);

const ruleList = lazy(() => z._default(z.array(visibilityRuleSchema()), []));

export const visibilityGroupSchema = lazy(() =>
  z.object({
    match: matchSchema(),
    rules: ruleList(),
  }),
);

/** `true`/`false`, also as the strings `"true"`/`"false"` some exports write. */
const flagSchema = lazy(() =>
  z.union([
    booleanSchema,
    z.pipe(
      caseless(z.enum(["true", "false"])),
      z.transform((v) => v === "true"),
    ),
  ]),
);

export const visibilitySchema = lazy(() =>
  z.object({
    enabled: constantDefault(flagSchema(), false),
    match: matchSchema(),
    rules: ruleList(),
    groups: z._default(z.array(visibilityGroupSchema()), []),
  }),
);

export type Visibility = z.output<ReturnType<typeof visibilitySchema>>;
export type VisibilityRule = z.output<ReturnType<typeof visibilityRuleSchema>>;

const allSides = z.pipe(
  px,
  z.transform((all: number) => ({ top: all, right: all, bottom: all, left: all })),
);

/** Padding and margin: `{top,right,bottom,left}` in px, or one number for all four sides. */
export const spacingSchema = once((defaults: Spacing) => {
  const sides = z.object({
    top: nonNegative(defaults.top),
    right: nonNegative(defaults.right),
    bottom: nonNegative(defaults.bottom),
    left: nonNegative(defaults.left),
  });
  return z.prefault(z.union([allSides, sides], { error: "Input should be a number of px or an object {top, right, bottom, left}" }), {});
});

export const ZERO_SPACING = { top: 0, right: 0, bottom: 0, left: 0 } as const;
export type Spacing = { top: number; right: number; bottom: number; left: number };

const borderStyle = z.enum(["solid", "dashed", "dotted", "double", "none"]);
export const borderSchema = z.prefault(
  z.object({
    width: nonNegative(0),
    style: constantDefault(borderStyle, "solid"),
    color: defaultedColor("#000000"),
    radius: nonNegative(0),
  }),
  {},
);
export type Border = z.output<typeof borderSchema>;

const SIDE = "left|right|top|bottom";
const LINEAR_DIRECTION = lazyPattern(`^(?:to\\s+(?:${SIDE})(?:\\s+(?:${SIDE}))?|-?\\d+(?:\\.\\d+)?(?:deg|turn|rad|grad)?)$`, "i");
const RADIAL_SHAPE = lazyPattern(`^(?:circle|ellipse)(?:\\s+at\\s+(?:${SIDE}|center|\\d+%)(?:\\s+(?:${SIDE}|center|\\d+%))?)?$`, "i");
/** For the JSON Schema: a direction as text (or none), and an angle as a number JavaScript writes without an exponent (`1e-7deg` is no angle). */
const directionText = () => new RegExp(`^(?:|${LINEAR_DIRECTION.source.slice(1, -1)}|${RADIAL_SHAPE.source.slice(1, -1)})$`, "i");
const DEGREES_WITHOUT_EXPONENT = {
  type: "number",
  anyOf: [{ const: 0 }, { minimum: 1e-6, exclusiveMaximum: 1e21 }, { maximum: -1e-6, exclusiveMinimum: -1e21 }],
};

/** The gradient schemas are built on first use, as are the visibility schemas. */
const gradientStopSchema = lazy(() =>
  z.object({
    color: colorSchema,
    /** Percent along the gradient line; stops without one are spread by CSS. */
    position: optionalPercent(),
  }),
);

/** The editor's shape: `{useGradient, solid, gradient: {type, direction, colors: [{color, position}]}}`. */
const editorGradientSchema = lazy(() =>
  z.object({
    useGradient: falseByDefault,
    solid: optionalColor,
    gradient: z.prefault(
      z.object({
        type: constantDefault(caseless(z.enum(["linear", "radial"])), "linear"),
        direction: z._default(
          withJsonSchema(
            z
              .union([
                z.pipe(
                  numberSchema,
                  z.transform((deg: number) => `${deg}deg`),
                ),
                stringSchema.check(z.trim()),
              ])
              .check(
                z.refine((d: string) => d === "" || LINEAR_DIRECTION.test(d) || RADIAL_SHAPE.test(d), {
                  message: "Expected a gradient direction: to right, to bottom left, …, an angle such as 45deg, or circle/ellipse for a radial gradient",
                }),
              ),
            { schema: (pattern) => ({ anyOf: [DEGREES_WITHOUT_EXPONENT, { type: "string", pattern: pattern(directionText(), true) }] }) },
          ),
          "to right",
        ),
        colors: z._default(z.array(gradientStopSchema()), []),
      }),
      {},
    ),
  }),
);

/** The engine's earlier two-colour shape, still read: `{useGradient, from, to, angle}`. */
const twoColorGradientSchema = lazy(() =>
  z.strictObject({
    useGradient: falseByDefault,
    from: defaultedColor("#ffffff"),
    to: defaultedColor("#000000"),
    angle: constantDefault(numberSchema, 180),
  }),
);

/** A background gradient as the targets write it: the CSS image and the colour shown where gradients are not supported. */
export interface Gradient {
  readonly useGradient: boolean;
  /** `linear-gradient(…)` / `radial-gradient(…)`, or "" when there is nothing to draw. */
  readonly css: string;
  /** The solid colour under the gradient (the editor's `solid`, else the first stop). */
  readonly fallback: string | undefined;
  /** A linear gradient's first and last stops and its CSS angle (degrees clockwise from "to top"), for Outlook's VML; none for a radial one. */
  readonly linear: LinearGradient | undefined;
}

export interface LinearGradient {
  readonly from: string;
  readonly to: string;
  readonly angle: number;
}

const SIDE_DEGREES: Readonly<Record<string, number>> = { top: 0, right: 90, bottom: 180, left: 270 };
const UNIT_DEGREES: Readonly<Record<string, number>> = { deg: 1, turn: 360, rad: 180 / Math.PI, grad: 0.9, "": 1 };

/**
 * A linear direction as CSS degrees. A corner (`to bottom right`) is taken as the diagonal of a
 * square: its true angle depends on the box's proportions, which only the reader's layout knows.
 */
function directionDegrees(direction: string): number {
  const sides = /^to\s+(\w+)(?:\s+(\w+))?$/i.exec(direction);
  if (sides) {
    const [a, b] = [SIDE_DEGREES[sides[1]!.toLowerCase()] ?? 180, sides[2] === undefined ? undefined : (SIDE_DEGREES[sides[2].toLowerCase()] ?? 180)];
    if (b === undefined) return a;
    // The two sides' bisector: `to top left` is 315, not 135.
    return Math.abs(a - b) > 180 ? ((a + b + 360) / 2) % 360 : (a + b) / 2;
  }
  const angle = /^(-?\d+(?:\.\d+)?)(deg|turn|rad|grad)?$/i.exec(direction);
  return angle ? Number(angle[1]) * (UNIT_DEGREES[(angle[2] ?? "").toLowerCase()] ?? 1) : 90;
}

function stopList(stops: ReadonlyArray<{ color: string; position?: number | undefined }>): string {
  return stops.map((s) => (s.position === undefined ? s.color : `${s.color} ${s.position}%`)).join(", ");
}

function editorGradient(g: z.output<ReturnType<typeof editorGradientSchema>>): Gradient {
  const { type, direction, colors } = g.gradient;
  const fallback = g.solid ?? colors[0]?.color;
  const first = colors[0]?.color;
  // One stop is a solid colour; none is nothing to draw.
  if (colors.length < 2 || first === undefined)
    return {
      useGradient: g.useGradient && first !== undefined,
      css: first === undefined ? "" : `linear-gradient(${first}, ${first})`,
      fallback,
      linear: first === undefined ? undefined : { from: first, to: first, angle: 180 },
    };
  const last = colors[colors.length - 1]!.color;
  if (type === "radial")
    return {
      useGradient: g.useGradient,
      css: `radial-gradient(${RADIAL_SHAPE.test(direction) ? direction.toLowerCase() : "circle"}, ${stopList(colors)})`,
      fallback,
      linear: undefined,
    };
  const linear = LINEAR_DIRECTION.test(direction) ? direction.toLowerCase() : "to right";
  return {
    useGradient: g.useGradient,
    css: `linear-gradient(${linear}, ${stopList(colors)})`,
    fallback,
    linear: { from: first, to: last, angle: directionDegrees(linear) },
  };
}

/** Either gradient shape; `null` (the editor's "not set" in mobile overrides) reads as none. */
export const gradientSchema = lazy(() =>
  z.prefault(
    z.union([
      z.pipe(
        twoColorGradientSchema(),
        z.transform(
          (g: z.output<ReturnType<typeof twoColorGradientSchema>>): Gradient => ({
            useGradient: g.useGradient,
            css: `linear-gradient(${g.angle}deg, ${g.from}, ${g.to})`,
            fallback: g.from,
            linear: { from: g.from, to: g.to, angle: g.angle },
          }),
        ),
      ),
      z.pipe(editorGradientSchema(), z.transform(editorGradient)),
    ]),
    { useGradient: false, gradient: {} },
  ),
);

/** Whether a gradient is switched on and has something to draw. */
export function activeGradient(g: Gradient | undefined): g is Gradient {
  return g?.useGradient === true && g.css !== "";
}

/*
 * Template values written into CSS (style attributes and the head stylesheet) may hold only what such
 * values need: never `;`, braces, `<`, `>`, `(`, `)` or a backslash, so a value cannot add a
 * declaration, end a rule or close the <style> element. A value outside the grammar is a validation
 * issue naming its field, like a bad colour.
 */
const LENGTH = String.raw`(?:0|-?(?:\d+\.?\d*|\.\d+)(?:px|%|em|rem|pt|vw|vh))`;
const cssValue = (pattern: string | RegExp, message: string) =>
  trimmedMatching(typeof pattern === "string" ? lazyPattern(`^(?:${pattern})$`, "i") : pattern, message);

export const backgroundSizeSchema = cssValue(
  `cover|contain|(?:${LENGTH}|auto)(?:\\s+(?:${LENGTH}|auto))?`,
  "Expected a CSS background-size: cover, contain, auto, or one or two lengths",
);
const POSITION = `left|right|top|bottom|center|${LENGTH}`;
export const backgroundPositionSchema = cssValue(
  `(?:${POSITION})(?:\\s+(?:${POSITION})){0,3}`,
  "Expected a CSS background-position: keywords (left, center, top, …) or lengths",
);
export const backgroundRepeatSchema = cssValue(
  "(?:repeat|no-repeat|repeat-x|repeat-y|space|round)(?:\\s+(?:repeat|no-repeat|space|round))?",
  "Expected a CSS background-repeat: repeat, no-repeat, repeat-x, repeat-y, space or round",
);
/**
 * A font list: family names (quoted or not) and generic families, separated by commas. A family
 * name is quoted (with its quotes balanced) or bare; each alternative matches spaces one way only.
 */
export const fontFamilySchema = cssValue(
  /^(?:(?:\s*'[\w .-]+'\s*|\s*"[\w .-]+"\s*|[\w .-]+)(?:,(?:\s*'[\w .-]+'\s*|\s*"[\w .-]+"\s*|[\w .-]+))*)$/i,
  "Expected a CSS font-family list, e.g. 'Open Sans', Arial, sans-serif",
);
/** Weight names editors and design tools use (the Maildeno editor's buttons default to `medium`), as CSS numbers. */
export const NAMED_FONT_WEIGHTS: Readonly<Record<string, string>> = {
  thin: "100",
  hairline: "100",
  extralight: "200",
  "extra-light": "200",
  ultralight: "200",
  "ultra-light": "200",
  light: "300",
  regular: "400",
  book: "400",
  medium: "500",
  semibold: "600",
  "semi-bold": "600",
  demibold: "600",
  "demi-bold": "600",
  extrabold: "800",
  "extra-bold": "800",
  ultrabold: "800",
  "ultra-bold": "800",
  black: "900",
  heavy: "900",
};
const CSS_FONT_WEIGHT = "normal|bold|bolder|lighter|[1-9]\\d{0,2}|1000";
export const fontWeightSchema = z.union([
  z.pipe(
    trimmedMatching(
      lazyPattern(`^(?:${CSS_FONT_WEIGHT}|${Object.keys(NAMED_FONT_WEIGHTS).join("|")})$`, "i"),
      "Expected a CSS font-weight: normal, bold, bolder, lighter, a name such as medium or semibold, or 1–1000",
    ),
    z.transform((weight: string) => NAMED_FONT_WEIGHTS[weight.toLowerCase()] ?? weight.toLowerCase()),
  ),
  z.pipe(numberSchema.check(z.int(), z.minimum(1), z.maximum(1000)), z.transform(String)),
]);

export const backgroundImageFields = {
  backgroundImage: emptyByDefault,
  backgroundSize: constantDefault(backgroundSizeSchema, "cover"),
  backgroundPosition: constantDefault(backgroundPositionSchema, "center center"),
  backgroundRepeat: constantDefault(backgroundRepeatSchema, "no-repeat"),
};

export const alignSchema = z.enum(["left", "center", "right"]);

/**
 * Text alignment: `start` and `end` follow the text's direction (left and right in left-to-right
 * text, right and left in right-to-left); `left` and `right` are sides the author chose, kept in
 * either direction.
 */
export const textAlignSchema = z.enum(["start", "left", "center", "right", "end"]);
export type TextAlign = z.output<typeof textAlignSchema>;

/** Which way text runs: left to right, right to left, or `auto` (each block from its own first strong letter). */
export const directionSchema = z.enum(["ltr", "rtl", "auto"]);
export type Direction = z.output<typeof directionSchema>;
/** A block's own direction (unset: the email's), one instance for every block that has one. */
export const optionalDirectionSchema = lazy(() => z.optional(directionSchema));

const fontWeightDefault = once((value: string) => constantDefault(fontWeightSchema, value));
const textAlignDefault = once((value: TextAlign) => constantDefault(textAlignSchema, value));
/** The typography fields whose default no block changes. */
const fixedTypography = {
  fontFamily: constantDefault(fontFamilySchema, "Arial"),
  fontStyle: constantDefault(z.enum(["normal", "italic", "oblique"]), "normal"),
  letterSpacing: constantDefault(numberSchema, 0),
  textTransform: constantDefault(z.enum(["none", "uppercase", "lowercase", "capitalize"]), "none"),
  textDecoration: constantDefault(z.enum(["none", "underline", "line-through", "overline"]), "none"),
};

/** Typography shared by paragraph, heading, list, anchor and menu. */
export function typographyFields(overrides: { fontSize?: number; lineHeight?: number; fontWeight?: string; align?: TextAlign; color?: string } = {}) {
  return {
    fontSize: nonNegative(overrides.fontSize ?? 16),
    lineHeight: nonNegative(overrides.lineHeight ?? 1.5),
    color: defaultedColor(overrides.color ?? "#111111"),
    fontWeight: fontWeightDefault(overrides.fontWeight ?? "normal"),
    fontFamily: fixedTypography.fontFamily,
    fontStyle: fixedTypography.fontStyle,
    align: textAlignDefault(overrides.align ?? "start"),
    letterSpacing: fixedTypography.letterSpacing,
    textTransform: fixedTypography.textTransform,
    textDecoration: fixedTypography.textDecoration,
  };
}
export interface Typography {
  fontSize: number;
  lineHeight: number;
  color: string;
  fontWeight: string;
  fontFamily: string;
  fontStyle: string;
  align: TextAlign;
  letterSpacing: number;
  textTransform: string;
  textDecoration: string;
}

/** A block's background: a colour, and the editor's gradient over it. Transparent by default. */
export const surfaceFields = () => ({
  backgroundColor: defaultedColor("transparent"),
  backgroundGradient: gradientSchema(),
});
export interface Surface {
  backgroundColor: string;
  backgroundGradient: Gradient;
}

/** A node's `visibility`: absent means always shown. */
export const optionalVisibilitySchema = lazy(() => z.optional(visibilitySchema()));

/** Props every block carries, whatever its type. */
export function commonBlockFields(defaults: { padding?: Spacing; margin?: Spacing } = {}) {
  return {
    visibility: optionalVisibilitySchema(),
    desktopHide: falseByDefault,
    mobileHide: falseByDefault,
    margin: spacingSchema(defaults.margin ?? ZERO_SPACING),
    padding: spacingSchema(defaults.padding ?? ZERO_SPACING),
  };
}

const partialSpacing = z.union([allSides, z.object({ top: optionalPx, right: optionalPx, bottom: optionalPx, left: optionalPx })]);
export type PartialSpacing = z.output<typeof partialSpacing>;
const unsetOrPartialSpacing = z.nullish(partialSpacing);

/**
 * Per-breakpoint overrides, applied by the mobile media query: a partial of the block's style values
 * where `null` means unset (the editor writes every key, null until set). Scalars (`fontSize`,
 * `color`, …) and the editor's object values: `padding`, `margin`, `border` and `backgroundGradient`.
 */
const cssOverrideString = withJsonSchema(
  stringSchema.check(
    z.superRefine((value: string, ctx) => {
      const problem = cssValueProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
    }),
  ),
  { pattern: cssValuePattern },
);
export const mobileOverridesSchema = lazy(() =>
  z.pipe(
    z.optional(
      z.nullable(
        z.catchall(
          z.object({
            padding: unsetOrPartialSpacing,
            margin: unsetOrPartialSpacing,
            border: z.nullish(
              z.object({
                width: optionalPx,
                style: z.optional(borderStyle),
                color: optionalColor,
                radius: optionalPx,
              }),
            ),
            backgroundGradient: z.nullish(gradientSchema()),
            fontWeight: z.nullish(fontWeightSchema),
          }),
          // Typed as unknown so the named object keys above fit the index signature of the published .d.ts
          // (a consumer type-checking our declarations would fail otherwise); the values are still validated.
          z.union([cssOverrideString, numberSchema, booleanSchema, z.null()]) as unknown as z.ZodMiniType<unknown>,
        ),
      ),
    ),
    z.transform((value: Record<string, unknown> | null | undefined) => {
      const set: MobileOverrides = {};
      // `value` is the object parsed above, a plain object: its keys are its own.
      for (const key in value) {
        const v = value[key];
        if (v !== null && v !== undefined) set[key] = v as MobileOverrides[string];
      }
      return set;
    }),
  ),
);
export type MobileOverrides = Record<string, string | number | boolean | PartialSpacing | Partial<Border> | Gradient>;

/**
 * The phone overrides every block takes (targets/responsive.ts writes each), beside the object keys
 * above; a block's own (a spacer's height, an image's width) are in its phone roles.
 */
export const SHARED_PHONE_KEYS = [
  "fontSize",
  "lineHeight",
  "color",
  "letterSpacing",
  "align",
  "fontWeight",
  "fontFamily",
  "fontStyle",
  "textTransform",
  "textDecoration",
  "paddingTop",
  "paddingRight",
  "paddingBottom",
  "paddingLeft",
  "backgroundColor",
  "borderRadius",
  "padding",
  "margin",
  "border",
  "backgroundGradient",
] as const;
export type SharedPhoneKey = (typeof SHARED_PHONE_KEYS)[number];
