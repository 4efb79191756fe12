/**
 * The MJML we write carries no attribute that changes nothing: none equal to the value mjml would
 * use without it (the component's default, under the document's `mj-all`), and no background of
 * `transparent` or column padding of zero, which mjml would still write into the html (a zero
 * column padding costs every column a second table). The html target compiles this MJML, so each
 * such attribute also costs html bytes.
 */
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { MjBody } from "../src/mjml-to-html/components/body.js";
import { MjButton } from "../src/mjml-to-html/components/button.js";
import { MjColumn } from "../src/mjml-to-html/components/column.js";
import { MjDivider } from "../src/mjml-to-html/components/divider.js";
import { MjGroup } from "../src/mjml-to-html/components/group.js";
import { MjImage } from "../src/mjml-to-html/components/image.js";
import { MjNavbar, MjNavbarLink } from "../src/mjml-to-html/components/navbar.js";
import { MjSection, MjWrapper } from "../src/mjml-to-html/components/section.js";
import { MjSocial, MjSocialElement } from "../src/mjml-to-html/components/social.js";
import { MjSpacer } from "../src/mjml-to-html/components/spacer.js";
import { MjText } from "../src/mjml-to-html/components/text.js";
import { toHydrated } from "./support/editor-form.js";
import { CONTEXT, generateTemplates, MERGE_TAGS } from "./support/generated-templates.js";

const COMPONENTS = [
  MjBody,
  MjButton,
  MjColumn,
  MjDivider,
  MjGroup,
  MjImage,
  MjNavbar,
  MjNavbarLink,
  MjSection,
  MjWrapper,
  MjSocial,
  MjSocialElement,
  MjSpacer,
  MjText,
];
const DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.fromEntries(
  COMPONENTS.map((c) => [c.componentName, c.defaultAttributes as Record<string, string>]),
);
/** Values mjml has no default for, that change nothing but still reach the html. */
const NO_EFFECT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "mj-section": { "background-color": "transparent" },
  "mj-wrapper": { "background-color": "transparent" },
  "mj-column": { "background-color": "transparent", padding: "0px 0px 0px 0px" },
  "mj-text": { "font-weight": "normal" },
};
/** Written when a merge tag fills it, empty if the tag's value is (mjml writes `alt=""` either way). */
const ALWAYS_WRITTEN = new Set(["alt"]);
const BOX_ATTRIBUTES = new Set(["padding", "inner-padding", "icon-padding", "text-padding"]);

/** A CSS box shorthand as its four values (`10px 25px` → `10px 25px 10px 25px`), zero written `0px`. */
function fourSides(value: string): string {
  const parts = value
    .trim()
    .split(/\s+/)
    .map((part) => (Number.parseFloat(part) === 0 ? "0px" : part));
  const [top = "", right = top, bottom = top, left = right] = parts;
  return `${top} ${right} ${bottom} ${left}`;
}

function same(name: string, a: string, b: string): boolean {
  return BOX_ATTRIBUTES.has(name) ? fourSides(a) === fourSides(b) : a.toLowerCase() === b.toLowerCase();
}

/** `tag attribute="value"` for every attribute of an mj-* element that changes nothing. */
function attributesWithoutEffect(mjml: string): string[] {
  const all = Object.fromEntries([...(mjml.match(/<mj-all\b[^>]*>/)?.[0] ?? "").matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const found: string[] = [];
  for (const [, tag, attributeText] of mjml.matchAll(/<(mj-[a-z-]+)\b([^>]*)>/g)) {
    if (tag === "mj-all" || tag === undefined || attributeText === undefined) continue;
    const effective = { ...DEFAULTS[tag], ...all };
    for (const [, name, value] of attributeText.matchAll(/([a-z-]+)="([^"]*)"/g)) {
      if (name === undefined || value === undefined || ALWAYS_WRITTEN.has(name)) continue;
      const defaultValue = effective[name];
      const noEffect = NO_EFFECT[tag]?.[name];
      if ((defaultValue !== undefined && same(name, value, defaultValue)) || (noEffect !== undefined && same(name, value, noEffect)))
        found.push(`${tag} ${name}="${value}"`);
    }
  }
  return found;
}

describe("the mjml target writes no attribute that changes nothing", () => {
  it("finds one when there is one", () => {
    expect(
      attributesWithoutEffect('<mj-attributes><mj-all font-family="A" /></mj-attributes><mj-text font-family="A" align="left" padding="10px 25px 10px 25px">'),
    ).toEqual(['mj-text font-family="A"', 'mj-text align="left"', 'mj-text padding="10px 25px 10px 25px"']);
    expect(attributesWithoutEffect('<mj-column padding="0px" vertical-align="middle"><mj-section background-color="transparent">')).toEqual([
      'mj-column padding="0px"',
      'mj-section background-color="transparent"',
    ]);
  });

  it.each(listCases("render").map((c) => [c.name, c] as const))("%s", async (_name, fixture) => {
    const { output } = await render(fixture.template, { target: "mjml", dynamicData: fixture.dynamicData, strict: fixture.strict, minify: false });
    expect(attributesWithoutEffect(output)).toEqual([]);
  });

  // Every block with values of every kind, in the editor's sparse and hydrated forms (defaults written out).
  it("in generated templates", async () => {
    for (const { template } of generateTemplates(40, 7)) {
      for (const form of [template, toHydrated(template)]) {
        const { output } = await render(form, { target: "mjml", dynamicData: { merge_tags: MERGE_TAGS, context: CONTEXT }, minify: false });
        expect(attributesWithoutEffect(output)).toEqual([]);
      }
    }
  });
});
