/**
 * Reads the MJML our own MJML target writes into the tree mjml-parser-xml 5.4.1 would make of it.
 * That MJML is well formed by construction: lower-case tags, double-quoted attributes, no
 * `mj-include`. Only what mjml's parser does to such input is reproduced: the inner markup of an
 * ending tag is kept raw as `content` (trimmed), other text is trimmed and appended, comments
 * outside ending tags become `mj-raw` children, and "true"/"false" attribute values become booleans.
 * Anything else is refused with an error naming the offset, since it means our writer changed.
 * The release engine reads the forms the writer writes in C (engine/runtimes/quickjs/native/
 * mjml-parse.c) and leaves the rest to this: a change here is made there too.
 */

import { isSpace } from "../base/whitespace.js";
import type { Attributes, AttributeValue, MjmlNode } from "./component.js";

interface OpenNode {
  tagName: string;
  attributes: Attributes;
  children: MjmlNode[];
  content: string;
}

/**
 * A tag is read in three sticky steps from its `<`: its name, its attributes one after the other,
 * then its end. Each attribute is read once, where it stands in the document: an expression over
 * the whole tag would scan its attributes, and reading its attribute group again would scan them
 * twice. What the three steps accept is what
 * `<(\/?)([a-z][a-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*"[^"]*")?)*)\s*(\/?)>` matches: a name
 * holds neither `/` nor `>`, so that expression never backtracks into its attributes. The release
 * engine's QuickJS pays ~1,000 instructions or more for any regular expression call, so the forms our
 * writer writes (` name="value"`, `>`, `/>`, the open element's `</name>`) are found with indexOf
 * and character codes, which match there exactly what the expressions would.
 */
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*"([^"]*)")?/y;
const TAG_END = /\s*(\/?)>/y;
const GT = 0x3e;
const LT = 0x3c;
const SLASH = 0x2f;
const SPACE = 0x20;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const EQUALS = 0x3d;
const HYPHEN = 0x2d;

export class MjmlSyntaxError extends Error {}

export interface Tag {
  readonly closing: boolean;
  readonly tagName: string;
  readonly attributes: Attributes;
  readonly selfClosing: boolean;
  /** Where the tag ends in the document. */
  readonly end: number;
}

/**
 * Names the reader hands out rather than slicing them from the document (the components' tag and
 * attribute names): a name read is looked for among them by its length and first and last
 * characters, and compared where it stands. V8 looks each new string used as a property key (a
 * node's attributes, a tag in the component registry) up in its table of internalised strings,
 * hashing it first; a known name is internalised already. Any other name is sliced.
 */
export class KnownNames {
  private readonly byKey = new Map<number, string[]>();

  constructor(names: Iterable<string>) {
    for (const name of new Set(names)) {
      const key = nameKey(name, 0, name.length);
      const bucket = this.byKey.get(key);
      if (bucket === undefined) this.byKey.set(key, [name]);
      else bucket.push(name);
    }
  }

  /** The name `xml` holds from `start` to `end` (not empty). */
  nameAt(xml: string, start: number, end: number): string {
    const bucket = this.byKey.get(nameKey(xml, start, end));
    if (bucket !== undefined) {
      for (let i = 0; i < bucket.length; i++) if (xml.startsWith(bucket[i] as string, start)) return bucket[i] as string;
    }
    return xml.slice(start, end);
  }
}

/**
 * What KnownNames files a name under: its length and its first and last characters (their low
 * bytes). Names under one key have the same length, so a comparison in place is of the whole name.
 */
function nameKey(text: string, start: number, end: number): number {
  return (end - start) * 0x10000 + (text.charCodeAt(start) & 0xff) * 0x100 + (text.charCodeAt(end - 1) & 0xff);
}

const NO_NAMES = new KnownNames([]);

/** Whether `code` is a lower-case ASCII letter. */
function isLowerLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/** Whether `code` may follow a tag name's first letter: `[a-z0-9-]`. */
function isNameCharacter(code: number): boolean {
  return isLowerLetter(code) || (code >= 0x30 && code <= 0x39) || code === HYPHEN;
}

/**
 * The tag that starts at `lt`, or undefined if none does (what `<(\/?)([a-z][a-z0-9-]*)`, then the
 * attributes and TAG_END match there). The name is read a character at a time: no match object.
 */
export function readTag(xml: string, lt: number, names: KnownNames = NO_NAMES): Tag | undefined {
  const closing = xml.charCodeAt(lt + 1) === SLASH;
  const nameStart = closing ? lt + 2 : lt + 1;
  if (xml.charCodeAt(lt) !== LT || !isLowerLetter(xml.charCodeAt(nameStart))) return undefined;
  let end = nameStart + 1;
  while (isNameCharacter(xml.charCodeAt(end))) end++;
  const tagName = names.nameAt(xml, nameStart, end);
  const attributes: Attributes = {};
  // An attribute starts with white space: at `>` or `/>` the tag ends.
  let next = xml.charCodeAt(end);
  while (next !== GT && next !== SLASH) {
    const after = readAttribute(xml, end, attributes, names);
    if (after === -1) break;
    end = after;
    next = xml.charCodeAt(end);
  }
  if (next === GT) return { closing, tagName, attributes, selfClosing: false, end: end + 1 };
  if (next === SLASH && xml.charCodeAt(end + 1) === GT) return { closing, tagName, attributes, selfClosing: true, end: end + 2 };
  TAG_END.lastIndex = end;
  const tagEnd = TAG_END.exec(xml);
  if (tagEnd === null) return undefined;
  return { closing, tagName, attributes, selfClosing: tagEnd[1] === "/", end: TAG_END.lastIndex };
}

