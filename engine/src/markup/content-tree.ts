/**
 * Content HTML read into a small tree of its elements, text and comments, entities kept as written:
 * by htmlparser2, or, for rich text as an editor writes it, by a reader of that subset alone
 * (content.ts tries it first). Merge tags are set aside before either reads (content.ts): `restore`
 * puts them back into text and attribute values.
 */
import { Parser } from "htmlparser2";
import { MAX_CONTENT_DEPTH } from "./sanitize-html.js";

export interface ElementNode {
  readonly kind: "element";
  readonly name: string;
  readonly attrs: ReadonlyArray<readonly [string, string]>;
  readonly children: ContentNode[];
}
interface TextNode {
  readonly kind: "text";
  readonly text: string;
}
interface CommentNode {
  readonly kind: "comment";
  readonly text: string;
}
export type ContentNode = ElementNode | TextNode | CommentNode;

export const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** Content HTML read by htmlparser2; `unwrapped`: elements past MAX_CONTENT_DEPTH lost their tags. */
export function readWithParser(html: string, restore: (text: string) => string): { nodes: ContentNode[]; unwrapped: boolean } {
  const root: ContentNode[] = [];
  const stack: ElementNode[] = [];
  const append = (node: ContentNode) => (stack.at(-1)?.children ?? root).push(node);
  /** Elements opened past MAX_CONTENT_DEPTH and not yet closed: unwrapped. */
  let tooDeep = 0;
  let unwrapped = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stack.length >= MAX_CONTENT_DEPTH && !VOID_ELEMENTS.has(name)) {
          tooDeep++;
          unwrapped = true;
          return;
        }
        const element: ElementNode = {
          kind: "element",
          name,
          attrs: Object.entries(attribs).map(([key, value]) => [key, restore(value)] as const),
          children: [],
        };
        append(element);
        if (!VOID_ELEMENTS.has(name)) stack.push(element);
      },
      onclosetag(name) {
        if (tooDeep > 0 && !VOID_ELEMENTS.has(name)) tooDeep--;
        else if (!VOID_ELEMENTS.has(name) && stack.at(-1)?.name === name) stack.pop();
      },
      ontext(text) {
        const last = (stack.at(-1)?.children ?? root).at(-1);
        if (last?.kind === "text") (last as { text: string }).text += restore(text);
        else append({ kind: "text", text: restore(text) });
      },
      oncomment(text) {
        append({ kind: "comment", text: restore(text) });
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return { nodes: root, unwrapped };
}

/**
 * The elements an editor writes in rich text that htmlparser2 reads as written when each is closed
 * in order: no raw text (script, style, title, textarea), no foreign content, a single void element.
 * With each, the open elements its opening closes (htmlparser2's `openImpliesClose`).
 */
const SIMPLE_ELEMENTS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const none = new Set<string>();
  const paragraph = new Set(["p"]);
  const headings = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p"]);
  const inline = ["abbr", "b", "br", "cite", "code", "del", "em", "i", "ins", "kbd", "mark", "q", "s", "small", "span", "strong", "sub", "sup", "u"];
  return new Map<string, ReadonlySet<string>>([
    ...inline.map((name) => [name, none] as const),
    ["a", new Set(["a"])],
    ["li", new Set(["li"])],
    ["p", paragraph],
    ...["blockquote", "div", "ol", "ul"].map((name) => [name, paragraph] as const),
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((name) => [name, headings] as const),
  ]);
})();

/** Sticky: a start tag of letters and digits, its attributes each ` name="value"` (group 2). */
const SIMPLE_START_TAG = /<([a-zA-Z][a-zA-Z0-9]*)((?: [a-zA-Z][a-zA-Z0-9_.:-]*="[^"]*")*)>/y;
const SIMPLE_ATTRIBUTE = / ([^=]+)="([^"]*)"/g;

/**
 * Rich text as an editor writes it (`<p>`, `<strong>`, `<a href="…">`, lists, headings), read
 * without an HTML parser: making one costs the release executable's interpreter ~300 K
 * instructions a text, its tokenizer more for each character. The nodes htmlparser2 makes of the
 * same markup (test/content-sanitize.test.ts holds the two equal), or undefined for anything else —
 * a comment, a `<` that opens no tag, an element not in SIMPLE_ELEMENTS or whose opening would
 * close another, an end tag that is not the innermost open element's, an attribute not written
 * ` name="value"` or written twice, an element left open — which the parser reads.
 */
export function readSimpleMarkup(html: string, restore: (text: string) => string): ContentNode[] | undefined {
  const root: ContentNode[] = [];
  const stack: ElementNode[] = [];
  let at = 0;
  for (;;) {
    const lt = html.indexOf("<", at);
    const textEnd = lt === -1 ? html.length : lt;
    if (textEnd > at) (stack.at(-1)?.children ?? root).push({ kind: "text", text: restore(html.slice(at, textEnd)) });
    if (lt === -1) return stack.length === 0 ? root : undefined;
    const open = stack.at(-1);
    if (html.charCodeAt(lt + 1) === 0x2f /* / */) {
      const end = lt + 2 + (open?.name.length ?? 0);
      if (open === undefined || html.slice(lt + 2, end).toLowerCase() !== open.name || html.charCodeAt(end) !== 0x3e /* > */) return undefined;
      stack.pop();
      at = end + 1;
      continue;
    }
    SIMPLE_START_TAG.lastIndex = lt;
    const tag = SIMPLE_START_TAG.exec(html);
    const name = tag?.[1]?.toLowerCase() ?? "";
    const closes = SIMPLE_ELEMENTS.get(name);
    if (tag === null || closes === undefined || (open !== undefined && closes.has(open.name)) || stack.length >= MAX_CONTENT_DEPTH) return undefined;
    const attrs: [string, string][] = [];
    // An exec loop, not `matchAll`: QuickJS compiles the expression again for every `matchAll` (its
    // copy of the expression), and most tags have no attributes at all.
    const written = tag[2] as string;
    SIMPLE_ATTRIBUTE.lastIndex = 0;
    for (let attr = written === "" ? null : SIMPLE_ATTRIBUTE.exec(written); attr !== null; attr = SIMPLE_ATTRIBUTE.exec(written)) {
      const key = (attr[1] as string).toLowerCase();
      for (let i = 0; i < attrs.length; i++) if (attrs[i]![0] === key) return undefined;
      attrs.push([key, restore(attr[2] as string)]);
    }
    const element: ElementNode = { kind: "element", name, attrs, children: [] };
    (open?.children ?? root).push(element);
    if (!VOID_ELEMENTS.has(name)) stack.push(element);
    at = SIMPLE_START_TAG.lastIndex;
  }
}
