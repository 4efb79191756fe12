/**
 * Dark-mode colours: an optional `dark` object beside a node's light colours, holding the colours it
 * takes when the reader's client is in dark mode. Each key names the light prop it replaces; a
 * missing or `null` key keeps the light colour. Values are colours exactly as the light ones are
 * (merge tags included: never), and a background gradient in the light one's shape.
 */
import * as z from "zod/mini";
import { colorSchema, type Gradient, gradientSchema } from "./common.js";
import { lazy } from "./once.js";

/** `null` (the editor's "not set") read as absent: one instance behind every dark value and object. */
const unsetAsAbsentTransform = z.transform((value: unknown) => value ?? undefined);
const unsetAsAbsent = <T>() => unsetAsAbsentTransform as unknown as z.ZodMiniTransform<T | undefined, T | null | undefined>;

export const darkColorSchema = z.pipe(z.nullish(colorSchema), unsetAsAbsent<string>());

/** Built on first use: the gradient schema in it is. */
const allKeys = lazy(() => ({
  /** The page around the content (canvas only). */
  bodyBackgroundColor: darkColorSchema,
  backgroundColor: darkColorSchema,
  /** Text; on the canvas, the default of every text block on a dark background. */
  color: darkColorSchema,
  /** Links inside rich content (and, on the canvas, anchors). */
  linkColor: darkColorSchema,
  borderColor: darkColorSchema,
  /** Replaces the light `backgroundGradient`; `backgroundColor` (else its `solid`) is the colour under it. */
  backgroundGradient: z.pipe(z.nullish(gradientSchema()), unsetAsAbsent<Gradient>()),
}));

type AllKeys = ReturnType<typeof allKeys>;
type Key = keyof AllKeys;

function darkSchema<K extends Key>(keys: readonly K[]) {
  const all = allKeys();
  const colors = z.object(Object.fromEntries(keys.map((key) => [key, all[key]])) as Pick<AllKeys, K>);
  return z.pipe(z.nullish(colors), unsetAsAbsent<z.output<typeof colors>>());
}

/** The `dark` object of a node with these keys: built on first use, once (a template uses a few block types). */
function darkSchemaOf<K extends Key>(...keys: K[]): () => ReturnType<typeof darkSchema<K>> {
  return lazy(() => darkSchema(keys));
}

export const canvasDarkSchema = darkSchemaOf("bodyBackgroundColor", "backgroundColor", "color", "linkColor");
export const rowDarkSchema = darkSchemaOf("backgroundColor", "backgroundGradient", "borderColor");
export const columnDarkSchema = darkSchemaOf("backgroundColor", "borderColor");
/** A row spacer, a spacer, a divider: what has a background and its gradient. */
export const surfaceDarkSchema = darkSchemaOf("backgroundColor", "backgroundGradient");
export const richTextDarkSchema = darkSchemaOf("color", "backgroundColor", "backgroundGradient", "linkColor");
export const textDarkSchema = darkSchemaOf("color", "backgroundColor", "backgroundGradient");
export const linkDarkSchema = darkSchemaOf("color");
export const buttonDarkSchema = darkSchemaOf("color", "backgroundColor", "backgroundGradient", "borderColor");
/** An image or a video: its frame's border. */
export const frameDarkSchema = darkSchemaOf("borderColor");

/** Every dark colour a node can carry (each node's schema picks its keys). */
export type DarkColors = { readonly [K in Exclude<Key, "backgroundGradient">]?: string | undefined } & { readonly backgroundGradient?: Gradient | undefined };

const NAMED_HEX: Readonly<Record<string, string>> = { white: "#ffffff", black: "#000000" };

/** A colour in one spelling, to tell whether two light colours are the same (`#FFF` = `white` = `#ffffff`). */
export function sameColor(a: string, b: string): boolean {
  const norm = (color: string) => {
    const lower = color.trim().toLowerCase();
    const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(lower);
    return NAMED_HEX[lower] ?? (short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : lower.replace(/\s+/g, ""));
  };
  return norm(a) === norm(b);
}
