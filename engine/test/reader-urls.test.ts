/**
 * The reader refuses an author's URL with a scheme other than http, https, mailto or tel wherever
 * the block's editor description says a prop holds a URL: its own props and its lists' entries
 * (menu items, social links). The prop reads as empty and a warning names its path.
 */
import { describe, expect, it } from "vitest";
import { parseTemplate } from "../src/document/parse.js";

const withBlock = (componentType: string, props: Record<string, unknown>) => ({
  template_id: "t",
  template_name: "t",
  schema_version: "1.0",
  canvas: {},
  rows: [{ columns: [{ children: [{ type: "component", componentType, props }] }] }],
});
const at = (...rest: string[]) => ["rows", "0", "columns", "0", "children", "0", "props", ...rest];

describe("an author's URL the reader refuses", () => {
  it("in a block's own prop and in its list's entries", () => {
    const menu = parseTemplate(
      withBlock("menu", {
        items: [
          { label: "Shop", link: "https://example.com/shop" },
          { label: "Run", link: " JavaScript:alert(1)" },
        ],
      }),
    );
    expect(menu.warnings).toMatchObject([{ code: "UNSAFE_URL", path: at("items", "1", "link") }]);
    const row = menu.template?.rows[0] as unknown as { columns: { children: { props: { items: { link: string }[] } }[] }[] };
    expect(row.columns[0]!.children[0]!.props.items.map((item) => item.link)).toEqual(["https://example.com/shop", ""]);
    const button = parseTemplate(withBlock("button", { text: "Go", link: "data:text/html,x" }));
    expect(button.warnings).toMatchObject([{ code: "UNSAFE_URL", path: at("link") }]);
  });
});
