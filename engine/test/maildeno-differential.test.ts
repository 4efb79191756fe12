/**
 * Differential test against the Maildeno product's real engine (test/support/maildeno-reference.ts):
 * generated templates covering every block, editor-shaped props, every visibility operator and both
 * merge-tag forms, in the editor's hydrated form (the reference fills no defaults). Acceptance, the
 * markers a reader sees (so which blocks are shown), link targets and image sources must agree, or
 * the disagreement must be one of the deviations spec/template.md lists ("Deliberate deviations from
 * the Maildeno engine"); anything else fails.
 */
import { describe, expect, it } from "vitest";
import { render } from "../src/index.js";
import { toExport, toHydrated } from "./support/editor-form.js";
import { CONTEXT, generateTemplates, MERGE_TAGS } from "./support/generated-templates.js";
import { type VisibleContent, visibleContent } from "./support/html-text.js";
import { renderWithReference } from "./support/maildeno-reference.js";

const COUNT = 300;
const dynamicData = { merge_tags: MERGE_TAGS, context: CONTEXT };
const MERGE_VALUES = new Set(["Zorro", "Qacme", "friend", "reader"]);

/** What a reader can check: block markers, merge values (and tags left as text), links, images. */
function reading(content: VisibleContent) {
  const markers = [...content.text.matchAll(/\b[A-Z]{1,2}\d+x\d+\b|Zorro|Qacme|friend|reader|\{\{/g)].map((m) => m[0]).sort();
  return { markers, links: [...new Set(content.links)].sort(), images: [...new Set(content.images)].sort() };
}

const minus = (a: readonly string[], b: readonly string[]) => {
  const rest = [...b];
  return a.filter((x) => {
    const i = rest.indexOf(x);
    if (i < 0) return true;
    rest.splice(i, 1);
    return false;
  });
};

/**
 * Deliberate deviations, as listed in spec/template.md. Each takes the two readings' differences and
 * says whether it explains them.
 */
const DEVIATIONS = {
  /** The reference leaves merge tags it does not resolve (bare `{{ name }}` of a group, tags in block props such as a button link) as visible text and literal URLs; we substitute them. */
  "merge tags left visible": (ours: string[], theirs: string[]) =>
    ours.every((x) => MERGE_VALUES.has(x) || x === "https://example.com/promo") && theirs.every((x) => x === "{{" || x.startsWith("{{")),
} as const;

describe("the Maildeno engine and ours read the same", () => {
  it(`agrees on ${COUNT} generated editor templates, or differs only as spec/template.md lists`, async () => {
    const cases = generateTemplates(COUNT);
    const hydrated = cases.map((c) => toHydrated(c.template));
    const reference = await renderWithReference(hydrated.map((template) => ({ template, target: "html", dynamic_data: dynamicData })));
    const unexplained: string[] = [];
    const explained: Record<string, number> = {};
    let accepted = 0;
    for (const [index, c] of cases.entries()) {
      const ref = reference[index]!;
      const ours = await render(hydrated[index], { target: "html", dynamicData }).then(
        (r) => ({ output: r.output }),
        (e: unknown) => ({ error: String(e) }),
      );
      if ("error" in ours || "error" in ref) {
        if (!("error" in ours && "error" in ref))
          unexplained.push(`${c.name}: acceptance differs (ours ${"error" in ours ? ours.error : "ok"}, reference ${"error" in ref ? ref.error : "ok"})`);
        continue;
      }
      accepted++;
      // The editor's export form of the same template reads the same here.
      const exported = await render(toExport(c.template), { target: "html", dynamicData });
      expect(reading(visibleContent(exported.output)), `${c.name} export form`).toEqual(reading(visibleContent(ours.output)));
      const a = reading(visibleContent(ours.output));
      const b = reading(visibleContent(ref.output));
      for (const key of ["markers", "links", "images"] as const) {
        const onlyOurs = minus(a[key], b[key]);
        const onlyTheirs = minus(b[key], a[key]);
        if (onlyOurs.length === 0 && onlyTheirs.length === 0) continue;
        const deviation = Object.entries(DEVIATIONS).find(([, explains]) => explains(onlyOurs, onlyTheirs))?.[0];
        if (deviation) explained[deviation] = (explained[deviation] ?? 0) + 1;
        else unexplained.push(`${c.name} ${key}: only ours ${JSON.stringify(onlyOurs)}, only the reference ${JSON.stringify(onlyTheirs)}`);
      }
    }
    console.log(
      `maildeno differential: ${accepted}/${COUNT} accepted by both; explained deviations ${JSON.stringify(explained)}; unexplained ${unexplained.length}`,
    );
    expect(unexplained).toEqual([]);
    expect(accepted).toBe(COUNT);
  }, 300_000);
});

/** Visibility spellings and semantics the generator does not vary, one shown/hidden probe each. */
const PROBES: Array<{ name: string; visibility: unknown; deviation?: string }> = [
  {
    name: "match ANY",
    visibility: {
      enabled: true,
      match: "ANY",
      rules: [
        { tag: "plan", operator: "==", value: "x" },
        { tag: "plan", operator: "==", value: "pro" },
      ],
    },
  },
  { name: "enabled 'false'", visibility: { enabled: "false", match: "all", rules: [{ tag: "plan", operator: "==", value: "x" }] } },
  {
    name: "enabled 'true'",
    visibility: { enabled: "true", match: "all", rules: [{ tag: "plan", operator: "==", value: "x" }] },
    deviation: "enabled as the string true is on",
  },
  { name: "operator CONTAINS", visibility: { enabled: true, match: "all", rules: [{ tag: "plan", operator: "CONTAINS", value: "zz" }] } },
  { name: "empty tag == ''", visibility: { enabled: true, match: "all", rules: [{ tag: "", operator: "==", value: "" }] } },
  { name: "empty tag == 'pro'", visibility: { enabled: true, match: "all", rules: [{ tag: "", operator: "==", value: "pro" }] } },
  {
    name: "alias equals",
    visibility: { enabled: true, match: "all", rules: [{ tag: "plan", operator: "equals", value: "x" }] },
    deviation: "aliases keep their meaning",
  },
  { name: "date_on a non-date", visibility: { enabled: true, match: "all", rules: [{ tag: "n", operator: "date_on", value: "2001-02-01" }] } },
  { name: "date-time without offset", visibility: { enabled: true, match: "all", rules: [{ tag: "d", operator: "date_on", value: "2026-03-04" }] } },
  { name: "contains '' on a missing key", visibility: { enabled: true, match: "all", rules: [{ tag: "nope", operator: "contains", value: "" }] } },
  { name: "not_contains '' on a missing key", visibility: { enabled: true, match: "all", rules: [{ tag: "nope", operator: "not_contains", value: "" }] } },
  {
    name: "keys differing in case",
    visibility: { enabled: true, match: "all", rules: [{ tag: "Plan", operator: "==", value: "a" }] },
    deviation: "the exact-case key wins",
  },
  { name: "number with a unit", visibility: { enabled: true, match: "all", rules: [{ tag: "w", operator: ">", value: "5" }] } },
  { name: "in with an untrimmed value", visibility: { enabled: true, match: "all", rules: [{ tag: "sp", operator: "in", value: "pro" }] } },
];

describe("visibility probes against the Maildeno engine", () => {
  it("shows the same blocks, except the deviations spec/template.md lists", async () => {
    const context = { plan: "pro", Plan: "a", n: "2", d: "2026-03-04T23:30:00", w: "10px", sp: " pro " };
    const templates = PROBES.map(({ visibility }) =>
      toHydrated({
        template_id: "probe",
        template_name: "Probe",
        canvas: {},
        schema_version: "1.0",
        rows: [
          {
            type: "row",
            visibility,
            columns: [{ width: 100, children: [{ type: "component", componentType: "paragraph", props: { content: "<p>PROBE</p>" } }] }],
          },
        ],
      }),
    );
    const reference = await renderWithReference(templates.map((template) => ({ template, target: "html", dynamic_data: { context } })));
    const outcome = await Promise.all(
      PROBES.map(async (probe, index) => {
        const ref = reference[index]!;
        const theirs = "error" in ref ? "error" : visibleContent(ref.output).text.includes("PROBE");
        const ours = visibleContent((await render(templates[index], { target: "html", dynamicData: { context } })).output).text.includes("PROBE");
        return { probe: probe.name, agrees: ours === theirs, deviation: probe.deviation };
      }),
    );
    expect(outcome.filter((o) => o.agrees === (o.deviation !== undefined))).toEqual([]);
  });
});
