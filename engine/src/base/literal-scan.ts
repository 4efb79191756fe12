/**
 * Finding a literal in a document, for the scans that replace whole-document regular expressions.
 * `indexOf` and `includes` find each candidate by its first character in a C loop, in V8 and in the
 * release executable's QuickJS-ng (whose build patches them to: engine/scripts/quickjs-patches.ts),
 * and copy nothing; a global expression would try itself at every character.
 */

/** Where `literal` (not empty) starts in `text`, left to right, occurrences not overlapping. */
export function occurrences(text: string, literal: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + literal.length)) starts.push(at);
  return starts;
}

/** Whether `text` holds `literal`. */
export function contains(text: string, literal: string): boolean {
  return text.includes(literal);
}
