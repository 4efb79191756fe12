/** mj-section (mjml-section 5.4.1) and mj-wrapper (mjml-wrapper 5.4.1), which is a section of sections. */
import {
  type AttributeStyle,
  type BodyComponent,
  type BodyContext,
  childContext,
  declaration,
  htmlAttribute,
  PRESENTATION_TABLE,
  type StyleObject,
  WritingComponent,
} from "../component.js";
import { suffixCssClasses } from "../helpers.js";
import type { HtmlOutput } from "../html-output.js";

/**
 * A child after the comment that opens its Outlook cell (the caller writes it), then the comment
 * that closes it, as mj-section and mj-wrapper write it.
 */
function writeInOutlookCell(output: HtmlOutput, component: BodyComponent, close: string, after: string): void {
  output.space(`
            `);
  component.write(output);
  output.space(`
          `);
  output.conditional(close);
  output.space(after);
}

/**
 * mjml's td style (of its styles), in its order: these attributes, font-size 0, then the others;
 * written as declarations, with no style object built and enumerated.
 */
const TD_BEFORE_FONT_SIZE: AttributeStyle = [
  ["border", "border"],
  ["border-bottom", "border-bottom"],
  ["border-left", "border-left"],
  ["border-right", "border-right"],
  ["border-top", "border-top"],
  ["border-radius", "border-radius"],
  ["direction", "direction"],
];
const TD_AFTER_FONT_SIZE: AttributeStyle = [
  ["padding", "padding"],
  ["padding-bottom", "padding-bottom"],
  ["padding-left", "padding-left"],
  ["padding-right", "padding-right"],
  ["padding-top", "padding-top"],
  ["text-align", "text-align"],
];

const isPercentage = (value: string) => /^\d+(\.\d+)?%$/.test(value);

export class MjSection extends WritingComponent {
  static override readonly componentName: string = "mj-section";
  static override readonly allowedAttributes: Readonly<Record<string, string>> = {
    "background-color": "color",
    "background-url": "string",
    "background-repeat": "enum(repeat,no-repeat)",
    "background-size": "string",
    "background-position": "string",
    "background-position-x": "string",
    "background-position-y": "string",
    border: "string",
    "border-bottom": "string",
    "border-left": "string",
    "border-radius": "string",
    "border-right": "string",
    "border-top": "string",
    direction: "enum(ltr,rtl)",
    "full-width": "enum(full-width,false,)",
    gutter: "unit(px,%)",
    padding: "unit(px,%){1,4}",
    "padding-top": "unit(px,%)",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "text-align": "enum(left,center,right)",
    "text-padding": "unit(px,%){1,4}",
  };
  static override readonly defaultAttributes = {
    "background-repeat": "repeat",
    "background-size": "auto",
    "background-position": "top center",
    direction: "ltr",
    padding: "20px 0",
    "text-align": "center",
    "text-padding": "4px 4px 4px 0",
  };

  override getChildContext(): BodyContext {
    const { box } = this.getBoxWidths();
    return childContext(this.context, {
      containerWidth: `${box}px`,
      gap: this.getAttribute("gap"),
      gutter: this.getAttribute("gutter"),
      direction: this.getAttribute("direction"),
    });
  }

  /**
   * mjml's div and table styles written as declarations (each is written once, and QuickJS builds
   * and enumerates an object a key at a time); getStyles() holds the rarer ones.
   */
  override styleDeclarations(name: string): string {
    if (name !== "div" && name !== "table") return super.styleDeclarations(name);
    // mjml spreads its background style into both, except in a full-width section
    const background = this.isFullWidth() ? "" : this.backgroundDeclarations();
    const hasBorderRadius = this.hasBorderRadius();
    if (name === "table") return `${background}width:100%;${hasBorderRadius ? "border-collapse:separate;" : ""}`;
    const div = `${background}margin:0px auto;${declaration("max-width", this.context.containerWidth)}${declaration("border-radius", this.getAttribute("border-radius"))}`;
    return `${div}${hasBorderRadius ? "overflow:hidden;" : ""}${declaration("margin-top", this.props.index === 0 ? undefined : (this.context.gap as string | undefined))}`;
  }

