/** mj-social and mj-social-element (mjml-social 5.4.1). */
import { type AttributeStyle, type Attributes, BodyComponent, declaration, htmlAttribute, PRESENTATION_TABLE, WritingComponent } from "../component.js";
import type { HtmlOutput } from "../html-output.js";

/** mj-social-element's td and text styles: each CSS property with the attribute that holds its value, in mjml's order. */
const TD_STYLE: AttributeStyle = [
  ["padding", "padding"],
  ["padding-top", "padding-top"],
  ["padding-right", "padding-right"],
  ["padding-bottom", "padding-bottom"],
  ["padding-left", "padding-left"],
  ["vertical-align", "vertical-align"],
];
const TEXT_STYLE: AttributeStyle = [
  ["color", "color"],
  ["font-size", "font-size"],
  ["font-weight", "font-weight"],
  ["font-style", "font-style"],
  ["font-family", "font-family"],
  ["line-height", "line-height"],
  ["text-decoration", "text-decoration"],
];

/** What mj-social gives its elements of its own attributes, in mjml's order (made once: a `for…of` over a literal builds the array and an iterator per mj-social). */
const INHERITED = [
  "border",
  "border-radius",
  "color",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "icon-size",
  "icon-height",
  "icon-padding",
  "text-padding",
  "line-height",
  "text-decoration",
];

export class MjSocial extends WritingComponent {
  static override readonly componentName = "mj-social";
  static override readonly allowedAttributes = {
    align: "enum(left,right,center)",
    border: "string",
    "border-radius": "string",
    "container-background-color": "color",
    color: "color",
    "font-family": "string",
    "font-size": "unit(px)",
    "font-style": "string",
    "font-weight": "string",
    "icon-size": "unit(px,%)",
    "icon-height": "unit(px,%)",
    "icon-padding": "unit(px,%){1,4}",
    "inner-padding": "unit(px,%){1,4}",
    "line-height": "unit(px,%,)",
    mode: "enum(horizontal,vertical)",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    padding: "unit(px,%){1,4}",
    "table-layout": "enum(auto,fixed)",
    "text-padding": "unit(px,%){1,4}",
    "text-decoration": "string",
    "vertical-align": "enum(top,bottom,middle)",
  };
  // mjml also lists `inner-padding` with the default null, which reads as no default.
  static override readonly defaultAttributes = {
    align: "center",
    "border-radius": "3px",
    color: "#333333",
    "font-family": "Ubuntu, Helvetica, Arial, sans-serif",
    "font-size": "13px",
    "icon-size": "20px",
    "line-height": "22px",
    mode: "horizontal",
    padding: "10px 25px",
    "text-decoration": "none",
  };

  /** The attributes every mj-social-element inherits (weaker than its own). */
  getSocialElementAttributes(): Attributes {
    const base: Attributes = {};
    const innerPadding = this.getAttribute("inner-padding");
    if (innerPadding) {
      base.padding = innerPadding;
    }
    for (let i = 0; i < INHERITED.length; i++) {
      const attr = INHERITED[i] as string;
      const value = this.attributes.get(attr);
      if (value !== undefined) base[attr] = value;
    }
    return base;
  }

  writeHorizontal(output: HtmlOutput): void {
    output.space(`
     `);
    output.conditional(
      `
      <table
        `,
      htmlAttribute("align", this.getAttribute("align")) + PRESENTATION_TABLE,
      `
      >
        <tr>
      `,
    );
    output.space(`
      `);
    this.writeChildren(
      output,
      (component) => {
        output.space(`
            `);
        output.conditional(`
              <td>
            `);
        output.text(`
              <table
                ${htmlAttribute("align", this.getAttribute("align"))}${PRESENTATION_TABLE} style="float:none;display:inline-table;"
              >
                <tbody>
                  `);
        component.write(output);
        output.text(`
                </tbody>
              </table>
            `);
        output.conditional(`
              </td>
            `);
        output.space(`
          `);
      },
      this.getSocialElementAttributes(),
    );
    output.space(`
      `);
    output.conditional(`
          </tr>
        </table>
      `);
    output.space(`
    `);
  }

  /** mjml's htmlAttributes({ border: '0', cellpadding: '0', cellspacing: '0', role: 'presentation', style: 'tableVertical' }), its style `{ margin: '0px' }`, as text. */
  writeVertical(output: HtmlOutput): void {
    output.text(`
      <table
        ${PRESENTATION_TABLE} style="margin:0px;"
      >
        <tbody>
          `);
    this.writeChildren(output, undefined, this.getSocialElementAttributes());
    output.text(`
        </tbody>
      </table>
    `);
  }

