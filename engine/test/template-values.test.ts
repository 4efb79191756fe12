/**
 * Template-authored values are trusted to be the author's, not to be well formed: apart from the
 * blocks' HTML `content` (reduced to its email-safe subset: content-sanitize.test.ts), no string a template carries can add
 * markup to any target. Each string field gets a value that tries to close its attribute, its
 * <style> and <title> and open a <script>; it must either fail validation at its path or render
 * without that script.
 */
import { describe, expect, it } from "vitest";
import { RENDER_TARGETS, render, validateTemplate } from "../src/index.js";

const HOSTILE = `x"'></style></title><script>pwn()</script>`;
const doc = (canvas: object, row: object, children: object[], extra: object = {}) => ({
  template_id: "t",
  template_name: "T",
  schema_version: "1.0",
  canvas,
  rows: [{ id: "r", type: "row", ...row, columns: [{ id: "c", width: 100, children }] }],
  ...extra,
});
const block = (componentType: string, props: object) => doc({}, {}, [{ id: "b", type: "component", componentType, props: { enabled: true, ...props } }]);

const CASES: Array<[string, object]> = [
  ...["bodyBackgroundImage", "bodyBackgroundSize", "bodyBackgroundPosition", "bodyBackgroundRepeat", "preheaderText", "language"].map(
    (key): [string, object] => [`canvas.${key}`, doc({ [key]: HOSTILE }, {}, [])],
  ),
  ["template_name", doc({}, {}, [], { template_name: HOSTILE })],
  ...["backgroundImage", "backgroundSize", "backgroundPosition", "name"].map((key): [string, object] => [
    `row.${key}`,
    doc({}, { backgroundImage: "https://e.com/a.png", [key]: HOSTILE }, []),
  ]),
  ...["fontFamily", "fontWeight"].map((key): [string, object] => [`heading.${key}`, block("heading", { content: "Hi", [key]: HOSTILE })]),
  ...["text", "link", "icon", "iconAlt", "fontFamily"].map((key): [string, object] => [
    `button.${key}`,
    block("button", { link: "https://e.com", [key]: HOSTILE }),
  ]),
  ...["text", "link"].map((key): [string, object] => [`anchor.${key}`, block("anchor", { link: "https://e.com", [key]: HOSTILE })]),
  ...["src", "alt", "link"].map((key): [string, object] => [
    `image.${key}`,
    block("image", { src: "https://e.com/i.png", link: "https://e.com", [key]: HOSTILE }),
  ]),
  ...["src", "coverImage", "fallbackLink", "alt"].map((key): [string, object] => [`video.${key}`, block("video", { src: "https://e.com/v", [key]: HOSTILE })]),
  ["menu.items", block("menu", { items: [{ label: HOSTILE, link: HOSTILE, enabled: true }] })],
  ["socials.platforms", block("socials", { platforms: [{ name: HOSTILE, link: HOSTILE, icon: HOSTILE, enabled: true }] })],
  ["paragraph.mobile", block("paragraph", { content: "<p>a</p>", mobile: { color: HOSTILE, fontSize: HOSTILE, align: HOSTILE } })],
  ["canvas.dark", doc({ dark: { backgroundColor: HOSTILE, color: HOSTILE } }, {}, [])],
  ["row.dark", doc({}, { dark: { backgroundColor: HOSTILE, borderColor: HOSTILE } }, [])],
  ["paragraph.dark", block("paragraph", { content: "<p>a</p>", dark: { color: HOSTILE, linkColor: HOSTILE } })],
  ["button.dark", block("button", { link: "https://e.com", dark: { backgroundColor: HOSTILE } })],
];

describe("template values", () => {
  it("none but block content can add markup to any target: each is refused at its path or rendered inert", async () => {
    let rendered = 0;
    for (const [label, template] of CASES) {
      const validation = validateTemplate(template);
      if (!validation.valid) {
        // At the field, or inside it (a mobile override is refused at its key).
        for (const issue of validation.issues) expect(issue.loc, label).toContain(label.split(".").at(-1));
        continue;
      }
      for (const target of RENDER_TARGETS) {
        const { output } = await render(template, { target, minify: false });
        expect(output, `${label} (${target})`).not.toContain("<script>pwn");
        rendered++;
      }
    }
    // Most fields accept any text (it is escaped), so most cases must really render.
    expect(rendered).toBeGreaterThanOrEqual(60);
  });
});