  /** What styles() writes of mjml's background style. */
  private backgroundDeclarations(): string {
    if (!this.getAttribute("background-url")) {
      const color = this.getAttribute("background-color");
      return declaration("background", color) + declaration("background-color", color);
    }
    const position = declaration("background-position", this.getBackgroundString());
    return `${declaration("background", this.getBackground())}${position}${declaration("background-repeat", this.getAttribute("background-repeat"))}${declaration("background-size", this.getAttribute("background-size"))}`;
  }

  override getStyles(): Record<string, StyleObject> {
    const styles: Record<string, StyleObject> = {};
    // `tableFullwidth` is read only by a full-width section, `innerDiv` only with a background image
    if (this.isFullWidth()) {
      const tableFullwidth: StyleObject = this.getAttribute("background-url")
        ? {
            background: this.getBackground(),
            // background size, repeat and position have to be separate since yahoo does not support the shorthand
            "background-position": this.getBackgroundString(),
            "background-repeat": this.getAttribute("background-repeat"),
            "background-size": this.getAttribute("background-size"),
          }
        : {
            background: this.getAttribute("background-color"),
            "background-color": this.getAttribute("background-color"),
          };
      tableFullwidth["width"] = "100%";
      styles["tableFullwidth"] = tableFullwidth;
    }
    if (this.hasBackground()) styles["innerDiv"] = { "line-height": "0", "font-size": "0" };
    return styles;
  }

  getBackground(): string {
    const parts = [
      this.getAttribute("background-color"),
      ...(this.hasBackground()
        ? [
            `url('${this.getAttribute("background-url")}')`,
            this.getBackgroundString(),
            `/ ${this.getAttribute("background-size")}`,
            this.getAttribute("background-repeat"),
          ]
        : []),
    ];
    return parts.filter(Boolean).join(" ");
  }

  getBackgroundString(): string {
    const { posX, posY } = this.getBackgroundPosition();
    return `${posX} ${posY}`;
  }

  getBackgroundPosition(): { posX: string; posY: string } {
    const { x, y } = this.parseBackgroundPosition();
    return {
      posX: this.getAttribute("background-position-x") || x,
      posY: this.getAttribute("background-position-y") || y,
    };
  }

  parseBackgroundPosition(): { x: string; y: string } {
    const posSplit = (this.getAttribute("background-position") ?? "").split(" ");
    if (posSplit.length === 1) {
      const val = posSplit[0] as string;
      // one value: it says x or y, and the other is center
      if (["top", "bottom"].includes(val)) return { x: "center", y: val };
      return { x: val, y: "center" };
    }
    if (posSplit.length === 2) {
      // x and y may come in either order
      const val1 = posSplit[0] as string;
      const val2 = posSplit[1] as string;
      if (["top", "bottom"].includes(val1) || (val1 === "center" && ["left", "right"].includes(val2))) return { x: val2, y: val1 };
      return { x: val1, y: val2 };
    }
    // more than 2 values is not supported: the default
    return { x: "center", y: "top" };
  }

  hasBackground(): boolean {
    return this.getAttribute("background-url") != null;
  }

  isFullWidth(): boolean {
    return this.getAttribute("full-width") === "full-width";
  }

  hasBorderRadius(): boolean {
    const borderRadius = this.getAttribute("border-radius");
    return borderRadius !== "" && typeof borderRadius !== "undefined";
  }

  hasGap(): boolean {
    const { gap } = this.context;
    return gap != null && gap !== "";
  }

  writeBefore(output: HtmlOutput): void {
    const { containerWidth } = this.context;
    const backgroundColor = this.getAttribute("background-color");
    const isFirstSection = this.props.index === 0;
    const hasGap = this.hasGap();
    const paddingTop = !isFirstSection ? (this.context.gap as string | undefined) : undefined;
    // mjml's htmlAttributes({ align: "center", border: "0", cellpadding: "0", cellspacing: "0", class, role: "presentation", style, width, bgcolor })
    const attributes =
      ` align="center" border="0" cellpadding="0" cellspacing="0" class="${suffixCssClasses(this.getAttribute("css-class"), "outlook")}"` +
      ` role="presentation" style="width:${containerWidth};${paddingTop === undefined ? "" : `padding-top:${paddingTop};`}"` +
      ` width="${parseInt(containerWidth ?? "", 10)}"` +
      // mjml spreads `{ bgcolor }` here when there is no gap and a background colour
      htmlAttribute("bgcolor", !hasGap && backgroundColor ? backgroundColor : undefined);
    output.space(`
      `);
    output.conditional(
      `
      <table
        `,
      attributes,
      `
      >
        <tr>
          <td style="line-height:0px;font-size:0px;mso-line-height-rule:exactly;">
      `,
    );
    output.space(`
    `);
  }

