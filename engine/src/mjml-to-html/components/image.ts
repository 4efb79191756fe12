/** mj-image (mjml-image 5.4.1). */
import { BodyComponent, type HeadStyle, type StyleObject } from "../component.js";
import { makeLowerBreakpoint, widthParser } from "../helpers.js";

/** lodash's `min`: the smallest value, skipping NaN; undefined when there is none. */
function min(values: readonly number[]): number | undefined {
  let result: number | undefined;
  for (const value of values) {
    if (result === undefined ? !Number.isNaN(value) : value < result) result = value;
  }
  return result;
}

export class MjImage extends BodyComponent {
  static override readonly componentName = "mj-image";
  static override readonly plainMarkup = true;
  static override readonly allowedAttributes = {
    alt: "string",
    href: "string",
    name: "string",
    src: "string",
    srcset: "string",
    sizes: "string",
    title: "string",
    rel: "string",
    align: "enum(left,center,right)",
    border: "string",
    "border-bottom": "string",
    "border-left": "string",
    "border-right": "string",
    "border-top": "string",
    "border-radius": "string",
    "container-background-color": "color",
    "fluid-on-mobile": "boolean",
    padding: "unit(px,%){1,4}",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    target: "string",
    width: "unit(px)",
    height: "unit(px,auto)",
    "max-height": "unit(px,%)",
    "font-size": "unit(px)",
    usemap: "string",
  };
  static override readonly defaultAttributes = {
    alt: "",
    align: "center",
    border: "0",
    height: "auto",
    padding: "10px 25px",
    target: "_blank",
    "font-size": "13px",
  };

  override headStyle: HeadStyle = (breakpoint) => `
    @media only screen and (max-width:${makeLowerBreakpoint(breakpoint)}) {
      table.mj-full-width-mobile { width: 100% !important; }
      td.mj-full-width-mobile { width: auto !important; }
    }
  `;

  override getStyles(): Record<string, StyleObject> {
    const width = this.getContentWidth();
    // mjml's widthParser throws on it too (neither the container width nor `width` is a number).
    if (width === undefined) throw new TypeError("mj-image: no content width");
    const fullWidth = this.getAttribute("full-width") === "full-width";
    const { parsedWidth, unit } = widthParser(width);
    return {
      img: {
        border: this.getAttribute("border"),
        "border-left": this.getAttribute("border-left"),
        "border-right": this.getAttribute("border-right"),
        "border-top": this.getAttribute("border-top"),
        "border-bottom": this.getAttribute("border-bottom"),
        "border-radius": this.getAttribute("border-radius"),
        display: "block",
        outline: "none",
        "text-decoration": "none",
        height: this.getAttribute("height"),
        "max-height": this.getAttribute("max-height"),
        "min-width": fullWidth ? "100%" : null,
        width: "100%",
        "max-width": fullWidth ? "100%" : null,
        "font-size": this.getAttribute("font-size"),
      },
      td: {
        width: fullWidth ? null : `${parsedWidth}${unit}`,
      },
      table: {
        "min-width": fullWidth ? "100%" : null,
        "max-width": fullWidth ? "100%" : null,
        width: fullWidth ? `${parsedWidth}${unit}` : null,
        "border-collapse": "collapse",
        "border-spacing": "0px",
      },
    };
  }

  getContentWidth(): number | undefined {
    const widthAttribute = this.getAttribute("width");
    const width = widthAttribute ? parseInt(widthAttribute, 10) : Infinity;
    const { box } = this.getBoxWidths();
    return min([box, width]);
  }

  renderImage(): string {
    const height = this.getAttribute("height");
    const img = `
      <img
        ${this.htmlAttributes({
          alt: this.getAttribute("alt"),
          src: this.getAttribute("src"),
          srcset: this.getAttribute("srcset"),
          sizes: this.getAttribute("sizes"),
          style: "img",
          title: this.getAttribute("title"),
          width: this.getContentWidth(),
          usemap: this.getAttribute("usemap"),
          // mjml spreads `{ height }` here when there is one
          height: height ? (height === "auto" ? height : parseInt(height, 10)) : undefined,
        })}
      />
    `;
    if (this.getAttribute("href")) {
      return `
        <a
          ${this.htmlAttributes({
            href: this.getAttribute("href"),
            target: this.getAttribute("target"),
            rel: this.getAttribute("rel"),
            name: this.getAttribute("name"),
            title: this.getAttribute("title"),
          })}
        >
          ${img}
        </a>
      `;
    }
    return img;
  }

  render(): string {
    return `
      <table
        ${this.htmlAttributes({
          border: "0",
          cellpadding: "0",
          cellspacing: "0",
          role: "presentation",
          style: "table",
          class: this.getAttribute("fluid-on-mobile") ? "mj-full-width-mobile" : null,
        })}
      >
        <tbody>
          <tr>
            <td ${this.htmlAttributes({
              style: "td",
              class: this.getAttribute("fluid-on-mobile") ? "mj-full-width-mobile" : null,
            })}>
              ${this.renderImage()}
            </td>
          </tr>
        </tbody>
      </table>
    `;
  }
}
