/**
 * What mjml writes that no client reads, removed from the html target: a solid `background:#x`
 * repeated as `background-color:#x` (the longhand alone is what every client, Outlook included,
 * reads: mjml adds it for the clients that drop the shorthand), and empty `style=""`/`class=""`
 * attributes. Template text never contains these (its quotes are escaped), and merge-tag values are
 * substituted after this step.
 */
const REPEATED_BACKGROUND = /background:([^;"'{}()]+);background-color:\1(;?)/g;
const EMPTY_ATTRIBUTE = / (?:style|class)=""/g;

export function removeHtmlWaste(html: string): string {
  return html.replace(REPEATED_BACKGROUND, "background-color:$1$2").replace(EMPTY_ATTRIBUTE, "");
}
