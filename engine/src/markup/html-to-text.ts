/**
 * Block rich text (trusted author HTML with merge tags) to plain-text paragraphs: block elements
 * break paragraphs, `<br>` breaks lines, list items get `- ` or `1. ` (indented when nested),
 * links read `label (url)`, images their alt text. Entities are decoded here, before merge values
 * go in, so a recipient's `&amp;` stays literally `&amp;`.
 */
import { Parser } from "htmlparser2";
import { TextCache } from "../base/caches.js";
import { MAX_CONTENT_DEPTH } from "./sanitize-html.js";
import type { TagValues } from "./tag-values.js";

export interface TextParagraph {
  /** Printed before the first line (a list marker), and before every other line. */
  readonly first: string;
  readonly rest: string;
  /** May hold hard line breaks (`\n`). */
  readonly text: string;
  /** Follows the previous paragraph on the next line instead of after a blank line (list items). */
  readonly tight?: boolean;
}

/** `label (url)`, or the label alone when there is no (safe) URL or the label is the URL. */
export function linked(label: string, url: string): string {
  const text = label.trim();
  if (url === "" || text === url || `mailto:${text}` === url || `tel:${text}` === url) return text;
  return text === "" ? url : `${text} (${url})`;
}

/** Text as one paragraph, white space collapsed; none when it is empty. */
export function textParagraphs(text: string): TextParagraph[] {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed === "" ? [] : [{ first: "", rest: "", text: collapsed }];
}

/** Lines (menu items, social links) as one paragraph, one per line; none when all are empty. */
export function lineParagraphs(lines: readonly string[]): TextParagraph[] {
  const shown = lines.map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line !== "");
  return shown.length === 0 ? [] : [{ first: "", rest: "", text: shown.join("\n") }];
}

interface Element {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: Node[];
}
type Node = Element | string;

const VOID = new Set(["area", "br", "col", "embed", "hr", "img", "input", "source", "track", "wbr"]);
const BLOCK = new Set([
  "p",
  "div",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "pre",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "tr",
  "section",
  "article",
  "header",
  "footer",
  "center",
  "dl",
  "dt",
  "dd",
  "figure",
  "figcaption",
]);
const SKIPPED = new Set(["script", "style", "head", "title"]);

/** Parsed content, by its HTML: 2,000 of them, of 1 Mi code units in all (src/base/caches.ts). */
const parsed = new TextCache<Node[]>(2000, 1024 * 1024);

/** Parsed once per distinct content (the tree is never changed): a render then only walks it. */
function parse(html: string): Node[] {
  const known = parsed.get(html);
  if (known !== undefined) return known;
  const root: Node[] = [];
  const stack: Element[] = [];
  const append = (node: Node) => (stack.at(-1)?.children ?? root).push(node);
  // Unwrapped past the depth the renderers keep (content.ts): their text is read in place.
  let tooDeep = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (stack.length >= MAX_CONTENT_DEPTH && !VOID.has(name)) {
          tooDeep++;
          return;
        }
        const element: Element = { name, attrs, children: [] };
        append(element);
        if (!VOID.has(name)) stack.push(element);
      },
      onclosetag(name) {
        if (tooDeep > 0 && !VOID.has(name)) tooDeep--;
        else if (!VOID.has(name) && stack.at(-1)?.name === name) stack.pop();
      },
      ontext(text) {
        append(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  parsed.set(html, root);
  return root;
}

interface ListState {
  readonly ordered: boolean;
  next: number;
  items: number;
}

class Collector {
  readonly paragraphs: TextParagraph[] = [];
  private buffer = "";
  private first = "";
  private rest = "";
  private tight = false;
  private readonly lists: ListState[] = [];

  constructor(private readonly values: TagValues) {}

  walk(nodes: readonly Node[]): void {
    for (const node of nodes) {
      if (typeof node === "string") this.buffer += this.values.text(node).replace(/\s+/g, " ");
      else this.element(node);
    }
  }

  private element(node: Element): void {
    const { name } = node;
    if (SKIPPED.has(name)) return;
    if (name === "br") this.buffer += "\n";
    else if (name === "img") this.buffer += ` ${this.values.text(node.attrs.alt ?? "")} `;
    else if (name === "hr") {
      this.flush();
      this.paragraphs.push({ first: "", rest: "", text: "---" });
    } else if (name === "a") {
      const outer = this.buffer;
      this.buffer = "";
      this.walk(node.children);
      const label = this.buffer.replace(/\s+/g, " ");
      this.buffer = outer + linked(label, this.values.url(node.attrs.href ?? ""));
    } else if (name === "td" || name === "th") {
      if (this.buffer.trim() !== "") this.buffer += "\t";
      this.walk(node.children);
    } else if (name === "ul" || name === "ol") {
      this.flush();
      const start = Number(node.attrs.start ?? "1");
      this.lists.push({ ordered: name === "ol", next: Number.isInteger(start) ? start : 1, items: 0 });
      this.walk(node.children);
      this.lists.pop();
      this.flush();
      this.tight = false;
    } else if (name === "li") {
      this.flush();
      const list = this.lists.at(-1);
      const indent = "  ".repeat(Math.max(0, this.lists.length - 1));
      const marker = list?.ordered ? `${list.next++}. ` : "- ";
      // The first item of a nested list follows its parent item's line directly.
      this.tight = (list !== undefined && list.items > 0) || this.lists.length > 1;
      if (list) list.items++;
      this.first = indent + marker;
      this.rest = indent + " ".repeat(marker.length);
      this.walk(node.children);
      this.flush();
      this.first = this.rest = "";
    } else if (BLOCK.has(name)) {
      this.flush();
      this.walk(node.children);
      this.flush();
    } else this.walk(node.children);
  }

  /** Ends the paragraph being collected (if it has any text). */
  flush(): void {
    const text = this.buffer
      .split("\n")
      // A tab marks a table-cell boundary: two spaces once the runs of spaces are collapsed.
      .map((line) =>
        line
          .replace(/ +/g, " ")
          .trim()
          .replace(/ ?\t ?/g, "  "),
      )
      .join("\n")
      .replace(/^\n+|\n+$/g, "");
    this.buffer = "";
    if (text === "") return;
    this.paragraphs.push({ first: this.first, rest: this.rest, text, ...(this.tight ? { tight: true } : {}) });
    // Text after a nested list, still inside the item, continues under the item's text.
    this.first = this.rest;
    this.tight = this.lists.length > 0;
  }
}

export function paragraphsOfHtml(html: string, values: TagValues): TextParagraph[] {
  const collector = new Collector(values);
  collector.walk(parse(html));
  collector.flush();
  return collector.paragraphs;
}
