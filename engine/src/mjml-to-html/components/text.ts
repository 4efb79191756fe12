/** mj-text (mjml-text 5.4.1). */
import { type AttributeStyle, BodyComponent } from "../component.js";
import { type HtmlOutput, writeBetweenConditionalTags } from "../html-output.js";

/**
 * mjml's text style (of its styles): each CSS property with the attribute that holds its value,
 * in mjml's order; written as declarations, with no style object built and enumerated.
 */
const TEXT_STYLE: AttributeStyle = [
  ["font-family", "font-family"],
  ["font-size", "font-size"],
  ["font-style", "font-style"],
  ["font-weight", "font-weight"],
  ["letter-spacing", "letter-spacing"],
  ["line-height", "line-height"],
  ["text-align", "align"],
  ["text-decoration", "text-decoration"],
  ["text-transform", "text-transform"],
  ["color", "color"],
  ["height", "height"],
];

export class MjText extends BodyComponent {
  static override readonly componentName = "mj-text";
  static override readonly plainMarkup = true;
  static override readonly endingTag = true;
  static override readonly allowedAttributes = {
    align: "enum(left,right,center,justify)",
    "background-color": "color",
    color: "color",
    "container-background-color": "color",
    "font-family": "string",
    "font-size": "unit(px)",
    "font-style": "string",
    "font-weight": "string",
    height: "unit(px,%)",
    "letter-spacing": "unitWithNegative(px,em)",
    "line-height": "unit(px,%,)",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    padding: "unit(px,%){1,4}",
    "text-decoration": "string",
    "text-transform": "string",
    "vertical-align": "enum(top,bottom,middle)",
  };
  static override readonly defaultAttributes = {
    align: "left",
    color: "#000000",
    "font-family": "Ubuntu, Helvetica, Arial, sans-serif",
    "font-size": "13px",
    "line-height": "1",
    padding: "10px 25px",
  };

  renderContent(): string {
    return `
      <div
         style="${this.attributeDeclarations(TEXT_STYLE)}"
      >${this.getContent()}</div>
    `;
  }

  render(): string {
    return this.getAttribute("height") ? this.renderByWriting() : this.renderContent();
  }

  /** mjml wraps a text with a height in an Outlook table (conditionalTag around each half). */
  override write(output: HtmlOutput): void {
    const height = this.getAttribute("height");
    if (!height) {
      super.write(output);
      return;
    }
    const out = this.outputFor(output);
    const attributes = ` height="${height}" style="vertical-align:top;height:${height};"`;
    writeBetweenConditionalTags(
      out,
      () =>
        out.conditional(
          `
    
          <table role="presentation" border="0" cellpadding="0" cellspacing="0"><tr><td`,
          attributes,
          `>
        
    `,
        ),
      () => out.text(this.renderContent()),
      `
    
          </td></tr></table>
        
    `,
    );
  }
}
