/**
 * Where body components write their markup, in document order: the interface, and the two simple
 * outputs (a component's render() string; everything scanned). The body's writer is in document.ts.
 */
import { innerMarkup, type MarkupValue } from "./conditional-template.js";

/**
 * Where a body component writes its markup, in document order (see BodyComponent.write).
 * `text`: markup that holds no `<!` and does not end with `<` (so no conditional comment syntax, alone
 * or with what follows it), and is not only whitespace;
 * `space`: whitespace; `conditional`: an Outlook conditional comment (`<!--[if mso | IE]>` + inner +
 * ENDIF) the component writes itself, its inner holding no `<!`: the component's template text
 * `before`, or with a value, `before` + `value` + `after` (see conditional-template.ts); `scan`: any
 * other markup.
 */
export interface HtmlOutput {
  text(markup: string): void;
  space(whitespace: string): void;
  conditional(before: string, value?: MarkupValue, after?: string): void;
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
  conditional(before: string, value?: MarkupValue, after?: string): void {
    this.html += MSO_IE + innerMarkup(before, value, after) + ENDIF;
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
  conditional(before: string, value?: MarkupValue, after?: string): void {
    this.output.scan(MSO_IE + innerMarkup(before, value, after) + ENDIF);
  }
  scan(markup: string): void {
    this.output.scan(markup);
  }
}

/**
 * What mjml writes as `${conditionalTag(start)}\n${content}\n${conditionalTag(end)}` in mj-text
 * (with a height) and mj-navbar-link, with the whitespace of mjml's templates: `writeStart` writes
 * the first conditional comment, `end` is the second's inner markup (`\n    ${end}\n    `).
 */
export function writeBetweenConditionalTags(output: HtmlOutput, writeStart: () => void, writeContent: () => void, end: string): void {
  output.space(`
        
    `);
  writeStart();
  output.space(`
  
        `);
  writeContent();
  output.space(`
        
    `);
  output.conditional(end);
  output.space(`
  
      `);
}
