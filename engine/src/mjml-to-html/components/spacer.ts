/** mj-spacer (mjml-spacer 5.4.1). */
import { BodyComponent, declaration } from "../component.js";

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

  /**
   * mjml's div style, `{ height: height, 'line-height': height }`, written as declarations (QuickJS
   * builds and enumerates an object a key at a time).
   */
  private divStyle(): string {
    const height = this.getAttribute("height");
    return declaration("height", height) + declaration("line-height", height);
  }

  render(): string {
    return `
      <div
         style="${this.divStyle()}"
      >&#8202;</div>
    `;
  }
}