  writeAfter(output: HtmlOutput): void {
    output.space(`
      `);
    output.conditional(`
          </td>
        </tr>
      </table>
      `);
    output.space(`
    `);
  }

  writeWrappedChildren(output: HtmlOutput): void {
    output.space(`
      `);
    output.conditional(`
        <tr>
      `);
    output.space(`
      `);
    this.writeChildren(output, (component) => {
      const attributes = `${htmlAttribute("align", component.getAttribute("align"))} class="${suffixCssClasses(component.getAttribute("css-class"), "outlook")}"${component.styleAttribute("tdOutlook")}`;
      output.space(`
          `);
      output.conditional(
        `
            <td
              `,
        attributes,
        `
            >
          `,
      );
      writeInOutlookCell(
        output,
        component,
        `
            </td>
          `,
        `
    `,
      );
    });
    output.space(`

      `);
    output.conditional(`
        </tr>
      `);
    output.space(`
    `);
  }

  writeWithBackground(output: HtmlOutput, content: () => void): void {
    const fullWidth = this.isFullWidth();
    const { containerWidth } = this.context;
    let vSizeAttributes: Record<string, string> = {};
    let { posX: bgPosX, posY: bgPosY } = this.getBackgroundPosition();
    switch (bgPosX) {
      case "left":
        bgPosX = "0%";
        break;
      case "center":
        bgPosX = "50%";
        break;
      case "right":
        bgPosX = "100%";
        break;
      default:
        if (!isPercentage(bgPosX)) bgPosX = "50%";
        break;
    }
    switch (bgPosY) {
      case "top":
        bgPosY = "0%";
        break;
      case "center":
        bgPosY = "50%";
        break;
      case "bottom":
        bgPosY = "100%";
        break;
      default:
        if (!isPercentage(bgPosY)) bgPosY = "0%";
        break;
    }
    // the VML origin and position differ between repeat and no-repeat
    const bgRepeat = this.getAttribute("background-repeat") === "repeat";
    const vml = (isX: boolean): [string | number, string | number] => {
      const pos = isX ? bgPosX : bgPosY;
      if (isPercentage(pos)) {
        const decimal = parseInt((/^(\d+(\.\d+)?)%$/.exec(pos) as RegExpExecArray)[1] as string, 10) / 100;
        const value = bgRepeat ? decimal : (-50 + decimal * 100) / 100;
        return [value, value];
      }
      if (bgRepeat) return isX ? ["0.5", "0.5"] : ["0", "0"];
      return isX ? ["0", "0"] : ["-0.5", "-0.5"];
    };
    let [vOriginX, vPosX] = vml(true);
    let [vOriginY, vPosY] = vml(false);
    const backgroundSize = this.getAttribute("background-size") ?? "";
    // cover and contain: VML keeps the aspect and fills the element
    if (backgroundSize === "cover" || backgroundSize === "contain") {
      vSizeAttributes = { size: "1,1", aspect: backgroundSize === "cover" ? "atleast" : "atmost" };
    } else if (backgroundSize !== "auto") {
      const bgSplit = backgroundSize.split(" ");
      vSizeAttributes = bgSplit.length === 1 ? { size: backgroundSize, aspect: "atmost" } : { size: bgSplit.join(",") };
    }
    let vmlType = this.getAttribute("background-repeat") === "no-repeat" ? "frame" : "tile";
    if (backgroundSize === "auto") {
      // Outlook cannot use the image's own size with "frame"; crop as before
      vmlType = "tile";
      [vOriginX, vPosX, vOriginY, vPosY] = [0.5, 0.5, 0, 0];
    }
    output.space(`
      `);
    // the VML shapes hold a URL and the image's attributes: one value, minified with the rest
    const shapes = `<v:rect ${this.htmlAttributes({
      style: fullWidth ? { "mso-width-percent": "1000" } : { width: containerWidth },
      "xmlns:v": "urn:schemas-microsoft-com:vml",
      fill: "true",
      stroke: "false",
    })}>
        <v:fill ${this.htmlAttributes({
          origin: `${vOriginX}, ${vOriginY}`,
          position: `${vPosX}, ${vPosY}`,
          src: this.getAttribute("background-url"),
          color: this.getAttribute("background-color"),
          type: vmlType,
          ...vSizeAttributes,
        })} />`;
    output.conditional(
      `
        `,
      shapes,
      `
        <v:textbox style="mso-fit-shape-to-text:true" inset="0,0,0,0">
      `,
    );
    output.space(`
          `);
    content();
    output.space(`
        `);
    output.conditional(`
        </v:textbox>
      </v:rect>
    `);
    output.space(`
    `);
  }