  /** The elements hold the social's own attributes: all scanned where those may hold comment syntax. */
  override write(output: HtmlOutput): void {
    const out = this.outputFor(output);
    out.space(`
      `);
    if (this.getAttribute("mode") === "horizontal") this.writeHorizontal(out);
    else this.writeVertical(out);
    out.space(`
    `);
  }
}

const IMG_BASE_URL = "https://www.mailjet.com/images/theme/v1/icons/ico-social/";

const defaultSocialNetworks: Record<string, Readonly<Record<string, string>>> = {
  facebook: {
    "share-url": "https://www.facebook.com/sharer/sharer.php?u=[[URL]]",
    "background-color": "#3b5998",
    src: `${IMG_BASE_URL}facebook.png`,
  },
  twitter: {
    "share-url": "https://twitter.com/intent/tweet?url=[[URL]]",
    "background-color": "#55acee",
    src: `${IMG_BASE_URL}twitter.png`,
  },
  x: {
    "share-url": "https://twitter.com/intent/tweet?url=[[URL]]",
    "background-color": "#000000",
    src: `${IMG_BASE_URL}twitter-x.png`,
  },
  google: {
    "share-url": "https://plus.google.com/share?url=[[URL]]",
    "background-color": "#dc4e41",
    src: `${IMG_BASE_URL}google-plus.png`,
  },
  pinterest: {
    "share-url": "https://pinterest.com/pin/create/button/?url=[[URL]]&media=&description=",
    "background-color": "#bd081c",
    src: `${IMG_BASE_URL}pinterest.png`,
  },
  linkedin: {
    "share-url": "https://www.linkedin.com/shareArticle?mini=true&url=[[URL]]&title=&summary=&source=",
    "background-color": "#0077b5",
    src: `${IMG_BASE_URL}linkedin.png`,
  },
  instagram: {
    "background-color": "#3f729b",
    src: `${IMG_BASE_URL}instagram.png`,
  },
  web: {
    src: `${IMG_BASE_URL}web.png`,
    "background-color": "#4BADE9",
  },
  snapchat: {
    src: `${IMG_BASE_URL}snapchat.png`,
    "background-color": "#FFFA54",
  },
  youtube: {
    src: `${IMG_BASE_URL}youtube.png`,
    "background-color": "#EB3323",
  },
  tumblr: {
    src: `${IMG_BASE_URL}tumblr.png`,
    "share-url": "https://www.tumblr.com/widgets/share/tool?canonicalUrl=[[URL]]",
    "background-color": "#344356",
  },
  github: {
    src: `${IMG_BASE_URL}github.png`,
    "background-color": "#000000",
  },
  xing: {
    src: `${IMG_BASE_URL}xing.png`,
    "share-url": "https://www.xing.com/app/user?op=share&url=[[URL]]",
    "background-color": "#296366",
  },
  vimeo: {
    src: `${IMG_BASE_URL}vimeo.png`,
    "background-color": "#53B4E7",
  },
  medium: {
    src: `${IMG_BASE_URL}medium.png`,
    "background-color": "#000000",
  },
  soundcloud: {
    src: `${IMG_BASE_URL}soundcloud.png`,
    "background-color": "#EF7F31",
  },
  dribbble: {
    src: `${IMG_BASE_URL}dribbble.png`,
    "background-color": "#D95988",
  },
};

for (const [key, val] of Object.entries(defaultSocialNetworks)) {
  defaultSocialNetworks[`${key}-noshare`] = {
    ...val,
    "share-url": "[[URL]]",
  };
}

interface SocialAttributes {
  readonly href: string | undefined;
  readonly "icon-size": string | undefined;
  readonly "icon-height": string | undefined;
  readonly srcset: string | undefined;
  readonly sizes: string | undefined;
  readonly src: string | undefined;
  readonly "background-color": string | undefined;
}

