/** mj-image (mjml-image 5.4.1). */
import { type AttributeStyle, BodyComponent, type HeadStyle, htmlAttribute, PRESENTATION_TABLE } from "../component.js";
import { makeLowerBreakpoint, widthParser } from "../helpers.js";

/** lodash's `min`: the smallest value, skipping NaN; undefined when there is none. */
function min(values: readonly number[]): number | undefined {
  let result: number | undefined;
  for (const value of values) {
    if (result === undefined ? !Number.isNaN(value) : value < result) result = value;
  }
  return result;
}

/**
 * mjml's img style, in its order, with only the attributes set and the constants between them (its
 * literal holds every key, most undefined; QuickJS builds and enumerates a key at a time).
 */
const IMG_BORDERS: AttributeStyle = [
  ["border", "border"],
  ["border-left", "border-left"],
  ["border-right", "border-right"],
  ["border-top", "border-top"],
  ["border-bottom", "border-bottom"],
  ["border-radius", "border-radius"],
];
const IMG_HEIGHTS: AttributeStyle = [
  ["height", "height"],
  ["max-height", "max-height"],
];
const IMG_FONT_SIZE: AttributeStyle = [["font-size", "font-size"]];

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

  /** mjml's img, td and table styles written as declarations: each is written once. */
  override styleDeclarations(name: string): string {
    const fullWidth = this.getAttribute("full-width") === "full-width";
    if (name === "img") {
      const img = `${this.attributeDeclarations(IMG_BORDERS)}display:block;outline:none;text-decoration:none;${this.attributeDeclarations(IMG_HEIGHTS)}`;
      return `${img}${fullWidth ? "min-width:100%;width:100%;max-width:100%;" : "width:100%;"}${this.attributeDeclarations(IMG_FONT_SIZE)}`;
    }
    if (name === "td") return fullWidth ? "" : `width:${this.contentWidth()};`;
    if (name !== "table") return "";
    return `${fullWidth ? `min-width:100%;max-width:100%;width:${this.contentWidth()};` : ""}border-collapse:collapse;border-spacing:0px;`;
  }

  /** The content width as mjml's td and full-width table styles write it. */
  private contentWidth(): string {
    const width = this.getContentWidth();
    // mjml's widthParser throws on it too (neither the container width nor `width` is a number).
    if (width === undefined) throw new TypeError("mj-image: no content width");
    const { parsedWidth, unit } = widthParser(width);
    return `${parsedWidth}${unit}`;
  }

  getContentWidth(): number | undefined {
    const widthAttribute = this.getAttribute("width");
    const width = widthAttribute ? parseInt(widthAttribute, 10) : Infinity;
    const { box } = this.getBoxWidths();
    return min([box, width]);
  }

  renderImage(): string {
    const height = this.getAttribute("height");
    // mjml's htmlAttributes({ alt, src, srcset, sizes, style: "img", title, width, usemap, height })
    const attributes =
      htmlAttribute("alt", this.getAttribute("alt")) +
      htmlAttribute("src", this.getAttribute("src")) +
      htmlAttribute("srcset", this.getAttribute("srcset")) +
      htmlAttribute("sizes", this.getAttribute("sizes")) +
      this.styleAttribute("img") +
      htmlAttribute("title", this.getAttribute("title")) +
      htmlAttribute("width", this.getContentWidth()) +
      htmlAttribute("usemap", this.getAttribute("usemap")) +
      // mjml spreads `{ height }` here when there is one
      htmlAttribute("height", height ? (height === "auto" ? height : parseInt(height, 10)) : undefined);
    const img = `
      <img
        ${attributes}
      />
    `;
    if (this.getAttribute("href")) {
      return `
        <a
          ${htmlAttribute("href", this.getAttribute("href"))}${htmlAttribute("target", this.getAttribute("target"))}${htmlAttribute("rel", this.getAttribute("rel"))}${htmlAttribute("name", this.getAttribute("name"))}${htmlAttribute("title", this.getAttribute("title"))}
        >
          ${img}
        </a>
      `;
    }
    return img;
  }

  render(): string {
    const fluidOnMobile = this.getAttribute("fluid-on-mobile") ? ` class="mj-full-width-mobile"` : "";
    return `
      <table
        ${PRESENTATION_TABLE}${this.styleAttribute("table")}${fluidOnMobile}
      >
        <tbody>
          <tr>
            <td ${this.styleAttribute("td")}${fluidOnMobile}>
              ${this.renderImage()}
            </td>
          </tr>
        </tbody>
      </table>
    `;
  }
}