  writeSection(output: HtmlOutput): void {
    const hasBackground = this.hasBackground();
    output.text(`
      <div ${htmlAttribute("class", this.isFullWidth() ? null : this.getAttribute("css-class"))}${this.styleAttribute("div")}>
        ${hasBackground ? `<div ${this.styleAttribute("innerDiv")}>` : ""}
        <table
           align="center"${htmlAttribute("background", this.isFullWidth() ? null : this.getAttribute("background-url"))}${PRESENTATION_TABLE}${this.styleAttribute("table")}
        >
          <tbody>
            <tr>
              <td
                 style="${this.attributeDeclarations(TD_BEFORE_FONT_SIZE)}font-size:0px;${this.attributeDeclarations(TD_AFTER_FONT_SIZE)}"
              >
                `);
    output.conditional(`
                  <table role="presentation" border="0" cellpadding="0" cellspacing="0">
                `);
    output.space(`
                  `);
    this.writeWrappedChildren(output);
    output.space(`
                `);
    output.conditional(`
                  </table>
                `);
    output.text(`
              </td>
            </tr>
          </tbody>
        </table>
        ${hasBackground ? "</div>" : ""}
      </div>
    `);
  }

  writeFullWidth(output: HtmlOutput): void {
    const inner = () => {
      output.space(`
        `);
      this.writeBefore(output);
      output.space(`
        `);
      this.writeSection(output);
      output.space(`
        `);
      this.writeAfter(output);
      output.space(`
      `);
    };
    output.text(`
      <table
        ${this.htmlAttributes({
          align: "center",
          class: this.getAttribute("css-class"),
          background: this.getAttribute("background-url"),
          border: "0",
          cellpadding: "0",
          cellspacing: "0",
          role: "presentation",
          style: "tableFullwidth",
        })}
      >
        <tbody>
          <tr>
            <td>
              `);
    if (this.hasBackground()) this.writeWithBackground(output, inner);
    else inner();
    output.text(`
            </td>
          </tr>
        </tbody>
      </table>
    `);
  }

  writeSimple(output: HtmlOutput): void {
    output.space(`
      `);
    this.writeBefore(output);
    output.space(`
      `);
    if (this.hasBackground()) this.writeWithBackground(output, () => this.writeSection(output));
    else this.writeSection(output);
    output.space(`
      `);
    this.writeAfter(output);
    output.space(`
    `);
  }

  override write(output: HtmlOutput): void {
    if (this.isFullWidth()) this.writeFullWidth(output);
    else this.writeSimple(output);
  }
}

export class MjWrapper extends MjSection {
  static override readonly componentName: string = "mj-wrapper";
  static override readonly allowedAttributes: Readonly<Record<string, string>> = { ...MjSection.allowedAttributes, gap: "unit(px)" };

  override writeWrappedChildren(output: HtmlOutput): void {
    const { containerWidth } = this.context;
    output.space(`
      `);
    this.writeChildren(output, (component) => {
      const attributes = `${htmlAttribute("align", component.getAttribute("align"))} class="${suffixCssClasses(component.getAttribute("css-class"), "outlook")}"${htmlAttribute("width", containerWidth)}`;
      output.space(`
          `);
      output.conditional(
        `
            <tr>
              <td
                `,
        attributes,
        `
              >
          `,
      );
      writeInOutlookCell(
        output,
        component,
        `
              </td>
            </tr>
          `,
        `
        `,
      );
    });
    output.space(`
    `);
  }
}
