/** Merge-tag positions and malformed values, shared by the library and executable tests. */
import fc from "fast-check";
import type { DynamicData } from "../../src/index.js";

/** Where a tag can stand, each as the content of one paragraph (and a button for the block props). */
export const POSITIONS = {
  text: { content: "<p>Hello {{ v }}</p>", data: (v: string): DynamicData => ({ merge_tags: { text: { v } } }) },
  attr: { content: '<p title="{{ attr.v }}">x</p>', data: (v: string): DynamicData => ({ merge_tags: { attr: { v } } }) },
  url: { content: '<p><a href="{{ url.v }}">x</a></p>', data: (v: string): DynamicData => ({ merge_tags: { url: { v: `https://example.com/${v}` } } }) },
  "url-part": { content: '<p><a href="https://example.com/?q={{ v }}">x</a></p>', data: (v: string): DynamicData => ({ merge_tags: { text: { v } } }) },
  "block-url-part": { content: "", data: (v: string): DynamicData => ({ merge_tags: { text: { v } } }) },
} as const;

export function positionTemplate(position: keyof typeof POSITIONS) {
  const block =
    position === "block-url-part"
      ? { id: "b", type: "component", componentType: "button", props: { text: "Go {{ v }}", link: "https://example.com/p/{{ v }}" } }
      : { id: "p", type: "component", componentType: "paragraph", props: { content: POSITIONS[position].content } };
  return {
    template_id: `malformed-${position}`,
    template_name: "t",
    schema_version: "1.0",
    canvas: {},
    rows: [{ id: "r", columns: [{ id: "c", children: [block] }] }],
  };
}

export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Strings made of code units, so lone surrogates are common, plus the reported reproductions. */
export const malformed = fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("\uD800", "\uDFFF", "a\uDC00b", "\uDBFF\uDBFF", "%\uD800<>\"'{}"));
