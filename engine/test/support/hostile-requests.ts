/**
 * Requests within the limits, built to be expensive: up to the node limit, text made of the pieces
 * that once made a step quadratic or deep (unclosed tags, nesting, references, comments), tags
 * repeated in every block and position, long values of characters that escape large, visibility
 * rules searching long context values. For the cost property (test/bounded-cost-binary.test.ts).
 */
import fc from "fast-check";
import { DEFAULT_LIMITS } from "../../src/index.js";

const PIECES = [
  "{{ v }}",
  "{{ url.u }}",
  "{{ attr.a }}",
  "{{ v|'",
  "{{ a|",
  "{{",
  "}}",
  "<b>",
  "</b>",
  "<p>",
  '<a href="{{ url.u }}">',
  "</a>",
  "<ul><li>",
  "<!--",
  "&#106;",
  "&amp;",
  '<span style="exp/**/ression(',
  '"',
  "'",
  "<",
  " ",
  "\n",
  "text ",
];

/** Text of `pieces` repeated to `size` characters or so. */
const text = (size: number) =>
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((pieces) => {
    const unit = pieces.join("");
    return unit.repeat(Math.max(1, Math.round(size / unit.length)));
  });

/** A value that escapes large in every position: quotes, angle brackets, braces, spaces, non-ASCII, a URL. */
const value = fc
  .tuple(fc.constantFrom('"', "<", "{", " ", "é", "€", "a", "javascript:x", "https://x/?a=b&c"), fc.constantFrom(0, 1000, 100_000, 1_000_000))
  .map(([unit, size]) => unit.repeat(Math.floor(size / unit.length)));

const rule = (size: number) =>
  fc.record({
    tag: fc.constantFrom("bio", "plan"),
    operator: fc.constantFrom("contains", "not_contains", "==", "!=", "starts_with", "in", ">", "date_on", "is_not_empty"),
    value: fc.oneof(fc.constantFrom("pro", "a", "é"), text(Math.min(size, 2000))),
  });

const block = (size: number) =>
  fc.oneof(
    text(size).map((content) => ({ type: "paragraph", props: { content } })),
    text(size).map((content) => ({ type: "heading", props: { content } })),
    fc.tuple(text(size / 10), text(size / 10)).map(([label, link]) => ({ type: "button", props: { text: label, link: `https://example.com/${link}` } })),
    fc
      .tuple(text(size / 10), text(size / 10))
      .map(([alt, src]) => ({ type: "image", props: { alt, src: `{{ url.u }}${src}`, link: "{{ url.u }}", enabled: true } })),
    fc.array(text(size / 4), { maxLength: 3 }).map((items) => ({ type: "list", props: { items } })),
    fc.constant({ type: "divider", props: {} }),
  );

const visibleBlock = (size: number) =>
  fc
    .tuple(block(size), fc.option(fc.array(rule(size), { minLength: 1, maxLength: 6 }), { nil: undefined, freq: 2 }))
    .map(([b, rules]) => (rules === undefined ? b : { ...b, props: { ...b.props, visibility: { enabled: true, match: "any", rules } } }));

/** Near the node limit (a row of one column of one or two blocks, a list of up to 3 entries: 3–10 nodes), templates up to ~1.5 MB, values up to 1 MB. */
export const hostileRequest = fc
  .tuple(
    fc.constantFrom(1, 20, 200, Math.floor(DEFAULT_LIMITS.maxNodes / 10)),
    fc.constantFrom(100, 5000, 50_000, 1_500_000),
    fc.constantFrom("html", "mjml", "react-email"),
    fc.boolean(),
    value,
    value,
    value,
  )
  .chain(([rows, textSize, target, plainText, v, u, bio]) => {
    const size = Math.max(20, Math.min(textSize, 1_500_000 / rows));
    return fc.array(fc.array(visibleBlock(size), { minLength: 1, maxLength: 2 }), { minLength: rows, maxLength: rows }).map((columns) => ({
      target,
      options: { plain_text: plainText },
      template: {
        template_id: "hostile",
        template_name: "{{ v }}",
        schema_version: "1.0",
        canvas: { preheaderText: "{{ v }}" },
        rows: columns.map((children) => ({ columns: [{ children }] })),
      },
      dynamic_data: { merge_tags: { text: { v }, url: { u }, attr: { a: v.slice(0, 1000) } }, context: { bio, plan: "pro" } },
    }));
  });
