/** mj-navbar and mj-navbar-link (mjml-navbar 5.4.1). */
import { type AttributeStyle, type Attributes, htmlAttribute, type StyleObject, WritingComponent } from "../component.js";
import { makeLowerBreakpoint, msoConditionalTag, suffixCssClasses } from "../helpers.js";
import { type HtmlOutput, writeBetweenConditionalTags } from "../html-output.js";

/** mjml-core's genRandomHexString: the id that ties the hamburger's checkbox to its label. */
function genRandomHexString(length: number): string {
  let str = "";
  for (let i = 0; i < length; i += 1) {
    str += Math.floor(Math.random() * 16).toString(16);
  }
  return str;
}

export class MjNavbar extends WritingComponent {
  static override readonly componentName = "mj-navbar";
  static override readonly allowedAttributes = {
    align: "enum(left,center,right)",
    "base-url": "string",
    hamburger: "string",
    "ico-align": "enum(left,center,right)",
    "ico-open": "string",
    "ico-close": "string",
    "ico-color": "color",
    "ico-font-size": "unit(px,%)",
    "ico-font-family": "string",
    "ico-text-transform": "string",
    "ico-padding": "unit(px,%){1,4}",
    "ico-padding-left": "unit(px,%)",
    "ico-padding-top": "unit(px,%)",
    "ico-padding-right": "unit(px,%)",
    "ico-padding-bottom": "unit(px,%)",
    padding: "unit(px,%){1,4}",
    "padding-left": "unit(px,%)",
    "padding-top": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-bottom": "unit(px,%)",
    "ico-text-decoration": "string",
    "ico-line-height": "unit(px,%,)",
  };
  // mjml also lists `base-url` and `hamburger` with the default null, which reads as no default.
  static override readonly defaultAttributes = {
    align: "center",
    "ico-align": "center",
    "ico-open": "&#9776;",
    "ico-close": "&#8855;",
    "ico-color": "#000000",
    "ico-font-size": "30px",
    "ico-font-family": "Ubuntu, Helvetica, Arial, sans-serif",
    "ico-text-transform": "uppercase",
    "ico-padding": "10px",
    "ico-text-decoration": "none",
    "ico-line-height": "30px",
  };

  override headStyle = (breakpoint: string): string => `
      noinput.mj-menu-checkbox { display:block!important; max-height:none!important; visibility:visible!important; }

      @media only screen and (max-width:${makeLowerBreakpoint(breakpoint)}) {
        .mj-menu-checkbox[type="checkbox"] ~ .mj-inline-links { display:none!important; }
        .mj-menu-checkbox[type="checkbox"]:checked ~ .mj-inline-links,
        .mj-menu-checkbox[type="checkbox"] ~ .mj-menu-trigger { display:block!important; max-width:none!important; max-height:none!important; font-size:inherit!important; }
        .mj-menu-checkbox[type="checkbox"] ~ .mj-inline-links > a { display:block!important; }
        .mj-menu-checkbox[type="checkbox"]:checked ~ .mj-menu-trigger .mj-menu-icon-close { display:block!important; }
        .mj-menu-checkbox[type="checkbox"]:checked ~ .mj-menu-trigger .mj-menu-icon-open { display:none!important; }
      }
    `;

  override getStyles(): Record<string, StyleObject> {
    return {
      div: {
        align: this.getAttribute("align"),
        width: "100%",
      },
      label: {
        display: "block",
        cursor: "pointer",
        "mso-hide": "all",
        "-moz-user-select": "none",
        "user-select": "none",
        color: this.getAttribute("ico-color"),
        "font-size": this.getAttribute("ico-font-size"),
        "font-family": this.getAttribute("ico-font-family"),
        "text-transform": this.getAttribute("ico-text-transform"),
        "text-decoration": this.getAttribute("ico-text-decoration"),
        "line-height": this.getAttribute("ico-line-height"),
        padding: this.getAttribute("ico-padding"),
        "padding-top": this.getAttribute("ico-padding-top"),
        "padding-right": this.getAttribute("ico-padding-right"),
        "padding-bottom": this.getAttribute("ico-padding-bottom"),
        "padding-left": this.getAttribute("ico-padding-left"),
      },
      trigger: {
        display: "none",
        "max-height": "0px",
        "max-width": "0px",
        "font-size": "0px",
        overflow: "hidden",
      },
      icoOpen: {
        "mso-hide": "all",
      },
      icoClose: {
        display: "none",
        "mso-hide": "all",
      },
    };
  }

  renderHamburger(): string {
    const labelKey = genRandomHexString(16);
    return `
      ${msoConditionalTag(
        `
        <input type="checkbox" id="${labelKey}" class="mj-menu-checkbox" style="display:none !important; max-height:0; visibility:hidden;" />
      `,
        true,
      )}
      <div
        ${this.htmlAttributes({
          class: "mj-menu-trigger",
          style: "trigger",
        })}
      >
        <label
          ${this.htmlAttributes({
            for: labelKey,
            class: "mj-menu-label",
            style: "label",
            align: this.getAttribute("ico-align"),
          })}
        >
          <span
            ${this.htmlAttributes({
              class: "mj-menu-icon-open",
              style: "icoOpen",
            })}
          >
            ${this.getAttribute("ico-open")}
          </span>
          <span
            ${this.htmlAttributes({
              class: "mj-menu-icon-close",
              style: "icoClose",
            })}
          >
            ${this.getAttribute("ico-close")}
          </span>
        </label>
      </div>
    `;
  }