/**
 * Whether `xml` from `start` to `end` is what ATTRIBUTE's name group matches (`[^\s"'>/=]+`),
 * looked at a character at a time: the name of `<mj-all a="b" />`'s ` />` would run to the next `=`.
 */
function isAttributeName(xml: string, start: number, end: number): boolean {
  if (start === end) return false;
  for (let i = start; i < end; i++) {
    const code = xml.charCodeAt(i);
    // the names our writer writes: lower-case letters and `-`
    if (isLowerLetter(code) || code === HYPHEN) continue;
    if (code === QUOTE || code === APOSTROPHE || code === GT || code === SLASH || code === EQUALS || isSpace(code)) return false;
  }
  return true;
}

/**
 * Reads the attribute at `from` into `attributes`: where it ends, or -1 where ATTRIBUTE matches
 * none. ` name="value"` as our writer writes it is found with indexOf and a name checked, which is
 * what ATTRIBUTE matches there; anything else is left to ATTRIBUTE.
 */
function readAttribute(xml: string, from: number, attributes: Attributes, names: KnownNames): number {
  if (xml.charCodeAt(from) === SPACE) {
    const equals = xml.indexOf("=", from + 1);
    const valueEnd = equals !== -1 && xml.charCodeAt(equals + 1) === QUOTE ? xml.indexOf('"', equals + 2) : -1;
    if (valueEnd !== -1 && isAttributeName(xml, from + 1, equals)) {
      attributes[names.nameAt(xml, from + 1, equals)] = convertBoolean(xml.slice(equals + 2, valueEnd));
      return valueEnd + 1;
    }
  }
  ATTRIBUTE.lastIndex = from;
  const match = ATTRIBUTE.exec(xml);
  if (match === null) return -1;
  attributes[match[1] as string] = convertBoolean(match[2] ?? "");
  return ATTRIBUTE.lastIndex;
}

function convertBoolean(value: string): AttributeValue {
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}

/** Whether `xml` holds only white space from `start` to `end`: text that appends nothing. */
function isBlank(xml: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(xml.charCodeAt(i))) return false;
  return true;
}

/**
 * The raw content of an ending tag opened just before `from`, and where its close tag ends. mjml
 * counts nested ending tags of any kind; our content never holds one, so the first close tag of
 * the same name ends it.
 */
function endingTagContent(xml: string, tagName: string, from: number): { content: string; end: number } {
  const close = xml.indexOf(`</${tagName}`, from);
  const closeEnd = close === -1 ? -1 : xml.indexOf(">", close);
  if (closeEnd === -1) throw new MjmlSyntaxError(`<${tagName}> at ${from} is not closed`);
  return { content: xml.slice(from, close).trim(), end: closeEnd + 1 };
}

export function parseMjml(xml: string, endingTags: ReadonlySet<string>, names: KnownNames = NO_NAMES): MjmlNode {
  let root: OpenNode | undefined;
  const stack: OpenNode[] = [];
  let position = 0;
  const appendText = (text: string) => {
    const node = stack[stack.length - 1];
    const trimmed = text.trim();
    if (node && trimmed) node.content = `${node.content}${trimmed}`.trim();
  };
  while (position < xml.length) {
    const lt = xml.indexOf("<", position);
    if (lt === -1) {
      appendText(xml.slice(position));
      break;
    }
    if (lt > position && !isBlank(xml, position, lt)) appendText(xml.slice(position, lt));
    if (xml.startsWith("<!--", lt)) {
      const end = xml.indexOf("-->", lt + 4);
      if (end === -1) throw new MjmlSyntaxError(`comment at ${lt} is not closed`);
      stack[stack.length - 1]?.children.push({ tagName: "mj-raw", attributes: {}, children: [], content: xml.slice(lt, end + 3) });
      position = end + 3;
      continue;
    }
    // The open element's close tag as our writer writes it (`</name>`); anything else is read.
    const open = stack[stack.length - 1];
    if (open !== undefined && xml.charCodeAt(lt + 1) === SLASH && xml.startsWith(open.tagName, lt + 2) && xml.charCodeAt(lt + 2 + open.tagName.length) === GT) {
      stack.pop();
      position = lt + 3 + open.tagName.length;
      continue;
    }
    const tag = readTag(xml, lt, names);
    if (!tag) throw new MjmlSyntaxError(`unexpected markup at ${lt}: ${JSON.stringify(xml.slice(lt, lt + 40))}`);
    const { closing, tagName, attributes, selfClosing } = tag;
    position = tag.end;
    if (closing) {
      const open = stack.pop();
      if (open?.tagName !== tagName) throw new MjmlSyntaxError(`</${tagName}> at ${lt} closes <${open?.tagName ?? "nothing"}>`);
      continue;
    }
    const node: OpenNode = { tagName, attributes, children: [], content: "" };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else if (root) throw new MjmlSyntaxError(`second root element <${tagName}> at ${lt}`);
    else root = node;
    if (selfClosing) continue;
    if (endingTags.has(tagName)) {
      const { content, end } = endingTagContent(xml, tagName, position);
      node.content = content;
      position = end;
      continue;
    }
    stack.push(node);
  }
  if (!root) throw new MjmlSyntaxError("no root element");
  if (stack.length > 0) throw new MjmlSyntaxError(`<${stack[stack.length - 1]?.tagName ?? ""}> is not closed`);
  return root;
}
