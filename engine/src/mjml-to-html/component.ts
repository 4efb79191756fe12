/**
 * The component model of mjml-core 5.4.1 (`createComponent.js`), ported for the components our MJML
 * uses. Kept close to the original on purpose: the html target must be byte-identical to what mjml
 * itself makes of our MJML (test/mjml-to-html.test.ts checks it against mjml), and the closer the
 * port, the easier it is to follow an mjml release. mjml is MIT-licensed; see ./LICENSE.
 */

import { borderParser, shorthandParser } from "./helpers.js";
import { type HtmlOutput, ScannedOutput, StringOutput } from "./html-output.js";

/**
 * An attribute value as mjml's parser leaves it: a string, except that "true" and "false" become
 * booleans. Components read attributes as strings (`getAttribute`); every read either interpolates
 * the value or tests it for truth, which behaves for a boolean exactly as it does in mjml.
 */
export type AttributeValue = string | boolean;
export type Attributes = Record<string, AttributeValue>;

/** One element of the MJML document after parsing. `content` is the raw inner text of an ending tag. */
export interface MjmlNode {
  readonly tagName: string;
  readonly attributes: Attributes;
  readonly children: readonly MjmlNode[];
  readonly content: string;
}

/** A node with the document's default attributes applied (mjml-core's `applyAttributes`). */
export interface AppliedNode extends MjmlNode {
  readonly children: readonly AppliedNode[];
  /** `mj-attributes > mj-all`: the weakest attributes but for the component's own defaults. */
  readonly globalAttributes: Attributes;
  /** Whether its content or an attribute value may hold conditional comment syntax (holds `<!`). */
  readonly commentSyntax: boolean;
}

/** A style block function of a component, called with the document's breakpoint. */
export type HeadStyle = (breakpoint: string) => string;

/** What mjml-core keeps about the document while rendering it (its `globalData`). */
export interface GlobalData {
  breakpoint: string;
  defaultAttributes: Record<string, Attributes>;
  fonts: Record<string, string>;
  headStyle: Record<string, HeadStyle>;
  componentsHeadStyle: HeadStyle[];
  headRaw: (string | null)[];
  mediaQueries: Record<string, string>;
  preview: string;
  style: string[];
  title: string;
  readonly forceOWADesktop: boolean;
  readonly lang: string;
  readonly dir: string;
}

export type CssValue = string | number | boolean | null | undefined;
export type StyleObject = Record<string, CssValue>;
export type HtmlAttributeValue = CssValue | StyleObject;
/** A style of attributes: each CSS property with the name of the attribute that holds its value, in order. */
export type AttributeStyle = readonly (readonly [property: string, attribute: string])[];
/** The border attributes in the order mjml-button's td and mjml-column's table list them. */
export const BORDER_STYLE: AttributeStyle = [
  ["border", "border"],
  ["border-bottom", "border-bottom"],
  ["border-left", "border-left"],
  ["border-radius", "border-radius"],
  ["border-right", "border-right"],
  ["border-top", "border-top"],
];

/** `property:value;` as styles() writes it: nothing for a value null or undefined. */
export function declaration(property: string, value: CssValue): string {
  return value === null || value === undefined ? "" : `${property}:${value};`;
}

/** The context a body component renders in; containers extend it for their children. */
export interface BodyContext {
  readonly components: ComponentRegistry;
  readonly globalData: GlobalData;
  readonly addMediaQuery: (className: string, rule: { parsedWidth?: number | undefined; unit?: string | undefined; padding?: string | undefined }) => void;
  readonly addHeadStyle: (identifier: string, style: HeadStyle) => void;
  readonly addComponentHeadSyle: (style: HeadStyle) => void;
  readonly containerWidth?: string | undefined;
  readonly gap?: AttributeValue | undefined;
  readonly gutter?: AttributeValue | undefined;
  readonly direction?: AttributeValue | undefined;
  readonly isInGroup?: boolean | undefined;
  readonly nonRawSiblings?: number | undefined;
}

/** What a container sets in its children's context. */
type ContextChanges = Partial<Pick<BodyContext, "containerWidth" | "gap" | "gutter" | "direction" | "isInGroup" | "nonRawSiblings">>;

