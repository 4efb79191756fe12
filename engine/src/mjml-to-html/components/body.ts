/** mj-body (mjml-body 5.4.1) and mj-raw (mjml-raw 5.4.1). */
import { BodyComponent, type BodyContext, childContext, type StyleObject, WritingComponent } from "../component.js";
import type { HtmlOutput } from "../html-output.js";

/** mjml-core's preview helper: the hidden preheader at the top of the body. */
function preview(content: string): string {
  if (content === "") return "";
  return `
    <div style="display:none;font-size:1px;color:#ffffff;line-height:1px;max-height:0px;max-width:0px;opacity:0;overflow:hidden;">${content}</div>
  `;
}

export class MjBody extends WritingComponent {
  static override readonly componentName = "mj-body";
  static override readonly allowedAttributes = { width: "unit(px)", "background-color": "color", id: "string" };
  static override readonly defaultAttributes = { width: "600px" };

  override getChildContext(): BodyContext {
    return childContext(this.context, { containerWidth: this.getAttribute("width") });
  }

  override getStyles(): Record<string, StyleObject> {
    return {
      body: { "word-spacing": "normal", "background-color": this.getAttribute("background-color") },
      div: { "word-spacing": "normal", "background-color": this.getAttribute("background-color") },
    };
  }

  /** The title and the preview are the template's own text: scanned when they may hold comment syntax. */
  override write(output: HtmlOutput): void {
    const { lang, dir, title, preview: previewText } = this.context.globalData;
    const start = `
      <body ${this.htmlAttributes({
        id: this.getAttribute("id"),
        class: this.getAttribute("css-class"),
        style: "body",
      })}>
        ${preview(previewText)}
        <div
          ${this.htmlAttributes({
            // mjml spreads `{ "aria-label": title }` here when there is a title
            "aria-label": title || undefined,
            "aria-roledescription": "email",
            role: "article",
            lang,
            dir,
            style: "div",
          })}
        >
        `;
    if (title.includes("<!") || previewText.includes("<!")) output.scan(start);
    else output.text(start);
    this.writeChildren(output);
    output.text(`
      </div>
      </body>
    `);
  }
}

export class MjRaw extends BodyComponent {
  static override readonly componentName = "mj-raw";
  static override readonly allowedAttributes = { position: "enum(file-start)" };
  static override readonly rawElement = true;
  static override readonly endingTag = true;

  render(): string {
    return this.getContent();
  }
}
