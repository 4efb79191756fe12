/**
 * MJML → HTML for the MJML our own MJML target writes: a port of mjml2html (mjml 5.4.1) restricted
 * to the components and features that MJML uses, byte-identical to mjml's output for it
 * (test/mjml-to-html.test.ts compares the two on every fixture and on generated documents).
 * It exists so that the html target needs no mjml at render time: mjml's parser, validator and
 * component machinery made a cold render of the binary several times Node's start-up
 * (engine/README.md). Not supported, because our MJML never has them: mj-include, mj-class,
 * inline mj-style, mj-html-attributes, mjml's minifier and beautifier. Unknown tags are an error.
 */
import type { AppliedNode, Attributes, BodyContext, ComponentRegistry, GlobalData, MjmlNode } from "./component.js";
import { createComponent } from "./component.js";
import { MjBody, MjRaw } from "./components/body.js";
import { MjButton } from "./components/button.js";
import { MjColumn } from "./components/column.js";
import { MjDivider } from "./components/divider.js";
import { MjGroup } from "./components/group.js";
import { MjImage } from "./components/image.js";
import { MjNavbar, MjNavbarLink } from "./components/navbar.js";
import { MjSection, MjWrapper } from "./components/section.js";
import { MjSocial, MjSocialElement } from "./components/social.js";
import { MjSpacer } from "./components/spacer.js";
import { MjText } from "./components/text.js";
import { BodyWriter, type CompileHost, documentParts } from "./document.js";
import { KnownNames, MjmlSyntaxError, parseMjml } from "./parse.js";

export type { CompileHost } from "./document.js";

const BODY_COMPONENTS: ComponentRegistry = Object.fromEntries(
  [
    MjBody,
    MjRaw,
    MjWrapper,
    MjSection,
    MjColumn,
    MjGroup,
    MjText,
    MjImage,
    MjButton,
    MjDivider,
    MjSpacer,
    MjNavbar,
    MjNavbarLink,
    MjSocial,
    MjSocialElement,
  ].map((c) => [c.componentName, c]),
);

/** The attributes mjml gives a body component that does not set them (before `mj-attributes`), by tag. */
export function defaultAttributesOf(tagName: string): Readonly<Attributes> | undefined {
  return BODY_COMPONENTS[tagName]?.defaultAttributes;
}

/** Head elements whose inner markup is content, not children (their mjml classes' `endingTag`). */
const HEAD_ENDING_TAGS = ["mj-title", "mj-preview", "mj-breakpoint", "mj-style"];
const ENDING_TAGS: ReadonlySet<string> = new Set([
  ...HEAD_ENDING_TAGS,
  ...Object.values(BODY_COMPONENTS)
    .filter((c) => c.endingTag)
    .map((c) => c.componentName),
]);

/**
 * The tags and attributes the reader hands out without slicing them from the document (KnownNames),
 * made on the first read: where the runtime reads MJML natively (the release build), never.
 */
let knownNames: KnownNames | undefined;

function knownNamesOf(): KnownNames {
  knownNames ??= new KnownNames([
    "mjml",
    "lang",
    "dir",
    "owa",
    "mj-head",
    ...HEAD_ENDING_TAGS,
    "mj-attributes",
    "mj-all",
    "mj-font",
    "name",
    "href",
    "width",
    "css-class",
    ...Object.values(BODY_COMPONENTS).flatMap((c) => [c.componentName, ...Object.keys(c.allowedAttributes)]),
  ]);
  return knownNames;
}

function unsupported(what: string): never {
  throw new MjmlSyntaxError(`${what} is not supported by the html target's MJML compiler`);
}

/** mj-head's children write into the document's global data (each mjml head component's handler). */
function readHead(head: MjmlNode | undefined, globalData: GlobalData): void {
  for (const child of head?.children ?? []) {
    const content = child.content.trim();
    switch (child.tagName) {
      case "mj-title":
        globalData.title = content;
        break;
      case "mj-preview":
        globalData.preview = content;
        break;
      case "mj-breakpoint":
        globalData.breakpoint = String(child.attributes["width"]);
        break;
      case "mj-font":
        globalData.fonts[String(child.attributes["name"])] = String(child.attributes["href"]);
        break;
      case "mj-style":
        if (child.attributes["inline"] === "inline") unsupported("<mj-style inline>");
        globalData.style.push(content);
        break;
      case "mj-attributes":
        for (const { tagName, attributes } of child.children) {
          if (tagName === "mj-class") unsupported("<mj-class>");
          globalData.defaultAttributes[tagName] = { ...globalData.defaultAttributes[tagName], ...attributes };
        }
        break;
      case "mj-raw":
        globalData.headRaw.push(content);
        continue;
      default:
        unsupported(`<${child.tagName}> in <mj-head>`);
    }
    globalData.headRaw.push(null);
  }
}

/** ENDING_TAGS as the host's reader takes them (CompileHost.parseMjml). */
export const ENDING_TAG_LIST = [...ENDING_TAGS].map((name) => `${name} `).join("");

/** Containers write their children's attributes into their own conditional comments. */
const CONTAINERS: ReadonlySet<string> = new Set(["mj-body", "mj-wrapper", "mj-section", "mj-group", "mj-column"]);

/** Whether some value may hold conditional comment syntax: both `<!--[if` and `<![endif]-->` start with `<!`. */
function holdsCommentSyntax(values: Readonly<Attributes>): boolean {
  for (const name in values) {
    const value = values[name];
    if (typeof value === "string" && value.includes("<!")) return true;
  }
  return false;
}