/**
 * A container's context for its children: its own with `changes` (mjml's `{ ...context, … }`; a key
 * given as undefined is set to undefined). Every key written in one literal rather than spread: V8
 * builds a spread several times slower, and every context then has one shape.
 */
export function childContext(context: BodyContext, changes: ContextChanges): BodyContext {
  return {
    components: context.components,
    globalData: context.globalData,
    addMediaQuery: context.addMediaQuery,
    addHeadStyle: context.addHeadStyle,
    addComponentHeadSyle: context.addComponentHeadSyle,
    containerWidth: "containerWidth" in changes ? changes.containerWidth : context.containerWidth,
    gap: "gap" in changes ? changes.gap : context.gap,
    gutter: "gutter" in changes ? changes.gutter : context.gutter,
    direction: "direction" in changes ? changes.direction : context.direction,
    isInGroup: "isInGroup" in changes ? changes.isInGroup : context.isInGroup,
    nonRawSiblings: "nonRawSiblings" in changes ? changes.nonRawSiblings : context.nonRawSiblings,
  };
}

/** Where a component stands among its siblings (mjml's `props` from `renderChildren`); none for mj-body. */
export interface SiblingProps {
  readonly first: boolean;
  readonly index: number;
  readonly last: boolean;
  readonly sibling: number;
  readonly nonRawSiblings: number;
}

export interface ComponentProps {
  readonly children: readonly AppliedNode[];
  readonly content: string;
  readonly first: boolean | undefined;
  readonly index: number | undefined;
  readonly last: boolean | undefined;
  readonly sibling: number | undefined;
  readonly nonRawSiblings: number | undefined;
}

export interface BodyComponentClass {
  /** `attributes`: what a parent gives all its children (weaker than the child's own). */
  new (node: AppliedNode, context: BodyContext, props: ComponentProps | undefined, attributes: Attributes | undefined): BodyComponent;
  readonly componentName: string;
  readonly allowedAttributes: Readonly<Record<string, string>>;
  readonly defaultAttributes: Readonly<Attributes>;
  /** mj-raw: rendered without the wrapping a container gives its other children. */
  readonly rawElement: boolean;
  /** Ending tags keep their inner markup as `content` instead of parsing it into children. */
  readonly endingTag: boolean;
  /** render() never writes conditional comment syntax of its own: its markup is written as plain text. */
  readonly plainMarkup: boolean;
}

/**
 * What htmlAttributes writes of `{ border: "0", cellpadding: "0", cellspacing: "0", role: "presentation" }`,
 * the first attributes of most tables, written as it is: in QuickJS an object literal and its
 * enumeration cost ~1,000 instructions a key.
 */
export const PRESENTATION_TABLE = ` border="0" cellpadding="0" cellspacing="0" role="presentation"`;

/**
 * htmlAttributes of one attribute: ` name="value"`, nothing for null or undefined. Where an element's
 * attributes are few and known, written one by one without an object literal to build and enumerate.
 */
export function htmlAttribute(name: string, value: CssValue): string {
  return value === null || value === undefined ? "" : ` ${name}="${value}"`;
}

export type ComponentRegistry = Readonly<Record<string, BodyComponentClass>>;

type Side = "top" | "right" | "bottom" | "left";

function sideNamesOf(attribute: string): Readonly<Record<Side, string>> {
  return { top: `${attribute}-top`, right: `${attribute}-right`, bottom: `${attribute}-bottom`, left: `${attribute}-left` };
}

/**
 * The side attributes of the shorthands measured for every box, named once: a name made for each
 * read is a new string, hashed again for the Map.
 */
const SIDE_NAMES: Readonly<Record<string, Readonly<Record<Side, string>>>> = {
  padding: sideNamesOf("padding"),
  "inner-padding": sideNamesOf("inner-padding"),
  border: sideNamesOf("border"),
  "inner-border": sideNamesOf("inner-border"),
};

/** `${attribute}-${side}`. */
function sideName(attribute: string, side: Side): string {
  return SIDE_NAMES[attribute]?.[side] ?? `${attribute}-${side}`;
}

const SHORTHAND_HEX = /^#\w{3}$/;

