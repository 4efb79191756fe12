/**
 * The template document, version 1: canvas, rows, columns and row spacers, with their implicit
 * defaults. Block props live with each block (`blocks/<type>/`). `document-schema.ts` assembles all
 * of it into the schema that describes a whole document (and generates the published JSON Schema).
 */
import * as z from "zod/mini";
import {
  backgroundImageFields,
  borderSchema,
  defaultedColor,
  directionSchema,
  gradientSchema,
  nonNegative,
  optionalPercent,
  optionalVisibilitySchema,
  spacingSchema,
  ZERO_SPACING,
} from "../schema/common.js";
import { constantDefault } from "../schema/constant-default.js";
import { canvasDarkSchema, columnDarkSchema, rowDarkSchema, surfaceDarkSchema } from "../schema/dark.js";
import { withJsonSchema } from "../schema/json-schema-hints.js";
import { booleanSchema, numberSchema, stringSchema } from "../schema/leaves.js";
import { lazy } from "../schema/once.js";

export const SUPPORTED_SCHEMA_MAJOR = 1;
export const MAX_NESTING_DEPTH = 5;

/**
 * Each schema here is built on first use: a command that reads no template (`--version`) never
 * builds them, and a render builds only the ones its template reaches.
 */
export const canvasObjectSchema = lazy(() =>
  z.object({
    width: constantDefault(numberSchema.check(z.minimum(100), z.maximum(2000)), 600),
    backgroundColor: defaultedColor("#ffffff"),
    bodyBackgroundColor: defaultedColor("#f9fafb"),
    bodyBackgroundImage: backgroundImageFields.backgroundImage,
    bodyBackgroundSize: backgroundImageFields.backgroundSize,
    bodyBackgroundPosition: backgroundImageFields.backgroundPosition,
    bodyBackgroundRepeat: backgroundImageFields.backgroundRepeat,
    padding: spacingSchema(ZERO_SPACING),
    preheaderText: constantDefault(stringSchema, "View this email in your browser"),
    language: constantDefault(
      stringSchema.check(z.regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, { message: "Expected a language tag such as en-US" })),
      "en-US",
    ),
    mobileBreakpoint: constantDefault(numberSchema.check(z.minimum(200), z.maximum(2000)), 600),
    /** Which way the text runs; in `rtl`, rows put their first column on the right. */
    direction: constantDefault(directionSchema, "ltr"),
    /** Dark-mode colours of the page, the content and its default text and links (`schema/dark.ts`). */
    dark: canvasDarkSchema(),
  }),
);
export type Canvas = z.output<ReturnType<typeof canvasObjectSchema>>;

/** Style fields of a row (everything but its structure). */
export const rowStyleSchema = lazy(() =>
  z.object({
    name: z.optional(stringSchema),
    backgroundColor: defaultedColor("#ffffff"),
    backgroundGradient: gradientSchema(),
    ...backgroundImageFields,
    padding: spacingSchema(ZERO_SPACING),
    border: borderSchema,
    minHeight: nonNegative(0),
    /** Space between columns, px. */
    gap: nonNegative(12),
    /** Columns stack under the mobile breakpoint. */
    mobileStack: constantDefault(booleanSchema, true),
    dark: rowDarkSchema(),
    visibility: optionalVisibilitySchema(),
  }),
);
export type RowStyle = z.output<ReturnType<typeof rowStyleSchema>>;

export const rowSpacerSchema = lazy(() =>
  z.object({
    height: z.optional(numberSchema),
    backgroundColor: defaultedColor("transparent"),
    backgroundGradient: gradientSchema(),
    dark: surfaceDarkSchema(),
    visibility: optionalVisibilitySchema(),
  }),
);

export const columnStyleSchema = lazy(() =>
  z.object({
    /** Percentage of the row. Missing widths share what the others leave. */
    width: optionalPercent(),
    backgroundColor: defaultedColor("transparent"),
    ...backgroundImageFields,
    padding: spacingSchema(ZERO_SPACING),
    border: borderSchema,
    verticalAlign: constantDefault(z.enum(["top", "middle", "bottom"]), "top"),
    dark: columnDarkSchema(),
    props: z.prefault(z.object({ visibility: optionalVisibilitySchema() }), {}),
  }),
);
export type ColumnStyle = z.output<ReturnType<typeof columnStyleSchema>>;

export const idSchema = lazy(() => z.optional(z.union([stringSchema, z.pipe(numberSchema, z.transform(String))])));

export const schemaVersionSchema = lazy(() =>
  withJsonSchema(
    z.string({ message: 'Expected a string such as "1.0"' }).check(
      z.regex(/^\d+\.\d+$/, { message: 'Expected "major.minor", such as "1.0"' }),
      z.refine((v: string) => Number(v.split(".")[0]) <= SUPPORTED_SCHEMA_MAJOR, {
        message: `Unsupported schema_version: this engine reads major version ${SUPPORTED_SCHEMA_MAJOR}`,
      }),
    ),
    { pattern: () => new RegExp(`^0*[0-${SUPPORTED_SCHEMA_MAJOR}]\\.\\d+$`) },
  ),
);

export const documentHeaderSchema = lazy(() =>
  z.object({
    template_id: z.union([stringSchema.check(z.minLength(1)), z.pipe(numberSchema, z.transform(String))]),
    template_name: stringSchema,
    canvas: canvasObjectSchema(),
    rows: z.array(z.unknown()),
    schema_version: schemaVersionSchema(),
  }),
);
