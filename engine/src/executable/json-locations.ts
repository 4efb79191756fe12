/**
 * Where a JSON path points in a JSON file's text: the line and column (1-based) where the value
 * starts and ends, so that a finding about `rows/0/.../props/link` can be shown at its line (the
 * validate command's text and SARIF reports). A path the file does not hold (a missing prop) points
 * at its nearest ancestor that it does.
 */

export interface TextRegion {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** The span of every value in the text, by its path joined with "\u0000" (the root is ""). */
function spans(text: string): Map<string, Span> {
  const out = new Map<string, Span>();
  let i = 0;
  const space = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    space();
    const start = i;
    const ch = text[i];
    if (ch === "{") {
      i++;
      space();
      while (i < text.length && text[i] !== "}") {
        space();
        const key = string();
        space();
        i++; // :
        value(path === "" ? key : `${path}\u0000${key}`);
        space();
        if (text[i] === ",") i++;
        space();
      }
      i++;
    } else if (ch === "[") {
      i++;
      space();
      let index = 0;
      while (i < text.length && text[i] !== "]") {
        value(path === "" ? String(index) : `${path}\u0000${index}`);
        index++;
        space();
        if (text[i] === ",") i++;
        space();
      }
      i++;
    } else if (ch === '"') string();
    else while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
    out.set(path, { start, end: i });
  };
  try {
    value("");
  } catch {
    // Text that is not JSON has no locations; a finding about it is shown without one.
  }
  return out;
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Locates paths in one JSON text (its spans are read once). */
export function jsonLocator(text: string): (path: readonly string[]) => TextRegion | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  let known: Map<string, Span> | undefined;
  return (path) => {
    known ??= spans(source);
    for (let length = path.length; length >= 0; length--) {
      const span = known.get(path.slice(0, length).join("\u0000"));
      if (span === undefined) continue;
      const start = position(source, span.start);
      const end = position(source, span.end);
      return { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column };
    }
    return undefined;
  };
}

/** A JSON path as a JSON Pointer (RFC 6901): `/rows/0/props/link`. */
export function jsonPointer(path: readonly string[]): string {
  return path.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
