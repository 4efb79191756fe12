/**
 * A list block writes its content with the lists' and items' styles in their start tags. Where it
 * can, it adds them to the content's own nodes (read once already) instead of reading the styled
 * content again: the nodes must be what reading the styled content gives, whatever the content.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BlockRenderContext } from "../src/blocks/block.js";
import { listProps, listStyles, styledContent, styledNodes } from "../src/blocks/list/index.js";
import { ContentHtml } from "../src/markup/content.js";

function expectAsStyledContentReads(content: string, direction: "ltr" | "rtl" | "auto" = "ltr"): void {
  const p = listProps().parse({ content, paddingLeft: 22, itemSpacing: 6 });
  const ctx = { content: new ContentHtml(), direction } as unknown as BlockRenderContext;
  expect(styledNodes(p, ctx)).toEqual(new ContentHtml().nodes(styledContent(p.content, listStyles(p, ctx))));
}

describe("a list's styled content: the content's nodes with the styles added, as reading it styled gives", () => {
  it.each([
    ["a list", "<ul><li>a</li><li>b</li></ul>"],
    ["upper case", "<OL><LI>x</LI></OL>"],
    ["attributes", '<ul class="c"><li dir="rtl" title="t">a</li></ul>'],
    ["a list's own style", '<ul style="color:red"><li>a</li></ul>'],
    ["an item's own style", '<ul><li style="margin:0">a</li></ul>'],
    ["white space in tags", '<ul>\n<li\tclass="x">a</li><li\n>b</li></ul>'],
    ["a tag in a comment", "<ul><!-- <li> --><li>a</li></ul>"],
    ["a tag in an attribute value", '<ul><li><a href="https://e.com" title="<li>">a</a></li></ul>'],
    ["a tag in a merge tag's default", "<ul><li>{{ name|'<li>x' }}</li></ul>"],
    ["a self-closed item", "<ul><li/>a</ul>"],
    ["a link element", "<ul><link><li>a</li></ul>"],
    ["a no-break space after the name", "<ul><li\u00a0>a</li></ul>"],
    ["a slot delimiter in a tag name", "<ul><l\uE000i>a</li></ul>"],
    ["a slot delimiter in a tag name, a tag in an attribute value", '<ul><l\uE000i>a</li><a title="<li>">x</a></ul>'],
    ["items in a script", "<ul><script><li>a</li></script><li>b</li></ul>"],
    ["a list in a dropped element", "<object><ul><li>a</li></ul></object><ul><li>b</li></ul>"],
    ["an event handler", '<ul><li onclick="x()">a</li></ul>'],
    ["nested lists", "<ul><li>a<ol><li>b</li></ol></li></ul>"],
    ["no list", "<p>text</p>"],
    ["nothing", ""],
    ["a tag at the end", "<ul><li>a</li></ul><li"],
  ])("%s", (_name, content) => {
    for (const direction of ["ltr", "rtl", "auto"] as const) expectAsStyledContentReads(content, direction);
  });

  it("on generated content", () => {
    const piece = fc.constantFrom(
      ...["<ul>", "</ul>", "<ol>", "</ol>", "<li>", "</li>", "<LI>", "<Ul>", "<li ", "<ul ", 'class="x">', 'style="color:red">', "<li/>", "<li\t>"],
      ...["<!--", "-->", "text", "<", ">", " ", "\n", "\u00a0", "\uE000", "{{ a|'<li>' }}", "{{ b }}", "<link>", '<a title="<li>">', "</a>", "<p>", "</p>"],
      ...["<b>", "</b>", "<script>", "</script>", "<object>", "</object>", '"', "="],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => expectAsStyledContentReads(pieces.join(""))),
      { numRuns: 3000 },
    );
  });
});
