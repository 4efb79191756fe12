/**
 * Checks for free-text values written into a stylesheet (the head CSS of mobile overrides), where a
 * value that opens a comment or a string, or leaves a parenthesis open, hides every rule after it.
 */

/** Why `value` cannot stand as a CSS value in a stylesheet, or `undefined` when it can. */
export function cssValueProblem(value: string): string | undefined {
  if (value.includes("/*") || value.includes("*/")) return "A CSS value cannot hold a comment marker (/* or */)";
  for (const quote of ["'", '"']) {
    if (value.split(quote).length % 2 === 0) return `A CSS value cannot hold an unbalanced quote (${quote})`;
  }
  let depth = 0;
  for (const ch of value) {
    if (ch === "(") depth++;
    else if (ch === ")" && --depth < 0) break;
  }
  if (depth !== 0) return "A CSS value cannot hold an unbalanced parenthesis";
  return undefined;
}

/** Parentheses nested deeper than this are beyond what `cssValuePattern` states (the check itself has no limit). */
export const CSS_VALUE_PATTERN_DEPTH = 4;

function balancedParentheses(depth: number): string {
  const flat = "[^()]*";
  return depth === 0 ? flat : `${flat}(?:\\(${balancedParentheses(depth - 1)}\\)${flat})*`;
}
const evenCount = (quote: string) => `(?=[^${quote}]*(?:${quote}[^${quote}]*${quote}[^${quote}]*)*$)`;

/**
 * `cssValueProblem` as a regular expression, for the published JSON Schema: no comment marker, an
 * even number of each quote, parentheses balanced (to `CSS_VALUE_PATTERN_DEPTH` levels).
 */
export const cssValuePattern = (): RegExp =>
  new RegExp(`^(?![\\s\\S]*(?:/\\*|\\*/))${evenCount("'")}${evenCount('"')}${balancedParentheses(CSS_VALUE_PATTERN_DEPTH)}$`);
