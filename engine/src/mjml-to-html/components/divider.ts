/** mj-divider (mjml-divider 5.4.1). */
import { declaration, htmlAttribute, WritingComponent } from "../component.js";
import { widthParser } from "../helpers.js";
import type { HtmlOutput } from "../html-output.js";

export class MjDivider extends WritingComponent {
  static override readonly componentName = "mj-divider";
  static override readonly allowedAttributes = {
    "border-color": "color",
    "border-style": "string",
    "border-width": "unit(px)",
    "container-background-color": "color",
    padding: "unit(px,%){1,4}",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    width: "unit(px,%)",
    align: "enum(left,center,right)",
  };
  static override readonly defaultAttributes = {
    "border-color": "#000000",
    "border-style": "solid",
    "border-width": "4px",
    padding: "10px 25px",
    width: "100%",
    align: "center",
  };

  /**
   * mjml's p style, and with the Outlook width its outlook style (`{ ...p, width }`), written as
   * declarations (each is written once, and QuickJS builds and enumerates an object a key at a time):
   *   p: { 'border-top': border-style border-width border-color, 'font-size': '1px', margin: computeAlign, width }
   */
  private pStyle(width: string | undefined): string {
    let computeAlign = "0px auto";
    if (this.getAttribute("align") === "left") {
      computeAlign = "0px";
    } else if (this.getAttribute("align") === "right") {
      computeAlign = "0px 0px 0px auto";
    }
    const borderTop = `${this.getAttribute("border-style")} ${this.getAttribute("border-width")} ${this.getAttribute("border-color")}`;
    return `border-top:${borderTop};font-size:1px;margin:${computeAlign};${declaration("width", width)}`;
  }

  getOutlookWidth(): string | undefined {
    const { containerWidth } = this.context;
    const paddingSize = this.getShorthandAttrValue("padding", "left") + this.getShorthandAttrValue("padding", "right");
    const width = this.getAttribute("width");
    // `width` has a default, so it is always set.
    const { parsedWidth, unit } = widthParser(width as string);
    switch (unit) {
      case "%": {
        const effectiveWidth = parseInt(containerWidth ?? "", 10) - paddingSize;
        const percentMultiplier = parseInt(String(parsedWidth), 10) / 100;
        return `${effectiveWidth * percentMultiplier}px`;
      }
      case "px":
        return width;
      default:
        return `${parseInt(containerWidth ?? "", 10) - paddingSize}px`;
    }
  }

  writeAfter(output: HtmlOutput): void {
    const outlookWidth = this.getOutlookWidth();
    output.space(`
      `);
    const attributes = `${htmlAttribute("align", this.getAttribute("align"))} border="0" cellpadding="0" cellspacing="0" style="${this.pStyle(outlookWidth)}" role="presentation"${htmlAttribute("width", outlookWidth)}`;
    output.conditional(
      `
        <table
          `,
      attributes,
      `
        >
          <tr>
            <td style="height:0;line-height:0;">
              &nbsp;
            </td>
          </tr>
        </table>
      `,
    );
    output.space(`
    `);
  }

  override write(output: HtmlOutput): void {
    const out = this.outputFor(output);
    out.text(`
      <p
         style="${this.pStyle(this.getAttribute("width"))}"
      >
      </p>
      `);
    this.writeAfter(out);
    out.space(`
    `);
  }
}
