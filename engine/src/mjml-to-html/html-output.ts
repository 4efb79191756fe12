/**
 * Where body components write their markup, in document order: the interface, and the two simple
 * outputs (a component's render() string; everything scanned). The body's writer is in document.ts.
 */

/**
 * Where a body component writes its markup, in document order (see BodyComponent.write).
 * `text`: markup that holds no `<!` and does not end with `<` (so no conditional comment syntax, alone
 * or with what follows it), and is not only whitespace;
 * `space`: whitespace; `conditional`: an Outlook conditional comment (`<!--[if mso | IE]>` + inner +
 * ENDIF) the component writes itself, its inner holding no `<!`; `scan`: any other markup.
 */
export interface HtmlOutput {
  text(markup: string): void;
  space(whitespace: string): void;
  conditional(inner: string): void;
  scan(markup: string): void;
}

/** An HtmlOutput that keeps the markup as written (a component's `render()`). */
export class StringOutput implements HtmlOutput {
  html = "";
  text(markup: string): void {
    this.html += markup;
  }
  space(whitespace: string): void {
    this.html += whitespace;
  }
  conditional(inner: string): void {
    this.html += MSO_IE + inner + ENDIF;
  }
  scan(markup: string): void {
    this.html += markup;
  }
}

export const MSO_IE = "<!--[if mso | IE]>";
export const ENDIF = "<![endif]-->";

/**
 * An HtmlOutput that scans everything it is given: what a component writes where its own values
 * (attributes, content) may hold comment syntax.
 */
export class ScannedOutput implements HtmlOutput {
  constructor(private readonly output: HtmlOutput) {}
  text(markup: string): void {
    this.output.scan(markup);
  }
  space(whitespace: string): void {
    this.output.scan(whitespace);
  }
  conditional(inner: string): void {
    this.output.scan(MSO_IE + inner + ENDIF);
  }
  scan(markup: string): void {
    this.output.scan(markup);
  }
}

/**
 * What mjml writes as `${conditionalTag(start)}\n${content}\n${conditionalTag(end)}` in mj-text
 * (with a height) and mj-navbar-link: `start` and `end` in Outlook conditional comments around the
 * content, with the whitespace of mjml's templates.
 */
export function writeBetweenConditionalTags(output: HtmlOutput, start: string, writeContent: () => void, end: string): void {
  output.space(`
        
    `);
  output.conditional(`
    ${start}
    `);
  output.space(`
  
        `);
  writeContent();
  output.space(`
        
    `);
  output.conditional(`
    ${end}
    `);
  output.space(`
  
      `);
}
