/**
 * Text direction (spec/template.md, "Direction"): what each target says of the email's direction and
 * of a block's own, and where `start`/`end` and the author's sides land. The fixtures
 * `render/direction-*` hold whole emails; the browser suite checks how they are seen.
 */
import { describe, expect, it } from "vitest";
import { render } from "../src/index.js";

type Props = Record<string, unknown>;

function template(canvas: Props, blocks: Array<[type: string, props: Props]>, columns = 1) {
  return {
    template_id: "direction",
    template_name: "Direction",
    schema_version: "1.0",
    canvas,
    rows: [
      {
        type: "row",
        columns: Array.from({ length: columns }, (_, column) => ({
          children: blocks.map(([type, props]) => ({ type: "component", componentType: type, props: { ...props, content: `<p>col${column}</p>` } })),
        })),
      },
    ],
  };
}

const renderAll = async (tpl: object) => {
  const [html, mjml, tsx] = await Promise.all(
    (["html", "mjml", "react-email"] as const).map(async (target) => (await render(tpl, { target, minify: false })).output),
  );
  return { html: html!, mjml: mjml!, tsx: tsx! };
};

/**
 * The alignment of each text block in the html, in document order (the blocks' text is `colN`): on
 * mj-text's div, or on a heading's own element (the html has no style on a div that its heading overrides).
 */
const textAlignments = (html: string) => html.match(/text-align:(left|right)(?=[^>"]*"\s*>(?:<h\d[^>]*>)?<p>col)/g);

describe("text direction", () => {
  it("left to right by default: the document says so, and nothing else does", async () => {
    const { html, mjml, tsx } = await renderAll(template({}, [["paragraph", {}]], 2));
    expect(mjml).toContain(`<mjml lang="en-US" dir="ltr">`);
    expect(html).toContain(`<html lang="en-US" dir="ltr"`);
    expect(tsx).toContain(`<Html lang="en-US" dir="ltr">`);
    expect(`${mjml}${tsx}`).not.toMatch(/direction="|<Row dir|<Body dir|dir="rtl"|dir="auto"/);
    expect(textAlignments(html)).toEqual([`text-align:left`, `text-align:left`]);
  });

  it("right to left: rows mirrored, the default alignment on the right, the author's sides kept, `end` on the left", async () => {
    const blocks: Array<[string, Props]> = [
      ["paragraph", {}],
      ["heading", { align: "left" }],
      ["paragraph", { align: "end" }],
    ];
    const { html, mjml, tsx } = await renderAll(template({ language: "ar", direction: "rtl" }, blocks, 2));
    expect(html).toContain(`<html lang="ar" dir="rtl"`);
    expect(mjml).toMatch(/<mj-section[^>]* direction="rtl"/);
    expect(mjml.match(/<mj-column[^>]* direction="rtl"/g)).toHaveLength(2);
    // mjml's own default (left) is not written in the MJML: the html says where each text lands.
    expect(mjml.match(/align="(left|right)"/g)).toEqual([`align="right"`, `align="right"`]);
    expect(textAlignments(html)).toEqual(Array(2).fill([`text-align:right`, `text-align:left`, `text-align:left`]).flat());
    expect(tsx).toContain(`<Html lang="ar" dir="rtl">`);
    expect(tsx).toMatch(/<Body dir="rtl"/);
    expect(tsx).toMatch(/<Container dir="rtl"/);
    expect(tsx).toContain(`<Row dir="rtl">`);
    expect(tsx.match(/textAlign: "(left|right)"/g)).toEqual(Array(2).fill([`textAlign: "right"`, `textAlign: "left"`, `textAlign: "left"`]).flat());
  });

  it("a block of its own direction says it: on its element, or inside the mjml components that take no dir", async () => {
    const blocks: Array<[string, Props]> = [
      ["paragraph", { direction: "ltr" }],
      ["heading", { direction: "ltr" }],
      ["list", { direction: "ltr", content: "<ul><li>x</li></ul>" }],
      ["button", { direction: "ltr", text: "Go", link: "https://example.com" }],
      ["menu", { direction: "ltr", items: [{ label: "Shop", link: "https://example.com" }] }],
    ];
    const tpl = template({ direction: "rtl" }, blocks);
    // `template` gives every block this content; a list's is its own.
    (tpl.rows[0]!.columns[0]!.children[2]!.props as Props)["content"] = "<ul><li>x</li></ul>";
    const { mjml, tsx } = await renderAll(tpl);
    expect(mjml).toContain(`<div dir="ltr"><p>col0</p></div></mj-text>`);
    expect(mjml).toMatch(/<h2 dir="ltr" style="[^"]*text-align:left/);
    expect(mjml).toContain(`<div dir="ltr"><ul style="margin:0;padding-left:20px">`);
    expect(mjml).toContain(`<span dir="ltr">Go</span></mj-button>`);
    expect(mjml).toContain(`<span dir="ltr">Shop</span></mj-navbar-link>`);
    expect(tsx.match(/ dir="ltr"/g)).toHaveLength(5); // the five blocks
  });

  it("auto: each text block takes the direction of its own text, aligned to its start; rows keep their order", async () => {
    const { html, mjml, tsx } = await renderAll(
      template(
        { direction: "auto" },
        [
          ["paragraph", {}],
          ["heading", {}],
        ],
        2,
      ),
    );
    expect(html).toContain(`<html lang="en-US" dir="auto"`);
    expect(mjml).not.toContain(`direction="rtl"`);
    expect(mjml.match(/<div dir="auto" style="text-align:start">/g)).toHaveLength(2);
    expect(mjml.match(/<h2 dir="auto" style="[^"]*text-align:start/g)).toHaveLength(2);
    expect(tsx).not.toContain("<Row dir");
    expect(tsx.match(/<Section dir="auto"/g)).toHaveLength(2);
  });

  it("puts a list's indent and a button icon's gap on the side the direction gives them", async () => {
    const blocks: Array<[string, Props]> = [
      ["list", {}],
      ["button", { text: "Go", link: "https://example.com", icon: "https://example.com/i.png", iconPosition: "before" }],
    ];
    const tpl = template({ direction: "rtl" }, blocks);
    (tpl.rows[0]!.columns[0]!.children[0]!.props as Props)["content"] = "<ol><li>x</li></ol>";
    const { mjml } = await renderAll(tpl);
    expect(mjml).toContain(`<ol style="margin:0;padding-right:20px">`);
    expect(mjml).toMatch(/<img [^>]*style="[^"]*margin-left:8px/);
  });

  it("refuses a direction it does not know, at its path", async () => {
    await expect(render(template({ direction: "right" }, []), { target: "html" })).rejects.toMatchObject({
      issues: [expect.objectContaining({ loc: ["canvas", "direction"] })],
    });
  });
});
