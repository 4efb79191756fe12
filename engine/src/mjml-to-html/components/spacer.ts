/** mj-spacer (mjml-spacer 5.4.1). */
import { BodyComponent, type StyleObject } from "../component.js";

export class MjSpacer extends BodyComponent {
  static override readonly componentName = "mj-spacer";
  static override readonly plainMarkup = true;
  static override readonly allowedAttributes = {
    border: "string",
    "border-bottom": "string",
    "border-left": "string",
    "border-right": "string",
    "border-top": "string",
    "container-background-color": "color",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    padding: "unit(px,%){1,4}",
    height: "unit(px,%)",
  };
  static override readonly defaultAttributes = { height: "20px" };

  override getStyles(): Record<string, StyleObject> {
    return {
      div: {
        height: this.getAttribute("height"),
        "line-height": this.getAttribute("height"),
      },
    };
  }

  render(): string {
    return `
      <div
        ${this.htmlAttributes({
          style: "div",
        })}
      >&#8202;</div>
    `;
  }
}