/**
 * What a constructor reads of its component class, made once per class: the names of its attributes
 * of a `color` type, and its default attributes as arrays (in QuickJS a for-in makes an enumeration
 * object and each name read is an atom lookup; this runs per element).
 */
interface ClassAttributes {
  readonly colorNames: readonly string[];
  readonly defaultNames: readonly string[];
  readonly defaultValues: readonly AttributeValue[];
  /**
   * The default attributes with a document's `mj-all` ones over them (`names`, `values`), for the
   * `globals` they were made with: one object per compile, so made once a class a compile instead
   * of a `for…in` over it for every component.
   */
  globals: Readonly<Attributes> | undefined;
  names: readonly string[];
  values: readonly AttributeValue[];
}

const classAttributes = new Map<BodyComponentClass, ClassAttributes>();

function classAttributesOf(type: BodyComponentClass): ClassAttributes {
  let known = classAttributes.get(type);
  if (known === undefined) {
    const defaultNames = Object.keys(type.defaultAttributes);
    const defaultValues = defaultNames.map((name) => type.defaultAttributes[name] as AttributeValue);
    known = {
      colorNames: Object.keys(type.allowedAttributes).filter((name) => type.allowedAttributes[name]?.startsWith("color")),
      defaultNames,
      defaultValues,
      globals: undefined,
      names: defaultNames,
      values: defaultValues,
    };
    classAttributes.set(type, known);
  }
  return known;
}

/** `known`'s default attributes with `globals` over them (`ClassAttributes.names` and `values`). */
function withGlobals(known: ClassAttributes, globals: Readonly<Attributes>): ClassAttributes {
  const names = [...known.defaultNames];
  const values = [...known.defaultValues];
  for (const name in globals) {
    const at = names.indexOf(name);
    if (at === -1) {
      names.push(name);
      values.push(globals[name] as AttributeValue);
    } else values[at] = globals[name] as AttributeValue;
  }
  known.globals = globals;
  known.names = names;
  known.values = values;
  return known;
}

/**
 * mjml-core's formatAttributes over the merged attributes: only the `color` type changes a value
 * (#abc → #aabbcc), so only the component's colour attributes are looked at.
 */
