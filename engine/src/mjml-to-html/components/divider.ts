/** mj-divider (mjml-divider 5.4.1). */
import { htmlAttribute, type StyleObject, WritingComponent } from "../component.js";
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

  override getStyles(): Record<string, StyleObject> {
    let computeAlign = "0px auto";
    if (this.getAttribute("align") === "left") {
      computeAlign = "0px";
    } else if (this.getAttribute("align") === "right") {
      computeAlign = "0px 0px 0px auto";
    }
    const borderTop = `${this.getAttribute("border-style")} ${this.getAttribute("border-width")} ${this.getAttribute("border-color")}`;
    const width = this.getAttribute("width");
    // mjml's outlook is `{ ...p, width }`: written as a second literal, not a copy (QuickJS enumerates to copy)
    const p: StyleObject = { "border-top": borderTop, "font-size": "1px", margin: computeAlign, width };
    const outlook: StyleObject = { "border-top": borderTop, "font-size": "1px", margin: computeAlign, width: this.getOutlookWidth() };
    return { p, outlook };
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
    output.space(`
      `);
    output.conditional(`
        <table
          ${htmlAttribute("align", this.getAttribute("align"))} border="0" cellpadding="0" cellspacing="0"${this.styleAttribute("outlook")} role="presentation"${htmlAttribute("width", this.getOutlookWidth())}
        >
          <tr>
            <td style="height:0;line-height:0;">
              &nbsp;
            </td>
          </tr>
        </table>
      `);
    output.space(`
    `);
  }

  override write(output: HtmlOutput): void {
    const out = this.outputFor(output);
    out.text(`
      <p
        ${this.styleAttribute("p")}
      >
      </p>
      `);
    this.writeAfter(out);
    out.space(`
    `);
  }
}