  /** The links hold the navbar's base URL: all scanned where its values may hold comment syntax. */
  override write(output: HtmlOutput): void {
    const out = this.outputFor(output);
    const baseUrl = this.getAttribute("base-url");
    const childAttributes: Attributes = baseUrl === undefined ? {} : { navbarBaseUrl: baseUrl };
    out.space(`
        `);
    // the hamburger's checkbox is in an `mso` negation comment, which the writer does not write itself
    if (this.getAttribute("hamburger") === "hamburger") out.scan(this.renderHamburger());
    out.text(`
        <div
          ${this.htmlAttributes({
            class: "mj-inline-links",
            // mjml passes the string "div" to htmlAttributes here: lodash reads it as the object below,
            // and the style named after the resulting string does not exist, so the div gets style="".
            style: this.htmlAttributes({ 0: "d", 1: "i", 2: "v" }),
          })}
        >
        `);
    // conditionalTag around the table's start, then around its end
    out.space(`
    `);
    out.conditional(
      `
    
          <table role="presentation" border="0" cellpadding="0" cellspacing="0" align="`,
      this.getAttribute("align"),
      `">
            <tr>
        
    `,
    );
    out.space(`
  
          `);
    this.writeChildren(out, undefined, childAttributes);
    out.space(`
          
    `);
    out.conditional(`
    
            </tr></table>
          
    `);
    out.text(`
  
        </div>
    `);
  }
}

/** mj-navbar-link's styles: each CSS property with the attribute that holds its value, in mjml's order. */
const LINK_TEXT: AttributeStyle = [
  ["color", "color"],
  ["font-family", "font-family"],
  ["font-size", "font-size"],
  ["font-style", "font-style"],
  ["font-weight", "font-weight"],
  ["letter-spacing", "letter-spacing"],
  ["line-height", "line-height"],
  ["text-decoration", "text-decoration"],
  ["text-transform", "text-transform"],
];
const LINK_PADDING: AttributeStyle = [
  ["padding", "padding"],
  ["padding-top", "padding-top"],
  ["padding-left", "padding-left"],
  ["padding-right", "padding-right"],
  ["padding-bottom", "padding-bottom"],
];

export class MjNavbarLink extends WritingComponent {
  static override readonly componentName = "mj-navbar-link";
  static override readonly endingTag = true;
  static override readonly allowedAttributes = {
    color: "color",
    "font-family": "string",
    "font-size": "unit(px)",
    "font-style": "string",
    "font-weight": "string",
    href: "string",
    name: "string",
    target: "string",
    rel: "string",
    "letter-spacing": "unitWithNegative(px,em)",
    "line-height": "unit(px,%,)",
    "padding-bottom": "unit(px,%)",
    "padding-left": "unit(px,%)",
    "padding-right": "unit(px,%)",
    "padding-top": "unit(px,%)",
    padding: "unit(px,%){1,4}",
    "text-decoration": "string",
    "text-transform": "string",
  };
  static override readonly defaultAttributes = {
    color: "#000000",
    "font-family": "Ubuntu, Helvetica, Arial, sans-serif",
    "font-size": "13px",
    "font-weight": "normal",
    "line-height": "22px",
    padding: "15px 10px",
    target: "_blank",
    "text-decoration": "none",
    "text-transform": "uppercase",
  };

  /** mjml's a and td styles written as declarations: each is written once. */
  override styleDeclarations(name: string): string {
    if (name === "a") return `display:inline-block;${this.attributeDeclarations(LINK_TEXT)}${this.attributeDeclarations(LINK_PADDING)}`;
    return name === "td" ? this.attributeDeclarations(LINK_PADDING) : "";
  }

  renderContent(): string {
    const href = this.getAttribute("href");
    const navbarBaseUrl = this.getAttribute("navbarBaseUrl");
    const link = navbarBaseUrl ? `${navbarBaseUrl}${href}` : href;
    const cssClass = this.getAttribute("css-class") ? ` ${this.getAttribute("css-class")}` : "";
    return `
      <a
         class="mj-link${cssClass}"${htmlAttribute("href", link)}${htmlAttribute("rel", this.getAttribute("rel"))}${htmlAttribute("target", this.getAttribute("target"))}${htmlAttribute("name", this.getAttribute("name"))}${this.styleAttribute("a")}
      >
        ${this.getContent()}
      </a>
    `;
  }

  /** conditionalTag around the Outlook cell's start, then around its end. */
  override write(output: HtmlOutput): void {
    const out = this.outputFor(output);
    const attributes = `${this.styleAttribute("td")} class="${suffixCssClasses(this.getAttribute("css-class"), "outlook")}"`;
    writeBetweenConditionalTags(
      out,
      () =>
        out.conditional(
          `
    
          <td
            `,
          attributes,
          `
          >
        
    `,
        ),
      () => out.text(this.renderContent()),
      `
    
          </td>
        
    `,
    );
  }
}
