/**
 * Content HTML in and out of the rich-text editor. In: the template's HTML becomes an editable tree
 * whose merge tags (`{{ first_name }}`) are chips that cannot be half-deleted; what could run in the
 * studio's page (scripts, handlers, frames) is left out — the engine removes it from every email
 * anyway (spec/template.md, "Content HTML"). Out: the tree is written back as the HTML subset the
 * engine reads, `<strong>` and `<em>` for the browser's `<b>` and `<i>`, each chip as the tag it was,
 * and the no-break spaces a browser writes while typing as plain spaces.
 */

/** The merge-tag syntax (engine/src/data/merge-tags.ts). */
export const MERGE_TAG = /\{\{\s*(?:(text|url|attr)\.)?([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*(?:\|\s*(?:'[^']*'|"[^"]*"|[^}\s][^}]*?))?\s*\}\}/g;

/** What a rich text holds: a heading's inline text, paragraphs, or a list. */
export type Markup = "inline" | "paragraphs" | "list";

const DROPPED = new Set(
  "script style iframe frame frameset object embed applet noscript template title head meta link base form input button select textarea svg math audio video canvas".split(
    " ",
  ),
);
const VOID = new Set(["br", "hr", "img", "wbr", "col"]);
const BLOCKS = new Set(["p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "table", "hr"]);
const RENAMED: Record<string, string> = { b: "strong", i: "em" };

/** A chip standing for one merge tag; `data-source` is the tag as written. */
export function chip(source: string): HTMLElement {
  const span = document.createElement("span");
  span.className = "merge-chip";
  span.contentEditable = "false";
  span.dataset["source"] = source;
  span.textContent = source.replace(/^\{\{\s*|\s*\}\}$/g, "");
  span.title = `Merge tag ${source}`;
  return span;
}

function isChip(node: Node): node is HTMLElement {
  return node instanceof HTMLElement && node.dataset["source"] !== undefined;
}

function safeUrl(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore control characters and spaces in a URL's scheme, so they are taken out first
  const literal = value.replace(MERGE_TAG, "").replace(/[\u0000-\u0020]/g, "");
  return !/^(?:javascript|vbscript|data):/i.test(literal) || /^data:image\/(?:png|gif|jpe?g|webp);/i.test(literal);
}

/** Copies the allowed part of a parsed tree into the editor, turning merge tags in text into chips. */
function importNodes(from: Node, into: Node): void {
  for (const node of Array.from(from.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent ?? "";
      let last = 0;
      for (const match of text.matchAll(MERGE_TAG)) {
        if (match.index > last) into.appendChild(document.createTextNode(text.slice(last, match.index)));
        into.appendChild(chip(match[0]));
        last = match.index + match[0].length;
      }
      if (last < text.length) into.appendChild(document.createTextNode(text.slice(last)));
    } else if (node instanceof Element) {
      const name = node.localName;
      if (DROPPED.has(name)) continue;
      const copy = document.createElement(name);
      for (const attr of Array.from(node.attributes)) {
        if (/^on/i.test(attr.name) || attr.name === "contenteditable") continue;
        if ((attr.name === "href" || attr.name === "src") && !safeUrl(attr.value)) continue;
        copy.setAttribute(attr.name, attr.value);
      }
      importNodes(node, copy);
      into.appendChild(copy);
    }
  }
}

/** The editable tree of `html`: a fragment to put into the editor. */
export function toEditable(html: string, markup: Markup): DocumentFragment {
  const parsed = document.createElement("template");
  parsed.innerHTML = html;
  const fragment = document.createDocumentFragment();
  importNodes(parsed.content, fragment);
  // Somewhere for the caret to type into: a paragraph, or a list item.
  if (markup === "paragraphs" && !hasBlock(fragment)) {
    const p = document.createElement("p");
    while (fragment.firstChild) p.appendChild(fragment.firstChild);
    if (p.childNodes.length === 0) p.appendChild(document.createElement("br"));
    fragment.appendChild(p);
  } else if (markup === "list" && !Array.from(fragment.childNodes).some((n) => n instanceof Element && /^(ul|ol)$/.test(n.localName))) {
    const list = document.createElement("ul");
    const item = document.createElement("li");
    while (fragment.firstChild) item.appendChild(fragment.firstChild);
    if (item.childNodes.length === 0) item.appendChild(document.createElement("br"));
    list.appendChild(item);
    fragment.appendChild(list);
  }
  return fragment;
}

function hasBlock(parent: Node): boolean {
  return Array.from(parent.childNodes).some((n) => n instanceof Element && BLOCKS.has(n.localName));
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/** A placeholder `<br>` a browser keeps at the end of a block so that the caret can go there. */
function isPlaceholderBreak(node: Node): boolean {
  if (!(node instanceof HTMLBRElement) || node.nextSibling !== null) return false;
  const parent = node.parentNode;
  return parent !== null && parent.childNodes.length > 1;
}

/**
 * A text as HTML. The no-break space a browser writes for a space typed next to an element (before a
 * chip, after a bold word) becomes a plain one; a no-break space written by the author, or in a run
 * of spaces, or at the end of a block, stays `&nbsp;`.
 */
function textHtml(node: Node): string {
  let text = node.textContent ?? "";
  if (node.nextSibling !== null && /(?:^|[^\s\u00a0])\u00a0$/.test(text) && (text.length > 1 || node.previousSibling !== null)) text = `${text.slice(0, -1)} `;
  if (node.previousSibling !== null && /^\u00a0(?:[^\s\u00a0]|$)/.test(text) && (text.length > 1 || node.nextSibling !== null)) text = ` ${text.slice(1)}`;
  return escapeText(text).replace(/\u00a0/g, "&nbsp;");
}

function serializeNodes(nodes: Iterable<Node>, markup: Markup): string {
  let out = "";
  for (const node of nodes) {
    if (node.nodeType === Node.TEXT_NODE) out += textHtml(node);
    else if (isChip(node)) out += node.dataset["source"] ?? "";
    else if (node instanceof Element) {
      if (isPlaceholderBreak(node)) continue;
      let name = RENAMED[node.localName] ?? node.localName;
      // A browser's line division in a paragraph editor is a paragraph; in a list item, a line break.
      if (name === "div") name = markup === "paragraphs" ? "p" : "br";
      if (name === "br") {
        out += "<br>";
        if (node.localName === "div") out += serializeNodes(node.childNodes, markup);
        continue;
      }
      const attrs = Array.from(node.attributes)
        .filter((a) => !/^on/i.test(a.name) && a.name !== "contenteditable")
        .map((a) => ` ${a.name}="${escapeAttribute(a.value)}"`)
        .join("");
      out += VOID.has(name) ? `<${name}${attrs}>` : `<${name}${attrs}>${serializeNodes(node.childNodes, markup)}</${name}>`;
    }
  }
  return out;
}

/** The editor's tree as content HTML of the given markup. */
export function toHtml(root: Node, markup: Markup): string {
  const nodes = Array.from(root.childNodes);
  if (markup === "inline") {
    // A heading is one line of text: blocks a browser made are joined by line breaks.
    const parts = nodes.map((n) => (n instanceof Element && BLOCKS.has(n.localName) ? serializeNodes(n.childNodes, markup) : serializeNodes([n], markup)));
    return parts.filter((p) => p !== "").join(nodes.some((n) => n instanceof Element && BLOCKS.has(n.localName)) ? "<br>" : "");
  }
  let out = "";
  let run: Node[] = [];
  const flush = () => {
    const inline = serializeNodes(run, markup);
    run = [];
    // Text typed outside any paragraph becomes one.
    if (inline.trim() !== "") out += markup === "paragraphs" ? `<p>${inline}</p>` : inline;
  };
  for (const node of nodes) {
    if (node instanceof Element && BLOCKS.has(node.localName)) {
      flush();
      out += serializeNodes([node], markup);
    } else run.push(node);
  }
  flush();
  // An editor holding only an empty paragraph or item holds nothing.
  if (/^<(p|ul|ol)>(?:<li>)?(?:<br>)?(?:<\/li>)?<\/\1>$/.test(out)) return "";
  return out;
}
