/**
 * Block content HTML is written by whoever holds a template key, and lands in every email rendered
 * from the template: it is reduced to what email clients render (spec/template.md, "Content HTML").
 * Works on the tree the content parser builds from htmlparser2's tokens; the element, attribute and
 * URL checks are allow-lists, so what is not known to be safe is removed and reported.
 */
import { parseMergeTags } from "../data/merge-tags.js";

/** Elements kept, with their allowed attributes. */
const ALLOWED_ELEMENTS: ReadonlySet<string> = new Set(
  (
    "a abbr b bdi bdo big blockquote br caption center cite code col colgroup dd del dfn div dl dt em " +
    "figcaption figure font h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp small span " +
    "strike strong sub sup table tbody td tfoot th thead time tr tt u ul var wbr"
  ).split(" "),
);

/** Elements removed with everything inside them: active content, forms, embedded documents, head markup. */
const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set(
  (
    "script style iframe frame frameset noframes object embed applet param noscript noembed template " +
    "title head meta link base form input button select textarea option optgroup datalist svg math " +
    "audio video canvas source track portal dialog xmp plaintext"
  ).split(" "),
);

const ALLOWED_ATTRIBUTES: ReadonlySet<string> = new Set(
  (
    "style class id title dir lang align valign width height bgcolor border role href target rel name " +
    "src alt colspan rowspan nowrap scope cellpadding cellspacing color face size start type reversed " +
    "value datetime span"
  ).split(" "),
);

const URL_ATTRIBUTES: ReadonlySet<string> = new Set(["href", "src"]);
const SAFE_SCHEMES: ReadonlySet<string> = new Set(["http", "https", "mailto", "tel"]);
/** Inline images (not SVG, which can carry script) and attached ones. */
const SAFE_IMAGE_SOURCE = /^(?:data:image\/(?:png|gif|jpe?g|webp);base64,|cid:)/i;

/**
 * Elements nested deeper than this in block content are unwrapped (their content is kept). Every
 * renderer walks the content tree recursively, and the release engine's stack ends at a few hundred
 * levels; no rich text nests anywhere near this deep.
 */
export const MAX_CONTENT_DEPTH = 100;

/**
 * A CSS declaration that runs code or loads a binding in some client (old IE, old Firefox), matched
 * on a style as the client reads it (`cssAsRead`): no whitespace or controls, so `java script:` and
 * `expression (` match too.
 */
const UNSAFE_CSS = /expression\(|javascript:|vbscript:|-moz-binding|behavior:|@import/i;

export interface SanitizableElement {
  readonly kind: "element";
  readonly name: string;
  readonly attrs: ReadonlyArray<readonly [string, string]>;
  readonly children: SanitizableNode[];
}
export type SanitizableNode = SanitizableElement | { readonly kind: "text"; readonly text: string } | { readonly kind: "comment"; readonly text: string };

/** The allowed subset of `nodes`, and a description of each thing removed (empty when nothing was). */
export function sanitizeNodes(nodes: readonly SanitizableNode[]): { nodes: SanitizableNode[]; removed: string[] } {
  const removed: string[] = [];
  return { nodes: sanitizeList(nodes, removed), removed };
}

function sanitizeList(nodes: readonly SanitizableNode[], removed: string[]): SanitizableNode[] {
  const kept: SanitizableNode[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.kind === "text") kept.push(node);
    else if (node.kind === "comment") {
      // A conditional comment (`<!--[if mso]>…`) holds markup that some client parses: not checked, so not kept.
      if (/[<>]|\[if/i.test(node.text)) removed.push("a conditional comment");
      else kept.push(node);
    } else if (DROPPED_WITH_CONTENT.has(node.name)) removed.push(`<${node.name}> with its content`);
    else if (!ALLOWED_ELEMENTS.has(node.name)) {
      removed.push(`the <${printable(node.name)}> tag (its content is kept)`);
      kept.push(...sanitizeList(node.children, removed));
    } else kept.push({ ...node, attrs: sanitizeAttributes(node, removed), children: sanitizeList(node.children, removed) });
  }
  return kept;
}

function sanitizeAttributes(node: SanitizableElement, removed: string[]): Array<readonly [string, string]> {
  const kept: Array<readonly [string, string]> = [];
  const { attrs } = node;
  // Index loops and no destructuring: QuickJS makes an iterator for each `for…of` and each `[a, b] =`.
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    const name = attr[0];
    const value = attr[1];
    const where = `<${node.name} ${printable(name)}>`;
    if (/^on/i.test(name)) removed.push(`the event handler ${where}`);
    else if (!ALLOWED_ATTRIBUTES.has(name) && !/^(?:data|aria)-[a-z0-9-]+$/.test(name)) removed.push(`the attribute ${where}`);
    else if (URL_ATTRIBUTES.has(name) && !isSafeContentUrl(value, node.name === "img" && name === "src"))
      removed.push(`the URL of ${where} (scheme not allowed)`);
    else if (name === "style" && isUnsafeCss(value)) {
      removed.push(`a declaration of ${where}`);
      kept.push([name, safeDeclarations(value)]);
    } else kept.push([name, value]);
  }
  return kept;
}

