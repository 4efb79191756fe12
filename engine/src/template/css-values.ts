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
