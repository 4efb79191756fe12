/**
 * Block `content` is rich-text HTML written by the template's author, reduced to the email-safe
 * subset (sanitize-html.ts). It is inserted as HTML (markup targets) or converted to JSX elements
 * (react-email); in both, the merge tags it holds become slots whose position (text, attribute, URL)
 * comes from where they stand in the markup.
 */
import { LruCache } from "../base/lru.js";
import { type MergeTagRef, parseMergeTags } from "../data/merge-tags.js";
import { type ContentNode, type ElementNode, readSimpleMarkup, readWithParser, VOID_ELEMENTS } from "./content-tree.js";
import type { Emitter, SlotPosition } from "./emitter.js";
import { stripTokenDelimiters } from "./emitter.js";
import { MAX_CONTENT_DEPTH, sanitizeNodes } from "./sanitize-html.js";
import { jsxStyle, parseCssText } from "./style.js";

const URL_ATTRIBUTES = new Set(["href", "src"]);

export interface ParsedContent {
  readonly nodes: ContentNode[];
  /** What the sanitiser removed, for the `UNSAFE_CONTENT` warning. */
  readonly removed: readonly string[];
}

const TAG_OPEN = "\uE002";
const TAG_CLOSE = "\uE003";
const PROTECTED_TAG = /\uE002(\d+)\uE003/g;

/**
 * Merge tags are set aside before the HTML parser sees the content, so that markup inside a tag (a
 * pipe default such as `{{ nick|'<b>friend</b>' }}`) cannot become elements around it. The default
 * is text: its markup is removed, never shown as tag text.
 */
function protectMergeTags(html: string): { html: string; restore: (text: string) => string } {
  const sources: string[] = [];
  const cleaned = html.includes(TAG_OPEN) || html.includes(TAG_CLOSE) ? html.replace(/[\uE002\uE003]/g, "") : html;
  if (!cleaned.includes("{{")) return { html: cleaned, restore: (text) => text };
  const protectedHtml = parseMergeTags(cleaned)
    .map((part) => (typeof part === "string" ? part : `${TAG_OPEN}${sources.push(part.source.replace(/<[^>]*>/g, "")) - 1}${TAG_CLOSE}`))
    .join("");
  return { html: protectedHtml, restore: (text) => (text.includes(TAG_OPEN) ? text.replace(PROTECTED_TAG, (_, i: string) => sources[Number(i)] ?? "") : text) };
}

/** The editor's merge span `<span data-merge="first_name" data-merge-default="friend"></span>` as a merge tag. */
function mergeSpanRef(node: ElementNode): MergeTagRef | undefined {
  if (node.name !== "span") return undefined;
  const name = node.attrs.find(([attr]) => attr === "data-merge")?.[1]?.trim();
  if (!name) return undefined;
  const fallback = node.attrs.find(([attr]) => attr === "data-merge-default")?.[1];
  const qualified = /^(text|url|attr)\.(.+)$/.exec(name);
  return {
    name: qualified ? qualified[2]! : name,
    group: qualified ? (qualified[1] as MergeTagRef["group"]) : undefined,
    fallback:
      fallback === undefined || fallback === ""
        ? undefined
        : fallback
            .replace(/&amp;/g, "&")
            .replace(/&lt;/g, "<")
            .replace(/&gt;/g, ">")
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'"),
    source: `<span data-merge="${name}">`,
  };
}

/** Where parsed content is kept by its HTML (the engine's bounded cache, engine/caches.ts). */
export interface ContentCache {
  get(html: string): ParsedContent | undefined;
  set(html: string, parsed: ParsedContent): void;
}

/**
 * Reads content HTML: parsed and sanitised once per distinct text while it stays in `cache` (the
 * reader checks it, then each target writes it).
 */
export class ContentHtml {
  constructor(private readonly cache: ContentCache = new LruCache(CONTENT_CACHE_ENTRIES)) {}

  /** The content as a small tree of its allowed subset, keeping entities exactly as the author wrote them. */
  nodes(html: string): ContentNode[] {
    return this.read(html).nodes;
  }

  /** What the sanitiser removes from the content (empty when it is all allowed). */
  removals(html: string): readonly string[] {
    return this.read(html).removed;
  }

  /** The content as markup (html, mjml), its merge tags as slots. */
  markup(html: string, out: Emitter): string {
    return nodesToMarkup(this.nodes(html), out);
  }

  /** Content's nodes (`nodes`, as a block changed them) as markup, their merge tags as slots. */
  nodesMarkup(nodes: readonly ContentNode[], out: Emitter): string {
    return nodesToMarkup(nodes, out);
  }

  /** The content as JSX elements (react-email), its merge tags as slots. */
  jsx(html: string, out: Emitter): string {
    return nodesToJsx(this.nodes(html), out);
  }

  private read(html: string): ParsedContent {
    let parsed = this.cache.get(html);
    if (parsed === undefined) {
      parsed = parseAndSanitize(html);
      this.cache.set(html, parsed);
    }
    return parsed;
  }
}