function isUnsafeCss(style: string): boolean {
  return UNSAFE_CSS.test(squeezed(cssAsRead(style)));
}

/**
 * A style attribute with its unsafe declarations removed. The declarations are split and judged in
 * the form a client reads (references decoded, comments out, CSS escapes decoded), and the kept ones
 * are written in that form, re-escaped for the attribute: what the author wrote around an unsafe
 * declaration (a reference or a comment that hid it) cannot carry it back in.
 */
function safeDeclarations(style: string): string {
  return declarationsOf(cssAsRead(style))
    .filter((declaration) => !UNSAFE_CSS.test(squeezed(declaration)))
    .join(";")
    .replace(/[&<>]/g, (ch) => (ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : "&gt;"));
}

/**
 * A style attribute's text as a client's CSS parser gets it: character references decoded (the HTML
 * attribute), then comments removed (an unclosed one runs to the end) and CSS escapes decoded
 * (`\65 ` and `\e` are both `e`), so neither `&#106;avascript:` nor `exp/**\/ression(` nor
 * `exp\ression(` hides a keyword from the check.
 */
export function cssAsRead(style: string): string {
  const text = decodeCharacterReferences(style).replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "");
  return text.replace(/\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|([\s\S]))/gi, (_match, hex: string | undefined, char: string | undefined) => {
    if (hex === undefined) return char === "\n" ? "" : (char ?? "");
    const code = parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\uFFFD";
  });
}

/** Without whitespace and controls, which a client skips inside a URL scheme and between a function's name and `(`. */
function squeezed(css: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return css.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
}

/** Declarations split at `;` outside strings and parentheses (a data URL's `;` is not a boundary). */
function declarationsOf(css: string): string[] {
  const declarations: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (quote !== "") {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (ch === ";" && depth === 0) {
      declarations.push(css.slice(start, i));
      start = i + 1;
    }
  }
  declarations.push(css.slice(start));
  return declarations;
}

/** A tag or attribute name as the author wrote it, short and on one line, for a message. */
function printable(name: string): string {
  const clean = name.replace(/[\s<>]/g, "");
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/**
 * A URL a browser would follow to an allowed scheme, or a relative one. Character references are
 * decoded first (`javascript&#58;` is `javascript:` to a browser), controls and whitespace removed
 * (browsers ignore them), and merge tags left out (a tag's value is checked when it is substituted).
 */
export function isSafeContentUrl(value: string, imageSource: boolean): boolean {
  const literal = value.includes("{{")
    ? parseMergeTags(value)
        .map((part) => (typeof part === "string" ? part : ""))
        .join("")
    : value;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these inside a URL scheme, so must we
  const url = decodeCharacterReferences(literal).replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  const head = /^[^/?#]*/.exec(url)?.[0] ?? "";
  if (!head.includes(":")) return !head.includes("&"); // relative; an undecoded reference could still spell a scheme
  if (imageSource && SAFE_IMAGE_SOURCE.test(url)) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(head)?.[1];
  return scheme !== undefined && SAFE_SCHEMES.has(scheme.toLowerCase());
}

/**
 * The named references that stand for an ASCII character other than a letter or digit (none stands
 * for a letter): all that can spell a scheme, a CSS function, a comment or a declaration boundary.
 */
const NAMED_REFERENCES: Record<string, string> = {
  tab: "\t",
  newline: "\n",
  excl: "!",
  quot: '"',
  num: "#",
  dollar: "$",
  percnt: "%",
  amp: "&",
  apos: "'",
  lpar: "(",
  rpar: ")",
  ast: "*",
  midast: "*",
  plus: "+",
  comma: ",",
  period: ".",
  sol: "/",
  colon: ":",
  semi: ";",
  lt: "<",
  equals: "=",
  gt: ">",
  quest: "?",
  commat: "@",
  lsqb: "[",
  lbrack: "[",
  bsol: "\\",
  rsqb: "]",
  rbrack: "]",
  hat: "^",
  lowbar: "_",
  underbar: "_",
  grave: "`",
  diacriticalgrave: "`",
  lcub: "{",
  lbrace: "{",
  verbar: "|",
  vert: "|",
  verticalline: "|",
  rcub: "}",
  rbrace: "}",
};

/**
 * Numeric references (with or without `;`) and the named ones above, in any case: a filter may
 * decode more than a browser does (it then removes more), never less.
 */
function decodeCharacterReferences(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|([a-z]+));?/gi, (match, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_REFERENCES[name.toLowerCase()] ?? match;
    const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
  });
}
