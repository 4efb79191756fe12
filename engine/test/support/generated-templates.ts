/**
 * Generated templates for the differential test against the reference engine: every block with
 * reader-facing values tagged by a unique marker, every visibility operator, both merge-tag forms
 * (`{{ … }}` and the editor's merge spans), editor-shaped style values (named weights, gradients,
 * object mobile overrides). Deterministic: the same seed gives the same templates.
 */
import { VISIBILITY_OPERATORS } from "../../src/schema/common.js";

type Json = Record<string, unknown>;

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CONTEXT = { plan: "pro", age: "42", signup: "2024-03-10", country: "fr", tags: "news, sale" };
export const MERGE_TAGS = { text: { first_name: "Zorro", company: "Qacme" }, url: { promo: "https://example.com/promo" } };

const TAGS = ["plan", "age", "signup", "country", "tags", "missing"];
const VALUES: Record<string, string[]> = {
  "==": ["pro", "PRO", "free", ""],
  "!=": ["pro", "free", ""],
  contains: ["r", "x", "sale"],
  not_contains: ["r", "x"],
  starts_with: ["p", "f"],
  ends_with: ["o", "e"],
  in: ["pro, team", "free;basic", "fr,de"],
  not_in: ["pro, team", "us, ca"],
  ">": ["18", "50", "abc"],
  "<": ["18", "50"],
  ">=": ["42", "43"],
  "<=": ["42", "41"],
  date_before: ["2024-04-01", "2024-03-10", "2023-01-01"],
  date_after: ["2024-01-01", "2025-01-01"],
  date_on: ["2024-03-10", "2024-03-11", "2024-03-10T12:00:00Z"],
  is_empty: [""],
  is_not_empty: [""],
};
const WEIGHTS = ["normal", "bold", "medium", "semibold", "light", 600, "700"];

export interface GeneratedCase {
  readonly name: string;
  readonly template: Json;
}

export function generateTemplates(count: number, seed = 1): GeneratedCase[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const cases: GeneratedCase[] = [];
  for (let n = 0; n < count; n++) {
    let marker = 0;
    const m = (kind: string) => `${kind}${n}x${marker++}`;
    const visibility = (): Json | undefined => {
      if (random() < 0.4) return undefined;
      const rule = () => {
        const operator = pick(VISIBILITY_OPERATORS);
        return { tag: pick(TAGS), operator, value: pick(VALUES[operator]!) };
      };
      const rules = Array.from({ length: 1 + Math.floor(random() * 2) }, rule);
      return { enabled: true, match: pick(["all", "any"]), rules, ...(random() < 0.2 ? { groups: [{ match: pick(["all", "any"]), rules: [rule()] }] } : {}) };
    };
    const mergeText = () =>
      pick(["{{ first_name }}", "{{ text.company }}", "{{ text.nickname|'friend' }}", '<span data-merge="first_name" data-merge-default="reader"></span>', ""]);
    const gradient = () => ({
      useGradient: random() < 0.5,
      solid: "#336699",
      gradient: {
        type: pick(["linear", "radial"]),
        direction: pick(["to right", "to bottom", "45deg"]),
        colors: [
          { color: "#336699", position: 0 },
          { color: "#99ccff", position: 100 },
        ],
      },
    });
    const block = (): Json => {
      const type = pick(["paragraph", "heading", "list", "button", "anchor", "image", "video", "menu", "socials", "divider", "spacer"]);
      const props: Json = {};
      switch (type) {
        case "paragraph":
          props["content"] = `<p>${m("P")} ${mergeText()} <a href="https://example.com/${m("p")}">${m("PL")}</a></p>`;
          props["fontWeight"] = pick(WEIGHTS);
          props["mobile"] = { fontSize: pick([null, 14]), padding: pick([null, { top: 4, right: 4, bottom: 4, left: 4 }]), backgroundGradient: null };
          break;
        case "heading":
          props["content"] = `${m("H")} ${mergeText()}`;
          props["level"] = pick(["h1", "h2", "h3"]);
          break;
        case "list":
          props["content"] = `<ul><li>${m("L")}</li><li>${m("L")} ${mergeText()}</li></ul>`;
          break;
        case "button":
          props["text"] = m("B");
          props["link"] = pick([`https://example.com/${m("b")}`, "{{ url.promo }}"]);
          props["fontWeight"] = pick(WEIGHTS);
          props["backgroundGradient"] = gradient();
          props["mobile"] = { margin: pick([null, { top: 2, right: 0, bottom: 2, left: 0 }]), border: null };
          break;
        case "anchor":
          props["text"] = m("A");
          props["link"] = `https://example.com/${m("a")}`;
          break;
        case "image":
          props["src"] = `https://example.com/${m("i")}.png`;
          props["alt"] = m("I");
          props["enabled"] = random() < 0.5;
          props["link"] = `https://example.com/${m("il")}`;
          break;
        case "video":
          props["src"] = `https://www.youtube.com/watch?v=${m("v")}`;
          props["coverImage"] = `https://example.com/${m("vc")}.jpg`;
          break;
        case "menu":
          props["items"] = [
            { label: m("N"), link: `https://example.com/${m("n")}`, enabled: true },
            { label: m("N"), link: `https://example.com/${m("n")}`, enabled: random() < 0.5 },
          ];
          break;
        case "socials":
          props["platforms"] = [{ name: "Facebook", link: `https://facebook.com/${m("s")}`, enabled: true, icon: `https://example.com/${m("si")}.png` }];
          break;
        case "divider":
          props["backgroundGradient"] = gradient();
          break;
        case "spacer":
          props["height"] = 10;
          break;
      }
      const vis = visibility();
      if (vis) props["visibility"] = vis;
      return { id: `b${marker}`, type: "component", componentType: type, props };
    };
    const rows = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, r) => {
      const vis = random() < 0.3 ? visibility() : undefined;
      return {
        id: `r${r}`,
        type: "row",
        ...(random() < 0.3 ? { backgroundGradient: gradient() } : {}),
        ...(vis ? { visibility: vis } : {}),
        columns: [{ id: `c${r}`, width: 100, children: Array.from({ length: 1 + Math.floor(random() * 4) }, block) }],
      };
    });
    cases.push({
      name: `generated-${n}`,
      template: { template_id: `generated-${n}`, template_name: `Generated ${n}`, canvas: {}, rows, schema_version: "1.0" },
    });
  }
  return cases;
}
