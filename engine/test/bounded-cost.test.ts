/**
 * Cost bounded before work (spec/template.md, "Limits"): the output's size is settled before it is
 * built, each distinct value is escaped once however many slots it fills, the plain text stops at the
 * limit, visibility rules cost their own length plus one pass per context value, and content nested
 * past what the renderers walk is unwrapped. Times here are CPU times with margins of 10× or more
 * over what a loaded 2-core machine needs; the figures that matter are structural (escapes, sources).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeUnsafeUrlChars, escapeHtml, escapeJsx, replaceLoneSurrogates } from "../src/data/escape.js";
import { containsText, evaluateRule, MAX_CONTEXT_SEARCH, normalizeContext } from "../src/data/visibility.js";
import { parseTemplate } from "../src/document/parse.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import { plainTextWithin } from "../src/engine/output-bound.js";
import { DEFAULT_LIMITS, RENDER_TARGETS, RenderError, type RenderTarget, render } from "../src/index.js";
import { Emitter } from "../src/markup/emitter.js";
import { MAX_CONTENT_DEPTH } from "../src/markup/sanitize-html.js";
import { compileOutput, ESCAPE_GROWTH, lookupIn, substitute } from "../src/markup/substitute.js";
import { AMPLIFICATION_DATA, AMPLIFICATION_TEMPLATE } from "./support/amplification.js";

const doc = (rows: unknown[]) => ({ template_id: "bounded", template_name: "Bounded", schema_version: "1.0", canvas: {}, rows });
const paragraphRow = (content: string, props: object = {}) => ({ columns: [{ children: [{ type: "paragraph", props: { content, ...props } }] }] });

function cpuMs<T>(run: () => T): { result: T; ms: number } {
  const started = process.cpuUsage();
  const result = run();
  const { user, system } = process.cpuUsage(started);
  return { result, ms: (user + system) / 1000 };
}

async function refusal(promise: Promise<unknown>): Promise<RenderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RenderError);
  return error as RenderError;
}

describe("the output's size is settled before it is built", () => {
  it.each(RENDER_TARGETS)("%s: the amplification probe (7.9 GB asked for) is refused with output_too_large, and the next render answers", async (target) => {
    await render(AMPLIFICATION_TEMPLATE, { target }); // compiled and cached: what follows is the per-recipient cost
    const started = process.cpuUsage();
    const error = await refusal(render(AMPLIFICATION_TEMPLATE, { target, dynamicData: AMPLIFICATION_DATA }));
    const { user, system } = process.cpuUsage(started);
    expect(error.issues).toEqual([{ loc: [], msg: expect.stringContaining("bytes of UTF-8, over the limit of 16777216"), type: "output_too_large" }]);
    // ~70 ms of CPU (one escape of 64 KB and a count over 120,000 slots); substituting first took minutes and gigabytes.
    expect((user + system) / 1000).toBeLessThan(2000);
    await expect(render(doc([paragraphRow("<p>next</p>")]), { target })).resolves.toMatchObject({ target });
  });

  it("a tag filling 120,000 slots is escaped once: one source, one string shared by every slot", () => {
    const out = new Emitter("markup");
    const source = `${out.text("{{ v }} ".repeat(120_000))}|${out.url("https://example.com/{{ v }}")}`;
    const compiled = compileOutput(source, out.slots, "markup");
    const substitution = substitute(compiled, { merge_tags: { text: { v: "<b>" } } });
    expect(substitution.sources.map(({ kind, tokens }) => ({ kind, tokens }))).toEqual([
      { kind: "markup", tokens: 120_000 },
      { kind: "url-part", tokens: 1 },
    ]);
    const values = substitution.values();
    expect(values).toHaveLength(120_001);
    expect(new Set(values)).toEqual(new Set(["&lt;b&gt;", "%3Cb%3E"]));
  });

  it("a refusal counts the largest values first and stops: values not reached are never escaped", async () => {
    const huge = '"'.repeat(3_000_000);
    const template = doc([paragraphRow(`<p>{{ a }} {{ b }} {{ c }}</p>`)]);
    const error = await refusal(render(template, { target: "html", dynamicData: { merge_tags: { text: { a: huge, b: huge.slice(1), c: "x" } } } }));
    // a alone is 18,000,000 bytes escaped (`&quot;` each): over 16 MiB before b is escaped.
    expect(error.message).toMatch(/^Output too large: at least 18\d{6} bytes, the limit is 16777216$/);
  });

  it("an output just under the limit still renders, whatever the escape growth could have been", async () => {
    // 2.9 M characters that escape to themselves: the bound (×6) is over 16 MiB, the output is not.
    const value = "x".repeat(2_900_000);
    const { output } = await render(doc([paragraphRow("<p>{{ v }}</p>")]), { target: "html", dynamicData: { merge_tags: { text: { v: value } } } });
    expect(output).toContain(value);
  });

  it("a value longer than 64 Ki code units is escaped, cleaned and encoded exactly as its pieces are (the long paths agree with the short)", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("&", "<", ">", '"', "'", "{", "}", " ", "\u0001", "\u3000", "é", "\uD83D", "\uDE00", "a"),
          minLength: 1,
          maxLength: 40,
        }),
        (piece) => {
          const times = Math.ceil(70_000 / piece.length);
          const long = piece.repeat(times);
          for (const f of [escapeHtml, escapeJsx, encodeUnsafeUrlChars]) expect(f(long)).toBe(f(piece).repeat(times));
          // Pieces can pair up across their boundaries: the standard's own well-forming is the reference.
          expect(replaceLoneSurrogates(long) ?? long).toBe((long as string & { toWellFormed(): string }).toWellFormed());
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });

  it("ESCAPE_GROWTH holds: no value escapes to more UTF-8 bytes per code unit than its kind allows, in either flavour", () => {
    const hostile = fc.array(
      fc.oneof(
        fc.constantFrom('"', "'", "&", "<", ">", "{", "}", "(", ")", " ", "\u3000", "\uFEFF", "\u2028", "\uD800", "\uDC00", "\u0001", "é", "€", "😀", "a"),
        fc.string({ unit: "grapheme" }),
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(hostile, (pieces) => {
        const value = pieces.join("");
        for (const flavor of ["markup", "jsx"] as const) {
          const out = new Emitter(flavor);
          const source = `${out.text("{{ v }}")}|${out.url("{{ v }}")}|${out.url("https://example.com/?q={{ v }}")}`;
          const substitution = substitute(compileOutput(source, out.slots, flavor), { merge_tags: { text: { v: value }, url: { v: value } } });
          for (const [i, { kind }] of substitution.sources.entries()) {
            expect(Buffer.byteLength(substitution.escaped(i), "utf8")).toBeLessThanOrEqual(value.length * ESCAPE_GROWTH[kind]);
          }
        }
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });
});

describe("the plain text is held to the output limit as it is built", () => {
  it("stops once the values put in pass the limit, before the text is assembled", () => {
    const { template } = parseTemplate(doc([paragraphRow(`<p>${"{{ v }} ".repeat(200)}</p>`)]));
    const lookup = lookupIn({ merge_tags: { text: { v: "y".repeat(1000) } } });
    expect(plainTextWithin(template!, () => true, lookup, 1_000_000, NODE_HOST.utf8Length)).toHaveLength(200 * 1000 + 199);
    let error: unknown;
    try {
      plainTextWithin(template!, () => true, lookup, 150_000, NODE_HOST.utf8Length);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).message).toBe("Plain text too large: at least 151000 bytes, the limit is 150000");
  });
});

describe("visibility rules cost their length plus one pass per context value", () => {
  const visibleIf = (rules: object[]) => ({ enabled: true, match: "any", rules });

  it("a long needle is searched in linear time, with the same answers as includes", () => {
    const letters = fc.string({ unit: fc.constantFrom("a", "b"), maxLength: 120 });
    fc.assert(
      fc.property(letters, letters, (text, needle) => {
        expect(containsText(text, needle)).toBe(text.includes(needle));
      }),
      { numRuns: 3000, seed: 7 },
    );
    const text = "a".repeat(4_000_000);
    const needle = `${"a".repeat(100_000)}b`;
    const { result, ms } = cpuMs(() => containsText(text, needle));
    expect(result).toBe(false);
    expect(ms).toBeLessThan(3000); // ~40 ms; comparing the needle at every position is 4·10¹¹ steps
  });

  it("each distinct contains rule searches once per render, and a value is read once however many rules name it", () => {
    const context = normalizeContext({ Plan: "PRO" });
    const rule = { tag: "plan", operator: "contains" as const, value: "r" };
    expect(evaluateRule(rule, context)).toBe(true);
    const value = context.read("plan");
    expect(context.read("PLAN")).toBe(value);
    expect(value?.lower).toBe("pro");
    let decisions = 0;
    for (let i = 0; i < 1000; i++) context.decided({ ...rule }, () => ++decisions > 0);
    expect(decisions).toBe(0); // already decided by evaluateRule, and an equal rule is the same rule
  });

  it("contains rules searching more than MAX_CONTEXT_SEARCH characters refuse the render (context_too_large)", async () => {
    const bio = "a".repeat(1_000_000);
    const rules = (row: number) => Array.from({ length: 9 }, (_, i) => ({ tag: "bio", operator: "contains", value: `needle-${row}-${i}` }));
    const template = doc(Array.from({ length: 2 }, (_, row) => paragraphRow("<p>x</p>", { visibility: visibleIf(rules(row)) })));
    const error = await refusal(render(template, { target: "html", dynamicData: { context: { bio } } }));
    expect(error.issues).toEqual([
      { loc: ["dynamic_data", "context", "bio"], msg: expect.stringContaining(`${MAX_CONTEXT_SEARCH}`), type: "context_too_large" },
    ]);
    // 16 distinct rules on the same value fit; the same rule repeated costs one search.
    const fits = doc([
      paragraphRow("<p>x</p>", { visibility: visibleIf(rules(0).slice(0, 8)) }),
      paragraphRow("<p>y</p>", { visibility: visibleIf(rules(0)) }),
    ]);
    await expect(render(fits, { target: "html", dynamicData: { context: { bio: bio.slice(0, 1_500_000) } } })).resolves.toBeDefined();
  });
});

describe("content nested past what the renderers walk", () => {
  it.each(RENDER_TARGETS)(
    "%s: 5,000 nested elements are unwrapped past the depth limit, text and plain text kept, with a warning",
    async (target: RenderTarget) => {
      const content = `${"<b>".repeat(5000)}deep${"</b>".repeat(5000)}`;
      const result = await render(doc([paragraphRow(content)]), { target, plainText: true });
      expect(result.output).toContain("deep");
      expect(result.text).toBe("deep");
      expect(result.output.match(/<b>/g)).toHaveLength(MAX_CONTENT_DEPTH);
      expect(result.warnings).toEqual([
        expect.objectContaining({ code: "UNSAFE_CONTENT", message: expect.stringContaining(`nested more than ${MAX_CONTENT_DEPTH} deep`) }),
      ]);
    },
  );
});

it("the default limits are the spec's", () => {
  expect(DEFAULT_LIMITS.maxOutputBytes).toBe(16 * 1024 * 1024);
});
