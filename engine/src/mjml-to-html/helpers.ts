/** mjml-core 5.4.1's helpers (`lib/helpers/*`) that components use, ported as they are. */

export const startMsoConditionalTag = "<!--[if mso]>";
export const endConditionalTag = "<![endif]-->";
export const startMsoNegationConditionalTag = "<!--[if !mso]><!-->";
export const endNegationConditionalTag = "<!--<![endif]-->";

export function msoConditionalTag(content: string, negation = false): string {
  return `
    ${negation ? startMsoNegationConditionalTag : startMsoConditionalTag}
    ${content}
    ${negation ? endNegationConditionalTag : endConditionalTag}
  `;
}

type Direction = "top" | "right" | "bottom" | "left";

const SHORTHAND_INDEXES: Record<number, Record<Direction, number>> = {
  2: { top: 0, bottom: 0, left: 1, right: 1 },
  3: { top: 0, left: 1, right: 1, bottom: 2 },
  4: { top: 0, right: 1, bottom: 2, left: 3 },
};

/**
 * A pure function of a string with its results kept by argument: in QuickJS a regular expression
 * call costs ~1,000 instructions or more (a global replace ~10,000), and a template asks for the same
 * few paddings, borders and widths on every element. Bounded for a serving process.
 */
export function kept<T>(compute: (value: string) => T): (value: string) => T {
  const results = new Map<string, T>();
  return (value) => {
    let result = results.get(value);
    if (result === undefined) {
      if (results.size >= 256) results.clear();
      result = compute(value);
      results.set(value, result);
    }
    return result;
  };
}

const shorthandParts = kept((cssValue): readonly string[] => cssValue.trim().replace(/\s+/g, " ").split(" ", 4));

/** One side of a CSS shorthand such as `padding: 10px 20px`, as an integer. */
export function shorthandParser(cssValue: string, direction: Direction): number {
  const parts = shorthandParts(cssValue);
  const indexes = SHORTHAND_INDEXES[parts.length];
  if (!indexes) return parseInt(cssValue, 10);
  return parseInt(parts[indexes[direction]] || "0", 10);
}

/** The width of a CSS border shorthand (`1px solid #000` → 1). */
export const borderParser = kept((border): number => parseInt(/(?:(?:^| )(\d+))/.exec(border)?.[1] ?? "", 10) || 0);

const UNIT = /[\d.,]*(\D*)$/;
const unitOf = kept((width): string => UNIT.exec(width)?.[1] ?? "");

/** `50%` → { parsedWidth: 50, unit: "%" }; unitless means px. */
export function widthParser(width: string | number, options?: { parseFloatToInt?: boolean }): { parsedWidth: number; unit: string } {
  const parseFloatToInt = options?.parseFloatToInt ?? true;
  const unit = unitOf(width.toString());
  // mjml picks a parse function; called directly here (a closure per call costs QuickJS an object)
  const parsedWidth = unit === "%" && !parseFloatToInt ? parseFloat(String(width)) : parseInt(String(width), 10);
  return { parsedWidth, unit: unit || "px" };
}

/** `a b` + `outlook` → `a-outlook b-outlook`. */
export function suffixCssClasses(classes: string | undefined, suffix: string): string {
  return classes
    ? classes
        .split(" ")
        .map((c) => `${c}-${suffix}`)
        .join(" ")
    : "";
}

/** The width one pixel below the breakpoint, for `max-width` media queries. */
export function makeLowerBreakpoint(breakpoint: string): string {
  const match = /[0-9]+/.exec(breakpoint);
  return match ? `${Number.parseInt(match[0], 10) - 1}px` : breakpoint;
}
