import { describe, expect, it } from "vitest";
import { parseMergeTags } from "../src/data/merge-tags.js";
import { render } from "../src/index.js";

describe("merge-tag syntax", () => {
  it.each([
    ["{{name}}", { name: "name", group: undefined, fallback: undefined }],
    ["{{  name  }}", { name: "name", group: undefined, fallback: undefined }],
    ["{{ text.name }}", { name: "name", group: "text", fallback: undefined }],
    ["{{url.link}}", { name: "link", group: "url", fallback: undefined }],
    ["{{ attr.title|'A title' }}", { name: "title", group: "attr", fallback: "A title" }],
    ['{{ name|"friend" }}', { name: "name", group: undefined, fallback: "friend" }],
    ["{{ name | friend }}", { name: "name", group: undefined, fallback: "friend" }],
    ["{{ name|'' }}", { name: "name", group: undefined, fallback: "" }],
  ])("%s", (source, expected) => {
    const [part] = parseMergeTags(source);
    expect(part).toMatchObject(expected);
  });

  it("keeps literal text around tags and leaves non-tags alone", () => {
    expect(parseMergeTags("Hi {{name}}, {not a tag} {{ }}")).toEqual(["Hi ", expect.objectContaining({ name: "name" }), ", {not a tag} {{ }}"]);
  });
});

const template = (content: string, link = "https://example.com") => ({
  template_id: "t",
  template_name: "T",
  schema_version: "1.0",
  canvas: {},
  rows: [
    {
      columns: [
        {
          children: [
            { type: "component", componentType: "paragraph", props: { content } },
            { type: "component", componentType: "button", props: { text: "Go", link } },
          ],
        },
      ],
    },
  ],
});

describe("merge-tag resolution", () => {
  it("reads the group that fits the position, then text, url, attr", async () => {
    const { output } = await render(template("<p>{{ who }}</p>", "{{ who }}"), {
      target: "mjml",
      dynamicData: { merge_tags: { text: { who: "Ann" }, url: { who: "https://ann.example" } } },
    });
    expect(output).toContain("<p>Ann</p>");
    expect(output).toContain('href="https://ann.example"');
  });

  it("falls back across groups when the fitting one lacks the name", async () => {
    const { output } = await render(template("<p>{{ only_attr }}</p>"), { target: "mjml", dynamicData: { merge_tags: { attr: { only_attr: "A" } } } });
    expect(output).toContain("<p>A</p>");
  });

  it("a qualified tag reads only its own group", async () => {
    const { output, warnings } = await render(template("<p>[{{ url.name }}]</p>"), { target: "mjml", dynamicData: { merge_tags: { text: { name: "T" } } } });
    expect(output).toContain("<p>[]</p>");
    expect(warnings).toEqual([expect.objectContaining({ code: "MISSING_MERGE_TAG" })]);
  });

  it("uses the pipe default, warns, and strict lists every missing tag", async () => {
    const t = template("<p>{{ a|'dflt' }} {{ b }} {{ c }}</p>");
    const { output, warnings } = await render(t, { target: "mjml" });
    expect(output).toContain("<p>dflt  </p>");
    expect(warnings.map((w) => w.code)).toEqual(["MISSING_MERGE_TAG", "MISSING_MERGE_TAG", "MISSING_MERGE_TAG"]);
    await expect(render(t, { target: "html", strict: true })).rejects.toMatchObject({
      code: "RENDER_ERROR",
      message: "Missing merge tags: b, c",
      issues: [expect.objectContaining({ loc: ["dynamic_data", "merge_tags", "b"] }), expect.objectContaining({ loc: ["dynamic_data", "merge_tags", "c"] })],
    });
  });

  it("percent-encodes a tag inside a URL and checks the scheme of a whole-URL tag", async () => {
    const t = template('<p><a href="https://example.com/s?q={{ q }}">s</a></p>', "{{ url.next }}");
    const ok = await render(t, { target: "mjml", dynamicData: { merge_tags: { text: { q: "a b&c" }, url: { next: "mailto:a@b.c" } } } });
    expect(ok.output).toContain('href="https://example.com/s?q=a%20b%26c"');
    expect(ok.output).toContain('href="mailto:a@b.c"');
    const bad = await render(t, { target: "mjml", dynamicData: { merge_tags: { text: { q: "x" }, url: { next: " javascript:alert(1)" } } } });
    expect(bad.output).toContain('<mj-button href="#"');
    expect(bad.warnings).toContainEqual(expect.objectContaining({ code: "UNSAFE_URL" }));
  });

  it("escapes for JSX including braces", async () => {
    const { output } = await render(template("<p>{{ v }}</p>"), { target: "react-email", dynamicData: { merge_tags: { text: { v: "{x}<y>" } } } });
    expect(output).toContain("&#123;x&#125;&lt;y&gt;");
  });
});