export class MjSocialElement extends BodyComponent {
  static override readonly componentName = "mj-social-element";
  static override readonly plainMarkup = true;
  static override readonly endingTag = true;
  static override readonly allowedAttributes = {
    align: "enum(left,center,right)",
    "icon-position": "enum(left,right)",
    "background-color": "color",
    color: "color",
    border: "string",
    "border-radius": "string",
    "font-family": "string",
    "font-size": "unit(px)",
    "font-style": "string",
    "font-weight": "string",
    href: "string",
    "icon-size": "unit(px,%)",
    "icon-height": "unit(px,%)",
    "icon-padding": "unit(px,%){1,4}",
    "line-height": "unit(px,%,)",
    name: "string",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    padding: "unit(px,%){1,4}",
    "text-padding": "unit(px,%){1,4}",
    rel: "string",
    src: "string",
    srcset: "string",
    sizes: "string",
    alt: "string",
    title: "string",
    target: "string",
    "text-decoration": "string",
    "vertical-align": "enum(top,middle,bottom)",
  };
  static override readonly defaultAttributes = {
    alt: "",
    align: "left",
    "icon-position": "left",
    color: "#000",
    border: "0",
    "border-radius": "3px",
    "font-family": "Ubuntu, Helvetica, Arial, sans-serif",
    "font-size": "13px",
    "line-height": "1",
    padding: "4px",
    "text-padding": "4px 4px 4px 0",
    target: "_blank",
    "text-decoration": "none",
    "vertical-align": "middle",
  };

  getSocialAttributes(): SocialAttributes {
    // String(): mjml indexes the table with the attribute as it is, undefined included.
    const socialNetwork = defaultSocialNetworks[String(this.getAttribute("name"))] || {};
    let href = this.getAttribute("href");
    const shareUrl = socialNetwork["share-url"];
    if (href && shareUrl) {
      href = shareUrl.replace("[[URL]]", href);
    }
    const attr = (name: string): string | undefined => this.getAttribute(name) || socialNetwork[name];
    return {
      href,
      "icon-size": attr("icon-size"),
      "icon-height": attr("icon-height"),
      srcset: attr("srcset"),
      sizes: attr("sizes"),
      src: attr("src"),
      "background-color": attr("background-color"),
    };
  }

  render(): string {
    const { src, srcset, sizes, href, "icon-size": iconSize, "icon-height": iconHeight, "background-color": backgroundColor } = this.getSocialAttributes();
    const hasLink = !!this.getAttribute("href");
    const iconPosition = this.getAttribute("icon-position");
    // mjml's htmlAttributes({ alt, title, src, style: "img", width, sizes, srcset }), an attribute at a time; its styles
    // written as declarations where they are written (once each), no style objects
    const img =
      htmlAttribute("alt", this.getAttribute("alt")) +
      htmlAttribute("title", this.getAttribute("title")) +
      htmlAttribute("src", src) +
      ` style="${declaration("border", this.getAttribute("border"))}${declaration("border-radius", this.getAttribute("border-radius"))}display:block;"` +
      // String(): parseInt converts its argument the same way.
      htmlAttribute("width", parseInt(String(iconSize), 10)) +
      htmlAttribute("sizes", sizes) +
      htmlAttribute("srcset", srcset);
    const makeIcon = (): string => `
        <td  style="${this.attributeDeclarations(TD_STYLE)}">
          <table
            ${PRESENTATION_TABLE} style="${declaration("background", backgroundColor)}${declaration("border-radius", this.getAttribute("border-radius"))}${declaration("width", iconSize)}"
          >
            <tbody>
              <tr>
                <td  style="${declaration("padding", this.getAttribute("icon-padding"))}font-size:0;${declaration("height", iconHeight || iconSize)}vertical-align:middle;${declaration("width", iconSize)}">
                  ${
                    hasLink
                      ? `<a ${htmlAttribute("href", href)}${htmlAttribute("rel", this.getAttribute("rel"))}${htmlAttribute("target", this.getAttribute("target"))}>`
                      : ""
                  }
                    <img
                      ${img}
                    />
                  ${hasLink ? `</a>` : ""}
                </td>
              </tr>
            </tbody>
          </table>
        </td>
      `;
    const makeContent = (): string => `
        ${
          this.getContent()
            ? `
          <td  style="vertical-align:middle;${declaration("padding", this.getAttribute("text-padding"))}${declaration("text-align", this.getAttribute("align"))}">
            ${
              hasLink
                ? `<a
                ${htmlAttribute("href", href)} style="${this.attributeDeclarations(TEXT_STYLE)}"${htmlAttribute("rel", this.getAttribute("rel"))}${htmlAttribute("target", this.getAttribute("target"))}>`
                : `<span
                     style="${this.attributeDeclarations(TEXT_STYLE)}">`
            }
              ${this.getContent()}
            ${hasLink ? `</a>` : "</span>"}
          </td>
          `
            : ""
        }
      `;
    const renderLeft = (): string => `${makeIcon()} ${makeContent()}`;
    const renderRight = (): string => `${makeContent()} ${makeIcon()}`;
    return `
      <tr
        ${htmlAttribute("class", this.getAttribute("css-class"))}
      >
        ${iconPosition === "left" ? renderLeft() : renderRight()}
      </tr>
    `;
  }
}
