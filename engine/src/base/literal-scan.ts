/**
 * Finding a literal in a document, for the scans that replace whole-document regular expressions.
 * Both use `split`, a loop in C: in the release executable's QuickJS, `indexOf` and `includes`
 * compare at each position through a function call (~67 instructions a character against ~15), and
 * a global expression tries itself at every character.
 */

/** Where `literal` starts in `text`, left to right, occurrences not overlapping. */
export function occurrences(text: string, literal: string): number[] {
  const pieces = text.split(literal);
  const starts: number[] = [];
  let at = (pieces[0] as string).length;
  for (let i = 1; i < pieces.length; i++) {
    starts.push(at);
    at += literal.length + (pieces[i] as string).length;
  }
  return starts;
}

/** Whether `text` holds `literal`. */
export function contains(text: string, literal: string): boolean {
  return (text.split(literal, 1)[0] as string).length !== text.length;
}
