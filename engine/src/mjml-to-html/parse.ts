/**
 * Reads the MJML our own MJML target writes into the tree mjml-parser-xml 5.4.1 would make of it.
 * That MJML is well formed by construction: lower-case tags, double-quoted attributes, no
 * `mj-include`. Only what mjml's parser does to such input is reproduced: the inner markup of an
 * ending tag is kept raw as `content` (trimmed), other text is trimmed and appended, comments
 * outside ending tags become `mj-raw` children, and "true"/"false" attribute values become booleans.
 * Anything else is refused with an error naming the offset, since it means our writer changed.
 */
import { isSpace } from "../whitespace.js";
import type { Attributes, AttributeValue, MjmlNode } from "./component.js";

interface OpenNode {
  tagName: string;
  attributes: Attributes;
  children: MjmlNode[];
  content: string;
}

/**
 * A tag as mjml's parser reads our MJML, what
 * `/<(\/?)([a-z][a-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*"[^"]*")?)*)\s*(\/?)>/y` matches at `lt`
 * (the test keeps that expression as the reference), read character by character: the expression
 * and the attribute one run over each tag were a tenth of a compile. Reading greedily finds what
 * the expression finds: no shorter attribute list or name, nor a value left out, leaves `\s*\/?>`.
 * Null where the expression does not match.
 */
function readTag(xml: string, lt: number): { closing: boolean; tagName: string; attributes: Attributes; selfClosing: boolean; end: number } | null {
  let at = lt + 1;
  const closing = xml.charCodeAt(at) === 0x2f; /* / */
  if (closing) at++;
  const nameStart = at;
  if (!isLowerLetter(xml.charCodeAt(at))) return null;
  while (isTagNameChar(xml.charCodeAt(at))) at++;
  const tagName = xml.slice(nameStart, at);
  const attributes: Attributes = {};
  for (;;) {
    let nameAt = at;
    while (isSpace(xml.charCodeAt(nameAt))) nameAt++;
    if (nameAt === at) break;
    let nameEnd = nameAt;
    while (nameEnd < xml.length && isAttributeNameChar(xml.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd === nameAt) break;
    const name = xml.slice(nameAt, nameEnd);
    at = nameEnd;
    let value = "";
    let equals = nameEnd;
    while (isSpace(xml.charCodeAt(equals))) equals++;
    if (xml.charCodeAt(equals) === 0x3d /* = */) {
      let quote = equals + 1;
      while (isSpace(xml.charCodeAt(quote))) quote++;
      const close = xml.charCodeAt(quote) === 0x22 /* " */ ? xml.indexOf('"', quote + 1) : -1;
      if (close !== -1) {
        value = xml.slice(quote + 1, close);
        at = close + 1;
      }
    }
    attributes[name] = convertBoolean(value);
  }
  while (isSpace(xml.charCodeAt(at))) at++;
  const selfClosing = xml.charCodeAt(at) === 0x2f; /* / */
  if (selfClosing) at++;
  if (xml.charCodeAt(at) !== 0x3e /* > */) return null;
  return { closing, tagName, attributes, selfClosing, end: at + 1 };
}

const isLowerLetter = (code: number): boolean => code >= 0x61 && code <= 0x7a;
const isTagNameChar = (code: number): boolean => isLowerLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d; /* - */
/** `[^\s"'>/=]` */
const isAttributeNameChar = (code: number): boolean =>
  !isSpace(code) && code !== 0x22 && code !== 0x27 && code !== 0x3e && code !== 0x2f && code !== 0x3d; /* " ' > / = */

export class MjmlSyntaxError extends Error {}

function convertBoolean(value: string): AttributeValue {
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
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

export function parseMjml(xml: string, endingTags: ReadonlySet<string>): MjmlNode {
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
    if (lt > position) appendText(xml.slice(position, lt));
    if (xml.startsWith("<!--", lt)) {
      const end = xml.indexOf("-->", lt + 4);
      if (end === -1) throw new MjmlSyntaxError(`comment at ${lt} is not closed`);
      stack[stack.length - 1]?.children.push({ tagName: "mj-raw", attributes: {}, children: [], content: xml.slice(lt, end + 3) });
      position = end + 3;
      continue;
    }
    const tag = readTag(xml, lt);
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
