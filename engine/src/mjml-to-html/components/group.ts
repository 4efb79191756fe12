/** mj-group (mjml-group 5.4.1): columns side by side that do not stack on mobile. */
import { BodyComponent, type BodyContext, childContext, declaration, htmlAttribute, PRESENTATION_TABLE } from "../component.js";
import { widthParser } from "../helpers.js";
import { MjColumn } from "./column.js";

export class MjGroup extends BodyComponent {
  static override readonly componentName = "mj-group";
  static override readonly allowedAttributes = {
    "background-color": "color",
    direction: "enum(ltr,rtl)",
    "vertical-align": "enum(top,bottom,middle)",
    width: "unit(px,%)",
  };
  static override readonly defaultAttributes = { direction: "ltr" };

  private get nonRawSiblings(): number {
    return this.props.nonRawSiblings ?? 0;
  }

  override getChildContext(): BodyContext {
    const parentWidth = this.context.containerWidth ?? "";
    const paddingSize = this.getShorthandAttrValue("padding", "left") + this.getShorthandAttrValue("padding", "right");
    let containerWidth = this.getAttribute("width") || `${parseFloat(parentWidth) / this.nonRawSiblings}px`;
    const { unit, parsedWidth } = widthParser(containerWidth, { parseFloatToInt: false });
    if (unit === "%") containerWidth = `${(parseFloat(parentWidth) * parsedWidth) / 100 - paddingSize}px`;
    else containerWidth = `${parsedWidth - paddingSize}px`;
    return childContext(this.context, {
      containerWidth,
      nonRawSiblings: this.props.children.length,
      isInGroup: true,
      direction: this.getAttribute("direction"),
    });
  }

  /**
   * mjml's div and tdOutlook styles (its section writes the group's cell with the latter) written as
   * declarations: each is written once, and QuickJS builds and enumerates an object a key at a time.
   *   div: { 'font-size': '0', 'line-height': '0', 'text-align': 'left', display: 'inline-block', width: '100%',
   *          direction, 'vertical-align', 'background-color' }
   *   tdOutlook: { 'vertical-align', width: this.getWidthAsPixel() }
   */
  override styleDeclarations(name: string): string {
    if (name === "div") {
      return (
        "font-size:0;line-height:0;text-align:left;display:inline-block;width:100%;" +
        declaration("direction", this.getAttribute("direction")) +
        declaration("vertical-align", this.getAttribute("vertical-align")) +
        declaration("background-color", this.getAttribute("background-color"))
      );
    }
    return name === "tdOutlook" ? `${declaration("vertical-align", this.getAttribute("vertical-align"))}width:${this.getWidthAsPixel()};` : "";
  }

  getParsedWidth(): { unit: string; parsedWidth: number } {
    const width = this.getAttribute("width") || `${100 / this.nonRawSiblings}%`;
    return widthParser(width, { parseFloatToInt: false });
  }

  getWidthAsPixel(): string {
    const { unit, parsedWidth } = this.getParsedWidth();
    const { unit: parsedUnit, parsedWidth: width } = widthParser(`${parsedWidth}${unit}`, { parseFloatToInt: false });
    if (parsedUnit === "%") return `${(parseFloat(this.context.containerWidth ?? "") * width) / 100}px`;
    return `${width}px`;
  }

  getColumnClass(): string {
    const { parsedWidth, unit } = this.getParsedWidth();
    const className = unit === "%" ? `mj-column-per-${parseInt(String(parsedWidth), 10)}` : `mj-column-px-${parseInt(String(parsedWidth), 10)}`;
    this.context.addMediaQuery(className, { parsedWidth, unit });
    return className;
  }

  render(): string {
    const { children } = this.props;
    const nonRawSiblings = this.nonRawSiblings;
    const groupWidth = this.getChildContext().containerWidth;
    const containerWidth = this.context.containerWidth ?? "";
    const getElementWidth = (width: string | undefined): string => {
      if (!width) return `${parseInt(containerWidth, 10) / parseInt(String(nonRawSiblings), 10)}px`;
      const { unit, parsedWidth } = widthParser(width, { parseFloatToInt: false });
      // as in mjml: a percentage here divides by the group's width as a string, which gives NaN
      if (unit === "%") return `${(100 * parsedWidth) / Number(groupWidth)}px`;
      return `${parsedWidth}${unit}`;
    };
    // mjml's style literal of a child's cell, `{ align, 'vertical-align', width: getElementWidth(…) }`, as declarations
    const cellStyle = (component: BodyComponent): string =>
      declaration("align", component.getAttribute("align")) +
      declaration("vertical-align", component.getAttribute("vertical-align")) +
      declaration(
        "width",
        getElementWidth(component instanceof MjColumn || component instanceof MjGroup ? component.getWidthAsPixel() : component.getAttribute("width")),
      );
    let classesName = `${this.getColumnClass()} mj-outlook-group-fix`;
    const cssClass = this.getAttribute("css-class");
    if (cssClass) classesName += ` ${cssClass}`;
    const background = this.getAttribute("background-color");
    return `
      <div
        ${htmlAttribute("class", classesName)}${this.styleAttribute("div")}
      >
        <!--[if mso | IE]>
        <table
          ${htmlAttribute("bgcolor", background === "none" ? undefined : background)}${PRESENTATION_TABLE}
        >
          <tr>
        <![endif]-->
          ${this.renderChildren(children, {
            attributes: { mobileWidth: "mobileWidth" },
            renderer: (component) =>
              (component.constructor as typeof BodyComponent).rawElement
                ? component.render()
                : `
              <!--[if mso | IE]>
              <td
                 style="${cellStyle(component)}"
              >
              <![endif]-->
                ${component.render()}
              <!--[if mso | IE]>
              </td>
              <![endif]-->
          `,
          })}
        <!--[if mso | IE]>
          </tr>
          </table>
        <![endif]-->
      </div>
    `;
  }
}
