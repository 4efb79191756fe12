/**
 * Reads the MJML our own MJML target writes into the tree mjml-parser-xml 5.4.1 would make of it.
 * That MJML is well formed by construction: lower-case tags, double-quoted attributes, no
 * `mj-include`. Only what mjml's parser does to such input is reproduced: the inner markup of an
 * ending tag is kept raw as `content` (trimmed), other text is trimmed and appended, comments
 * outside ending tags become `mj-raw` children, and "true"/"false" attribute values become booleans.
 * Anything else is refused with an error naming the offset, since it means our writer changed.
 */
import type { Attributes, AttributeValue, MjmlNode } from "./component.js";

interface OpenNode {
  tagName: string;
  attributes: Attributes;
  children: MjmlNode[];
  content: string;
}

const TAG = /<(\/?)([a-z][a-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*"[^"]*")?)*)\s*(\/?)>/y;
/**
 * One attribute of TAG's attribute group, read in order from its start: the group is a run of these,
 * so reading them one after the other finds what a global search for the name and value finds,
 * without `matchAll`, which copies (and, in QuickJS, recompiles) the expression on every call.
 */
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*"([^"]*)")?/y;

export class MjmlSyntaxError extends Error {}

function readAttributes(source: string): Attributes {
  const attributes: Attributes = {};
  ATTRIBUTE.lastIndex = 0;
  for (let match = ATTRIBUTE.exec(source); match !== null; match = ATTRIBUTE.exec(source)) {
    attributes[match[1] as string] = convertBoolean(match[2] ?? "");
  }
  return attributes;
}

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
    TAG.lastIndex = lt;
    const match = TAG.exec(xml);
    if (!match) throw new MjmlSyntaxError(`unexpected markup at ${lt}: ${JSON.stringify(xml.slice(lt, lt + 40))}`);
    const [whole, closing, tagName = "", attributeSource = "", selfClosing] = match;
    position = lt + whole.length;
    if (closing) {
      const open = stack.pop();
      if (open?.tagName !== tagName) throw new MjmlSyntaxError(`</${tagName}> at ${lt} closes <${open?.tagName ?? "nothing"}>`);
      continue;
    }
    const node: OpenNode = { tagName, attributes: readAttributes(attributeSource), children: [], content: "" };
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
