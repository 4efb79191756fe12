/**
 * Elements content HTML opens and never closes (`<strong>bold text`, `<a href="…">Shop`): the
 * parser closes them at the end, or where an outer element ends, so everything after the opening
 * tag is bold, or is the link. Elements whose end tag HTML lets authors leave out (`p`, `li`, `td`,
 * …) and void elements are not counted.
 */
import { Parser } from "htmlparser2";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** End tags HTML makes optional: the next sibling or the parent's end closes them as the author meant. */
const OPTIONAL_END = new Set(["p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "optgroup", "colgroup", "caption", "rt", "rp"]);

export interface UnclosedElement {
  readonly name: string;
  /** The opening tag as written. */
  readonly tag: string;
  /** Where it starts in the HTML. */
  readonly index: number;
}

export function unclosedElements(html: string): UnclosedElement[] {
  if (!html.includes("<")) return [];
  const open: { name: string; index: number }[] = [];
  const unclosed: UnclosedElement[] = [];
  const parser: Parser = new Parser(
    {
      onopentag(name) {
        if (!VOID.has(name)) open.push({ name, index: parser.startIndex });
      },
      onclosetag(name, isImplied) {
        const at = open.map((e) => e.name).lastIndexOf(name);
        if (at === -1) return;
        const [element] = open.splice(at, 1);
        if (isImplied && !OPTIONAL_END.has(name) && element) {
          const end = html.indexOf(">", element.index);
          unclosed.push({ name, index: element.index, tag: html.slice(element.index, end === -1 ? undefined : end + 1) });
        }
      },
    },
    { decodeEntities: false, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return unclosed.sort((a, b) => a.index - b.index);
}
