/**
 * Each block's content checks (its `check`, blocks/*): what it needs to mean something to a reader,
 * found with a stable code at the prop's path. The walker (`checkBlocks`) locates them in the
 * document, hidden blocks included.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../src/engine/engine.js";
import { NODE_HOST } from "../src/engine/node-host.js";

const engine = createEngine({ host: NODE_HOST });

const doc = (blocks: Array<[string, Record<string, unknown>]>, visibility?: object) => ({
  template_id: "t",
  template_name: "t",
  schema_version: "1.0",
  canvas: {},
  rows: [
    {
      ...(visibility ? { visibility } : {}),
      columns: [{ children: blocks.map(([type, props], i) => ({ id: `b${i}`, type: "component", componentType: type, props })) }],
    },
  ],
});

/** `[code, severity, path in the block's props]` of one block's findings. */
function found(type: string, props: Record<string, unknown>): string[][] {
  return engine.checkBlocks(doc([[type, props]])).findings.map((f) => [f.code, f.severity, f.path.slice(7).join(".")]);
}

describe("content checks", () => {
  it("image: a source, alt text other than the placeholder (empty when decorative), a link when it is to be one", () => {
    expect(found("image", {})).toEqual([
      ["IMAGE_SOURCE_MISSING", "error", "src"],
      ["IMAGE_ALT_PLACEHOLDER", "warning", "alt"],
    ]);
    expect(found("image", { src: "https://x/a.png", alt: "" })).toEqual([]);
    expect(found("image", { src: "https://x/a.png", alt: "A cat", enabled: true })).toEqual([["IMAGE_LINK_MISSING", "warning", "link"]]);
  });

  it("button and link: a label and a URL (a merge tag counts)", () => {
    expect(found("button", { text: " ", link: "" })).toEqual([
      ["BUTTON_LABEL_MISSING", "error", "text"],
      ["BUTTON_LINK_MISSING", "error", "link"],
    ]);
    expect(found("button", { link: "{{ url.reset }}" })).toEqual([]);
    expect(found("anchor", {})).toEqual([["LINK_URL_MISSING", "error", "link"]]);
    expect(found("anchor", { text: "", link: "https://x" })).toEqual([["LINK_TEXT_MISSING", "error", "text"]]);
  });

  it("menu and social links: every item shown has a link; something is shown", () => {
    expect(found("menu", { items: [{ label: "Shop", link: "https://x" }, { label: "Help" }, { label: "Off", enabled: false }] })).toEqual([
      ["MENU_ITEM_LINK_MISSING", "error", "items.1.link"],
    ]);
    expect(found("menu", {})).toEqual([["MENU_EMPTY", "warning", "items"]]);
    expect(found("socials", { platforms: [{ name: "x" }, { icon: "https://x/i.png", link: "https://x" }] })).toEqual([
      ["SOCIAL_LINK_MISSING", "error", "platforms.0.link"],
      ["SOCIAL_NAME_MISSING", "warning", "platforms.1.name"],
    ]);
    expect(found("socials", {})).toEqual([["SOCIALS_EMPTY", "warning", "platforms"]]);
  });

  it("video: a link (its page or the fallback) and a thumbnail", () => {
    expect(found("video", {})).toEqual([
      ["VIDEO_LINK_MISSING", "error", "src"],
      ["VIDEO_COVER_MISSING", "warning", "coverImage"],
    ]);
    expect(found("video", { fallbackLink: "https://x", coverImage: "https://x/c.jpg" })).toEqual([]);
  });

  it("text blocks: something to read", () => {
    expect(found("paragraph", { content: "<p> &nbsp;</p>" })).toEqual([["PARAGRAPH_EMPTY", "info", "content"]]);
    expect(found("paragraph", { content: "<p>{{ first_name }}</p>" })).toEqual([]);
    expect(found("heading", {})).toEqual([["HEADING_EMPTY", "warning", "content"]]);
    expect(found("list", { content: "<p>not a list</p>" })).toEqual([["LIST_EMPTY", "warning", "content"]]);
    expect(found("divider", {})).toEqual([]);
    expect(found("spacer", {})).toEqual([]);
  });

  it("locates findings in the document, hidden blocks included, with the value, a message and a hint", () => {
    const hidden = { enabled: true, rules: [{ tag: "plan", operator: "==", value: "pro" }] };
    const result = engine.checkBlocks(
      doc(
        [
          ["paragraph", { content: "<p>Hi</p>" }],
          ["button", { link: "" }],
        ],
        hidden,
      ),
    );
    expect(result.valid).toBe(true);
    expect(result.findings).toEqual([
      {
        severity: "error",
        code: "BUTTON_LINK_MISSING",
        path: ["rows", "0", "columns", "0", "children", "1", "props", "link"],
        value: "",
        message: "The button has no link: it is drawn, and goes nowhere",
        hint: "Give it the URL it should open",
      },
    ]);
  });

  it("reports an invalid template's issues instead of findings", () => {
    const result = engine.checkBlocks({ template_id: "t" });
    expect(result.valid).toBe(false);
    expect(result.findings).toEqual([]);
    expect(result.issues.length).toBeGreaterThan(0);
  });
});
