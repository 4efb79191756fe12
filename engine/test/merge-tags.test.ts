import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasMergeTags, MERGE_TAG_GROUPS, MERGE_TAG_PATTERN, type MergeTagGroup, parseMergeTags } from "../src/data/merge-tags.js";
import { render } from "../src/index.js";
import { Emitter } from "../src/markup/emitter.js";

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

/** What `matchAll` with the grammar gives, in parseMergeTags's shape: the reference the scanner must agree with. */
function byPattern(input: string): Array<string | { name: string; group: MergeTagGroup | undefined; fallback: string | undefined; source: string }> {
  const parts: Array<string | { name: string; group: MergeTagGroup | undefined; fallback: string | undefined; source: string }> = [];
  let last = 0;
  for (const match of input.matchAll(MERGE_TAG_PATTERN)) {
    if (match.index > last) parts.push(input.slice(last, match.index));
    const [source, group, name, single, double, bare] = match;
    parts.push({ name: name ?? "", group: group as MergeTagGroup | undefined, fallback: single ?? double ?? bare?.trim(), source });
    last = match.index + source.length;
  }
  if (last < input.length) parts.push(input.slice(last));
  return parts;
}

describe("merge-tag scanning", () => {
  /** Pieces that make tags, near-tags and the cases where the grammar backtracks (a quote then no `}}`, a lone `}`). */
  const piece = fc.constantFrom(
    "{{",
    "}}",
    "{",
    "}",
    "|",
    "'",
    '"',
    " ",
    "\n",
    "\u3000",
    "a",
    "Name_1",
    "-",
    ".",
    "9",
    ...MERGE_TAG_GROUPS.map((g) => `${g}.`),
  );
  const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(""));

  it("finds exactly the matches of the grammar", () => {
    fc.assert(
      fc.property(text, (input) => {
        expect(parseMergeTags(input)).toEqual(byPattern(input));
        expect(hasMergeTags(input)).toBe(byPattern(input).some((part) => typeof part !== "string"));
      }),
      { numRuns: 5000, seed: 20261126 },
    );
  });

  it.each([
    ["bare defaults without a closing brace", "{{ a|"],
    ["quoted defaults never closed", "{{ a|'"],
    ["quoted defaults closed, then no }}", "{{ a|'x' "],
    ["opening braces", "{"],
  ])("is linear in the text: 4 MB of %s", (_label, unit) => {
    const input = `${unit.repeat(Math.ceil(4_000_000 / unit.length))}} x }}'`;
    const started = process.cpuUsage();
    parseMergeTags(input);
    const { user, system } = process.cpuUsage(started);
    // CPU time, not wall time: ~0.4 s on a 2-core VM. Scanning on from every start instead took 18 s,
    // and the grammar's own regular expression (100 KB of `{{ a|`: 8 s) hours; 4 s separates them.
    expect((user + system) / 1000).toBeLessThan(4000);
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

describe("where a tag is written", () => {
  it("a slot asks the locator for its path at the site that wrote it when the path is read, once", () => {
    const out = new Emitter("markup");
    const asked: string[] = [];
    const first = { at: "first" };
    out.locate = (site, ref) => {
      asked.push(ref.name);
      return [(site as typeof first).at];
    };
    out.site = first;
    out.text("Hi {{ name }}");
    out.site = { at: "second" };
    out.locate = () => ["third"];
    expect(asked).toEqual([]);
    expect(out.slots[0]?.path).toEqual(["first"]);
    expect(out.slots[0]?.path).toEqual(["first"]);
    expect(asked).toEqual(["name"]);
  });

  it("a missing tag's warning names the prop holding it", async () => {
    const { warnings } = await render(template("<p>Hi {{ who }}</p>", "https://example.com/?c={{ campaign }}"), { target: "html" });
    const block = ["rows", "0", "columns", "0", "children"];
    expect(warnings.map((w) => w.path)).toEqual([
      [...block, "0", "props", "content"],
      [...block, "1", "props", "link"],
    ]);
  });
});