/** The entries a content reader keeps when not given the engine's cache. */
const CONTENT_CACHE_ENTRIES = 2_000;

function parseAndSanitize(html: string): ParsedContent {
  const { html: protectedHtml, restore } = protectMergeTags(stripTokenDelimiters(html));
  const simple = readSimpleMarkup(protectedHtml, restore);
  if (simple !== undefined) return sanitizeNodes(simple) as ParsedContent;
  const { nodes, unwrapped } = readWithParser(protectedHtml, restore);
  const sanitized = sanitizeNodes(nodes);
  if (unwrapped) sanitized.removed.push(`the tags of elements nested more than ${MAX_CONTENT_DEPTH} deep (their content is kept)`);
  return sanitized as ParsedContent;
}

function attributePosition(name: string): SlotPosition {
  return URL_ATTRIBUTES.has(name) ? "url" : "attr";
}

// ---- markup (html, mjml) ----------------------------------------------------------------------

function nodesToMarkup(nodes: readonly ContentNode[], out: Emitter): string {
  let result = "";
  // Index loops and no destructuring: QuickJS makes an iterator for each `for…of` and each `[a, b] =`.
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.kind === "text") result += out.trusted(node.text, "text");
    else if (node.kind === "comment") result += `<!--${node.text}-->`;
    else if (mergeSpanRef(node)) result += out.slot(mergeSpanRef(node)!, "text");
    else {
      let attrs = "";
      for (let a = 0; a < node.attrs.length; a++) {
        const attr = node.attrs[a]!;
        attrs += ` ${attr[0]}="${attributeValue(attr[0], attr[1], out)}"`;
      }
      result += VOID_ELEMENTS.has(node.name) ? `<${node.name}${attrs}>` : `<${node.name}${attrs}>${nodesToMarkup(node.children, out)}</${node.name}>`;
    }
  }
  return result;
}

function attributeValue(name: string, value: string, out: Emitter): string {
  if (name === "style") {
    const css = dropTags(value);
    return css.includes('"') ? css.replace(/"/g, "&quot;") : css;
  }
  const position = attributePosition(name);
  return out.trusted(value, position === "url" ? "url" : "attr");
}

/** Merge tags are not supported inside inline CSS: a value there could escape the declaration. */
function dropTags(value: string): string {
  if (!value.includes("{{")) return value;
  return parseMergeTags(value)
    .map((part) => (typeof part === "string" ? part : ""))
    .join("");
}

// ---- JSX (react-email) ------------------------------------------------------------------------

const JSX_ATTRIBUTE_NAMES: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  colspan: "colSpan",
  rowspan: "rowSpan",
  cellpadding: "cellPadding",
  cellspacing: "cellSpacing",
  tabindex: "tabIndex",
  maxlength: "maxLength",
  bgcolor: "bgcolor",
  valign: "valign",
  srcset: "srcSet",
  "http-equiv": "httpEquiv",
  crossorigin: "crossOrigin",
  referrerpolicy: "referrerPolicy",
};

/*
 * Content elements keep their HTML names in JSX. A link stays `<a>`, not React Email's `<Link>`:
 * `<Link>` draws a link without its own colour in #067df7 without underline (3.97:1 on white, below
 * WCAG AA), where the html target's `<a>` shows the mail client's link colour, underlined.
 */

export function nodesToJsx(nodes: readonly ContentNode[], out: Emitter): string {
  let result = "";
  for (const node of nodes) {
    if (node.kind === "text") result += out.trusted(node.text, "text");
    else if (node.kind === "comment")
      continue; // JSX has no comments in markup position
    else if (mergeSpanRef(node)) result += out.slot(mergeSpanRef(node)!, "text");
    else result += elementToJsx(node, out, []);
  }
  return result;
}

export function elementToJsx(node: ElementNode, out: Emitter, extraStyle: ReadonlyArray<readonly [string, string]>, forcedName?: string): string {
  const name = forcedName ?? node.name;
  let attrs = "";
  let style = [...extraStyle];
  for (const [attrName, value] of node.attrs) {
    if (attrName === "style") style = [...style, ...parseCssText(dropTags(value))];
    else if (/^on/i.test(attrName))
      continue; // event handlers have no meaning in email and are not valid JSX strings
    else {
      const jsxName = JSX_ATTRIBUTE_NAMES[attrName] ?? attrName;
      attrs += ` ${jsxName}="${out.trusted(value, attributePosition(attrName) === "url" ? "url" : "attr")}"`;
    }
  }
  if (style.length > 0) attrs += ` style={${jsxStyle(style)}}`;
  if (VOID_ELEMENTS.has(node.name)) return `<${name}${attrs} />`;
  return `<${name}${attrs}>${nodesToJsx(node.children, out)}</${name}>`;
}

export function isElement(node: ContentNode): node is ElementNode {
  return node.kind === "element";
}
export type { ContentNode, ElementNode };
