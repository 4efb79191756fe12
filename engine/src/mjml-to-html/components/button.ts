/** mj-button (mjml-button 5.4.1). */
import { type AttributeStyle, BORDER_STYLE, BodyComponent, declaration, htmlAttribute, PRESENTATION_TABLE } from "../component.js";
import { widthParser } from "../helpers.js";

/**
 * mjml's styles, in its order, with only the attributes set and the constants between them (its
 * literals hold every key, most undefined; QuickJS builds and enumerates a key at a time).
 */
const TABLE_WIDTH: AttributeStyle = [["width", "width"]];
const TD_AFTER_CURSOR: AttributeStyle = [
  ["font-style", "font-style"],
  ["height", "height"],
  ["mso-padding-alt", "inner-padding"],
  ["text-align", "text-align"],
  ["background", "background-color"],
];
const CONTENT_BEFORE_MARGIN: AttributeStyle = [
  ["background", "background-color"],
  ["color", "color"],
  ["font-family", "font-family"],
  ["font-size", "font-size"],
  ["font-style", "font-style"],
  ["font-weight", "font-weight"],
  ["line-height", "line-height"],
  ["letter-spacing", "letter-spacing"],
];
const CONTENT_AFTER_MARGIN: AttributeStyle = [
  ["text-decoration", "text-decoration"],
  ["text-transform", "text-transform"],
  ["padding", "inner-padding"],
];
const CONTENT_RADIUS: AttributeStyle = [["border-radius", "border-radius"]];

export class MjButton extends BodyComponent {
  static override readonly componentName = "mj-button";
  static override readonly plainMarkup = true;
  static override readonly endingTag = true;
  static override readonly allowedAttributes = {
    align: "enum(left,center,right)",
    "background-color": "color",
    "border-bottom": "string",
    "border-left": "string",
    "border-radius": "string",
    "border-right": "string",
    "border-top": "string",
    border: "string",
    color: "color",
    "container-background-color": "color",
    "font-family": "string",
    "font-size": "unit(px)",
    "font-style": "string",
    "font-weight": "string",
    height: "unit(px,%)",
    href: "string",
    name: "string",
    title: "string",
    "inner-padding": "unit(px,%){1,4}",
    "letter-spacing": "unitWithNegative(px,em)",
    "line-height": "unit(px,%,)",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    padding: "unit(px,%){1,4}",
    rel: "string",
    target: "string",
    "text-decoration": "string",
    "text-transform": "string",
    "vertical-align": "enum(top,bottom,middle)",
    "text-align": "enum(left,right,center)",
    width: "unit(px,%)",
  };
  static override readonly defaultAttributes = {
    align: "center",
    "background-color": "#414141",
    border: "none",
    "border-radius": "3px",
    color: "#ffffff",
    "font-family": "Ubuntu, Helvetica, Arial, sans-serif",
    "font-size": "13px",
    "font-weight": "normal",
    "inner-padding": "10px 25px",
    "line-height": "120%",
    padding: "10px 25px",
    target: "_blank",
    "text-decoration": "none",
    "text-transform": "none",
    "vertical-align": "middle",
  };

  /** mjml's table, td and content styles written as declarations: each is written once. */
  override styleDeclarations(name: string): string {
    if (name === "table") return `border-collapse:separate;${this.attributeDeclarations(TABLE_WIDTH)}line-height:100%;`;
    if (name === "td") return `${this.attributeDeclarations(BORDER_STYLE)}cursor:auto;${this.attributeDeclarations(TD_AFTER_CURSOR)}`;
    if (name !== "content") return "";
    const width = declaration("width", this.calculateAWidth(this.getAttribute("width")));
    return `display:inline-block;${width}${this.attributeDeclarations(CONTENT_BEFORE_MARGIN)}margin:0;${this.attributeDeclarations(CONTENT_AFTER_MARGIN)}mso-padding-alt:0px;${this.attributeDeclarations(CONTENT_RADIUS)}`;
  }

  calculateAWidth(width: string | undefined): string | null {
    if (!width) return null;
    const { parsedWidth, unit } = widthParser(width);

    // impossible to handle percents because it depends on padding and text width
    if (unit !== "px") return null;
    const { borders } = this.getBoxWidths();
    const innerPaddings = this.getShorthandAttrValue("inner-padding", "left") + this.getShorthandAttrValue("inner-padding", "right");
    return `${parsedWidth - innerPaddings - borders}px`;
  }

  render(): string {
    const tag = this.getAttribute("href") ? "a" : "p";
    const backgroundColor = this.getAttribute("background-color");
    // mjml's htmlAttributes({ href, name, rel, title, style: "content", target })
    const link =
      htmlAttribute("href", this.getAttribute("href")) +
      htmlAttribute("name", this.getAttribute("name")) +
      htmlAttribute("rel", this.getAttribute("rel")) +
      htmlAttribute("title", this.getAttribute("title")) +
      this.styleAttribute("content") +
      htmlAttribute("target", tag === "a" ? this.getAttribute("target") : undefined);
    return `
      <table
        ${PRESENTATION_TABLE}${this.styleAttribute("table")}
      >
        <tbody>
          <tr>
            <td
               align="center"${htmlAttribute("bgcolor", backgroundColor === "none" ? undefined : backgroundColor)} role="presentation"${this.styleAttribute("td")}${htmlAttribute("valign", this.getAttribute("vertical-align"))}
            >
              <${tag}
                ${link}
              >
                ${this.getContent()}
              </${tag}>
            </td>
          </tr>
        </tbody>
      </table>
    `;
  }
}