function formatAttributes(attributes: Map<string, AttributeValue>, names: readonly string[]): Map<string, AttributeValue> {
  for (let i = 0; i < names.length; i++) {
    const value = attributes.get(names[i] as string);
    // only a 4-character value can be #abc: a regular expression call costs QuickJS ~1,000 instructions
    if (typeof value === "string" && value.length === 4 && SHORTHAND_HEX.test(value)) {
      attributes.set(names[i] as string, value.replace(/^#(\w)(\w)(\w)$/, "#$1$1$2$2$3$3"));
    }
  }
  return attributes;
}

function setAll(target: Map<string, AttributeValue>, source: Readonly<Attributes> | undefined): void {
  for (const name in source) target.set(name, source[name] as AttributeValue);
}

export abstract class BodyComponent {
  static readonly componentName: string = "";
  static readonly allowedAttributes: Readonly<Record<string, string>> = {};
  static readonly defaultAttributes: Readonly<Attributes> = {};
  static readonly rawElement: boolean = false;
  static readonly endingTag: boolean = false;
  static readonly plainMarkup: boolean = false;

  // `declare`: set by the constructor or a subclass, never defined empty first (class-field
  // definitions were a tenth of a compile, with one component per MJML element).
  declare readonly props: ComponentProps;
  declare readonly attributes: ReadonlyMap<string, AttributeValue>;
  declare readonly context: BodyContext;

  /** A `headStyle` is registered once per component name; a `componentHeadStyle` once per instance. */
  declare headStyle?: HeadStyle;
  declare componentHeadStyle?: HeadStyle;

  /** See AppliedNode. */
  declare readonly commentSyntax: boolean;

  /** `props`: a child's, made by its parent with its node's children and content; none for mj-body. */
  constructor(node: AppliedNode, context: BodyContext, props: ComponentProps | undefined, attributes: Attributes | undefined) {
    const type = this.constructor as BodyComponentClass;
    this.commentSyntax = node.commentSyntax;
    this.props = props ?? {
      children: node.children,
      content: node.content,
      first: undefined,
      index: undefined,
      last: undefined,
      sibling: undefined,
      nonRawSiblings: undefined,
    };
    let known = classAttributesOf(type);
    if (known.globals !== node.globalAttributes) known = withGlobals(known, node.globalAttributes);
    const { names, values } = known;
    const merged = new Map<string, AttributeValue>();
    for (let i = 0; i < names.length; i++) merged.set(names[i] as string, values[i] as AttributeValue);
    // most components are given none by their parent: no `for…in` over nothing
    if (attributes !== undefined) setAll(merged, attributes);
    setAll(merged, node.attributes);
    this.attributes = formatAttributes(merged, known.colorNames);
    this.context = context;
  }

  abstract render(): string;

  /**
   * Writes render()'s markup into `output` (BodyWriter: the body in document order). As plain text
   * when the component writes no conditional comment of its own (`plainMarkup`) and its node's text
   * holds no comment syntax; a WritingComponent writes its own conditionals and children in order.
   */
  write(output: HtmlOutput): void {
    const html = this.render();
    if ((this.constructor as BodyComponentClass).plainMarkup && !this.commentSyntax) output.text(html);
    else output.scan(html);
  }

  /** `output`, or where this component's values may hold comment syntax, all of it scanned. */
  protected outputFor(output: HtmlOutput): HtmlOutput {
    return this.commentSyntax ? new ScannedOutput(output) : output;
  }

  /** render() for a component that overrides write(): what it writes, gathered. */
  protected renderByWriting(): string {
    const output = new StringOutput();
    this.write(output);
    return output.html;
  }

  getChildContext(): BodyContext {
    return this.context;
  }

  /** See AttributeValue: a boolean value reads as mjml reads it. */
  getAttribute(name: string): string | undefined {
    return this.attributes.get(name) as string | undefined;
  }

  getContent(): string {
    return this.props.content.trim();
  }

  getStyles(): Record<string, StyleObject> {
    return {};
  }

  declare private computedStyles?: Record<string, StyleObject>;

  /**
   * getStyles() once per component: mjml recomputes every style of a component for each one it
   * names, which is most of the html compile in a cold process. getStyles() is a pure function of
   * the component's attributes, props and context, which do not change after construction.
   */
  private namedStyles(): Record<string, StyleObject> {
    this.computedStyles ??= this.getStyles();
    return this.computedStyles;
  }

  getShorthandAttrValue(attribute: string, direction: Side): number {
    // the Map read without `getAttribute` calls here and below: these run for every box measured
    const mjAttributeDirection = this.attributes.get(sideName(attribute, direction)) as string | undefined;
    const mjAttribute = this.attributes.get(attribute) as string | undefined;
    if (mjAttributeDirection) return parseInt(mjAttributeDirection, 10);
    if (!mjAttribute) return 0;
    return shorthandParser(mjAttribute, direction);
  }

  getShorthandBorderValue(direction: Side | undefined, attribute = "border"): number {
    const borderDirection = direction && (this.attributes.get(sideName(attribute, direction)) as string | undefined);
    const border = this.attributes.get(attribute) as string | undefined;
    return borderParser(borderDirection || border || "0");
  }

  getBoxWidths(): { totalWidth: number; borders: number; paddings: number; box: number } {
    const parsedWidth = parseInt(this.context.containerWidth ?? "", 10);
    const paddings = this.getShorthandAttrValue("padding", "right") + this.getShorthandAttrValue("padding", "left");
    const borders = this.getShorthandBorderValue("right") + this.getShorthandBorderValue("left");
    return { totalWidth: parsedWidth, borders, paddings, box: parsedWidth - paddings - borders };
  }

  /** What styles() writes of mjml's literal for `style`: the declarations of the attributes set, in order, without an object between. */
  attributeDeclarations(style: AttributeStyle): string {
    let output = "";
    for (let i = 0; i < style.length; i++) {
      const entry = style[i] as readonly [string, string];
      // `getAttribute` without the call (one for each pair of every style written: QuickJS calls are costly)
      const value = this.attributes.get(entry[1]);
      if (value !== undefined) output += `${entry[0]}:${value};`;
    }
    return output;
  }

  /** `htmlAttributes({ style })` of a getStyles() entry: the attribute written without an object to enumerate. */
  styleAttribute(style: string): string {
    return ` style="${this.styleDeclarations(style)}"`;
  }

  /** What styles() writes of the getStyles() entry `name`; a component may write it without building the object. */
  styleDeclarations(name: string): string {
    return this.styles(name);
  }

  /** ` name="value"` for every attribute not null or undefined; `style` names a getStyles() entry or is an object. */
  htmlAttributes(attributes: Readonly<Record<string, HtmlAttributeValue>>): string {
    let output = "";
    for (const name in attributes) {
      const value = attributes[name];
      if (value === null || value === undefined) continue;
      // a value interpolated, not String(value): in QuickJS a call to String is a global lookup and a call
      output += ` ${name}="${name === "style" ? this.styles(value as string | StyleObject) : (value as string | number | boolean)}"`;
    }
    return output;
  }

  styles(styles: string | StyleObject | undefined): string {
    const object = typeof styles === "string" ? this.namedStyles()[styles] : styles;
    if (!object) return "";
    let output = "";
    for (const name in object) {
      const value = object[name];
      if (value !== null && value !== undefined) output += `${name}:${value};`;
    }
    return output;
  }

  /**
   * Renders child nodes with their sibling positions; `renderer` wraps each one (containers put
   * non-raw children in table cells). Unknown tags render nothing, as in mjml.
   */
  renderChildren(
    children: readonly AppliedNode[] = this.props.children,
    options: { renderer?: (component: BodyComponent) => string; attributes?: Attributes } = {},
  ): string {
    const { renderer } = options;
    let output = "";
    this.eachChild(children, options.attributes, (component) => {
      output += renderer ? renderer(component) : component.render();
    });
    return output;
  }

  /** renderChildren into `output`: `wrap` writes each non-raw child (and the child itself). */
  writeChildren(output: HtmlOutput, wrap?: (component: BodyComponent) => void, attributes?: Attributes): void {
    this.eachChild(this.props.children, attributes, (component) => {
      if (wrap && !(component.constructor as BodyComponentClass).rawElement) wrap(component);
      else component.write(output);
    });
  }

  /** Each child's component, in order, with its sibling position. */
  private eachChild(children: readonly AppliedNode[], attributes: Attributes | undefined, each: (component: BodyComponent) => void): void {
    const { components } = this.context;
    const sibling = children.length;
    let nonRawSiblings = 0;
    for (let index = 0; index < sibling; index++) if (!components[(children[index] as AppliedNode).tagName]?.rawElement) nonRawSiblings++;
    // mjml asks for the child context once per child; it is a pure function of this component.
    const context = this.getChildContext();
    for (let index = 0; index < sibling; index++) {
      const child = children[index] as AppliedNode;
      // the child's props whole, not its sibling position for its constructor to copy: one object fewer per element
      const props: ComponentProps = {
        children: child.children,
        content: child.content,
        first: index === 0,
        index,
        last: index + 1 === sibling,
        sibling,
        nonRawSiblings,
      };
      const component = createComponent(components, child, context, props, attributes);
      if (component !== null) each(component);
    }
  }
}

/**
 * A component that writes its markup in pieces (write(): its own conditional comments, its children in
 * order); render() gathers what it writes.
 */
export abstract class WritingComponent extends BodyComponent {
  abstract override write(output: HtmlOutput): void;

  render(): string {
    return this.renderByWriting();
  }
}

/** mjml-core's initComponent for body components: construct, then register the head styles. */
export function createComponent(
  components: ComponentRegistry,
  node: AppliedNode,
  context: BodyContext,
  props?: ComponentProps,
  attributes?: Attributes,
): BodyComponent | null {
  const Component = components[node.tagName];
  if (!Component) return null;
  const component = new Component(node, context, props, attributes);
  if (component.headStyle) context.addHeadStyle(node.tagName, component.headStyle);
  if (component.componentHeadStyle) context.addComponentHeadSyle(component.componentHeadStyle);
  return component;
}