/** Where comment syntax may be in a document: whether it holds `<!` at all, and whether an attribute value may. */
interface SyntaxSearch {
  readonly inContent: boolean;
  readonly inAttributes: boolean;
  /** Set when a container's attributes may hold it (see BodyWriter's scanAll). */
  inContainer: boolean;
}

/**
 * Whether some attribute value of `mjml` may hold `<!`. The reader takes double-quoted values only
 * (parse.ts), which hold no `"`: so the last `"` before a `<!` within a value is that value's
 * opening quote, with `=` before it (white space between allowed). A `<!` elsewhere (a raw's
 * content, a comment) may answer yes too, which only leaves the search to each node's attributes.
 */
function attributesMayHoldSyntax(mjml: string): boolean {
  for (let at = mjml.indexOf("<!"); at !== -1; at = mjml.indexOf("<!", at + 2)) {
    let before = mjml.lastIndexOf('"', at) - 1;
    while (before >= 0 && WHITE_SPACE.test(mjml.charAt(before))) before--;
    if (before >= 0 && mjml.charCodeAt(before) === EQUALS) return true;
  }
  return false;
}

const WHITE_SPACE = /\s/;
const EQUALS = 0x3d;

/**
 * mjml-core's applyAttributes without mj-class: per-tag defaults under the node's own attributes.
 * Nothing writes to a node's attributes after this, so a node without per-tag defaults keeps its
 * own object, and every node shares the one mj-all object (mjml copies both for each node). Comment
 * syntax is looked for where `search` says it may be.
 */
function applyAttributes(node: MjmlNode, defaults: Readonly<Record<string, Attributes>>, all: Attributes, search: SyntaxSearch): AppliedNode {
  if (node.tagName !== "mj-raw" && !BODY_COMPONENTS[node.tagName]) unsupported(`<${node.tagName}>`);
  if ("mj-class" in node.attributes) unsupported("mj-class");
  const tagDefaults = defaults[node.tagName];
  const attributes = tagDefaults === undefined ? node.attributes : Object.assign({}, tagDefaults, node.attributes);
  const commentSyntax = (search.inContent && node.content.includes("<!")) || (search.inAttributes && holdsCommentSyntax(attributes));
  if (commentSyntax && CONTAINERS.has(node.tagName)) search.inContainer = true;
  // An index loop: in QuickJS, map makes a closure per node and a call per child.
  const children: AppliedNode[] = [];
  for (let i = 0; i < node.children.length; i++) children.push(applyAttributes(node.children[i] as MjmlNode, defaults, all, search));
  return {
    tagName: node.tagName,
    attributes,
    globalAttributes: all,
    children,
    content: node.content,
    commentSyntax,
  };
}

export function compileMjmlToHtml(mjml: string, host: CompileHost = {}): string {
  return compileMjmlToHtmlParts(mjml, host).join("");
}

/**
 * compileMjmlToHtml's document as pieces whose concatenation is the document, for a caller that
 * reads the document once and need not have it as one string (the html target's clean-up in Node's
 * host, which writes it into WebAssembly's memory a part at a time).
 */
export function compileMjmlToHtmlParts(mjml: string, host: CompileHost = {}): string[] {
  const root = host.parseMjml?.(mjml, ENDING_TAG_LIST) ?? parseMjml(mjml, ENDING_TAGS, knownNamesOf());
  if (root.tagName !== "mjml") unsupported(`<${root.tagName}> as the root element`);
  const body = root.children.find((c) => c.tagName === "mj-body");
  if (!body) unsupported("a document without <mj-body>");
  for (const child of root.children)
    if (child.tagName !== "mj-head" && child.tagName !== "mj-body") unsupported(`<${child.tagName}> outside <mj-head> and <mj-body>`);
  const globalData: GlobalData = {
    breakpoint: "480px",
    defaultAttributes: {},
    fonts: {},
    headStyle: {},
    componentsHeadStyle: [],
    headRaw: [],
    mediaQueries: {},
    preview: "",
    style: [],
    title: "",
    forceOWADesktop: root.attributes["owa"] === "desktop",
    lang: String(root.attributes["lang"] || "und"),
    dir: String(root.attributes["dir"] || "auto"),
  };
  readHead(
    root.children.find((c) => c.tagName === "mj-head"),
    globalData,
  );
  const context: BodyContext = {
    components: BODY_COMPONENTS,
    globalData,
    addMediaQuery(className, { parsedWidth, unit, padding }) {
      let rule = "{";
      if (parsedWidth != null && unit != null) rule += ` width:${parsedWidth}${unit} !important; max-width: ${parsedWidth}${unit};`;
      if (padding) rule += ` padding: ${padding} !important;`;
      rule += ` }`;
      globalData.mediaQueries[className] = rule;
    },
    addHeadStyle(identifier, style) {
      globalData.headStyle[identifier] = style;
    },
    addComponentHeadSyle(style) {
      globalData.componentsHeadStyle.push(style);
    },
  };
  // Shared by every node and only read; not frozen: in V8, freezing an object and enumerating a
  // frozen one (withGlobals' for…in, for each component class in each compile) cost many times more.
  const all: Readonly<Attributes> = { ...globalData.defaultAttributes["mj-all"] };
  const inContent = mjml.includes("<!");
  const inAttributes = inContent && attributesMayHoldSyntax(mjml);
  const search: SyntaxSearch = { inContent, inAttributes, inContainer: inAttributes && holdsCommentSyntax(all) };
  const component = createComponent(BODY_COMPONENTS, applyAttributes(body, globalData.defaultAttributes, all, search), context) as MjBody;
  // Where a container's attributes may hold comment syntax, its own conditionals are scanned too.
  const writer = new BodyWriter(search.inContainer, host);
  component.write(writer);
  return documentParts(writer, globalData);
}
