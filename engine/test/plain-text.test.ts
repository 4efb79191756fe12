/** The plain-text version: reading order, links, lists, hidden content out, values unescaped, wrapping. */
import { describe, expect, it } from "vitest";
import { render } from "../src/index.js";

const component = (id: string, componentType: string, props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id,
  type: "component",
  componentType,
  props,
  ...extra,
});
const row = (id: string, ...columns: unknown[][]) => ({
  id,
  type: "row",
  columns: columns.map((children, i) => ({ id: `${id}-c${i}`, width: Math.floor(100 / columns.length), children })),
});
const template = (...rows: unknown[]) => ({
  template_id: "t",
  template_name: "T",
  schema_version: "1.0",
  canvas: { preheaderText: "PREHEADER {{ name }}" },
  rows,
});

async function text(tpl: unknown, dynamicData: Record<string, unknown> = {}): Promise<string> {
  const result = await render(tpl, { target: "html", dynamicData, plainText: true });
  return result.text ?? "(none)";
}

describe("plain text", () => {
  it("is only returned when asked for", async () => {
    const result = await render(template(), { target: "html" });
    expect(result).not.toHaveProperty("text");
  });

  it("reads headings, paragraphs, lists, buttons, links and images in order, without the preheader", async () => {
    const tpl = template(
      row("r1", [
        component("h", "heading", { content: "Hello {{ name }}", level: "h1" }),
        component("p", "paragraph", { content: '<p>First &amp; <strong>bold</strong>.</p><p>Read <a href="https://example.com/a">the post</a>.</p>' }),
        component("l", "list", { content: "<ul><li>One</li><li>Two<ul><li>Two point one</li></ul></li></ul><ol><li>Step</li><li>Step</li></ol>" }),
        component("b", "button", { text: "Go", link: "https://example.com/go?u={{ name }}" }),
        component("i", "image", { src: "https://example.com/x.png", alt: "A photo" }),
        component("d", "divider", {}),
        component("s", "spacer", {}),
      ]),
    );
    expect(await text(tpl, { merge_tags: { text: { name: "Ana & Bo <3" } } })).toBe(
      [
        "Hello Ana & Bo <3",
        "",
        "First & bold.",
        "",
        "Read the post (https://example.com/a).",
        "",
        "- One",
        "- Two",
        "  - Two point one",
        "",
        "1. Step",
        "2. Step",
        "",
        "Go (https://example.com/go?u=Ana%20%26%20Bo%20%3C3)",
        "",
        "A photo",
        "",
        "---",
      ].join("\n"),
    );
  });

  it("leaves out what visibility rules hide and desktop-hidden (phone-only) blocks", async () => {
    const hidden = { enabled: true, rules: [{ tag: "plan", operator: "==", value: "pro" }] };
    const tpl = template(
      row("r1", [component("a", "paragraph", { content: "<p>Everyone</p>" }), component("b", "paragraph", { content: "<p>Pro only</p>", visibility: hidden })]),
      row("r2", [
        component("c", "paragraph", { content: "<p>Phone version</p>", desktopHide: true }),
        component("d", "paragraph", { content: "<p>Desktop version</p>", mobileHide: true }),
      ]),
    );
    expect(await text(tpl, { context: { plan: "free" } })).toBe("Everyone\n\nDesktop version");
    expect(await text(tpl, { context: { plan: "pro" } })).toBe("Everyone\n\nPro only\n\nDesktop version");
  });

  it("drops a link whose merge value has an unsafe scheme, keeping the label", async () => {
    const tpl = template(row("r1", [component("b", "button", { text: "Open", link: "{{ url.target }}" })]));
    expect(await text(tpl, { merge_tags: { url: { target: "javascript:alert(1)" } } })).toBe("Open");
  });

  it("wraps at 78 columns without splitting words, and keeps a one-line-per-column row on one line", async () => {
    const long = "word ".repeat(40).trim();
    const tpl = template(
      row("r1", [component("p", "paragraph", { content: `<p>${long}</p>` })]),
      row("r2", [component("a", "paragraph", { content: "Item" })], [component("b", "paragraph", { content: "$5.00" })]),
    );
    const lines = (await text(tpl)).split("\n");
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(78);
    expect(lines.slice(0, -2).join(" ")).toBe(long);
    expect(lines.at(-1)).toBe("Item  $5.00");
  });

  it("is the same for every target", async () => {
    const tpl = template(row("r1", [component("h", "heading", { content: "Hi {{ name|'there' }}" })]));
    const texts = await Promise.all((["html", "mjml", "react-email"] as const).map(async (target) => (await render(tpl, { target, plainText: true })).text));
    expect(new Set(texts)).toEqual(new Set(["Hi there"]));
  });
});
