/**
 * What keeps the html target's MJML compile (src/mjml-to-html) cheap, checked by what it does rather
 * than by how long it takes:
 * - It never scans a string as long as the document's body: the body is rendered in parts (each
 *   section apart) and scanned part by part. V8 allocates a string over 128 KiB (65,536 UTF-16 units
 *   when any character needs two bytes) apart from the others, which made each whole copy of the
 *   newsletter's body a sixth of its compile on the 2-core bench machine (bench/RESULTS.md).
 * - Components build their style objects, and containers their children's context, without
 *   spreading objects into them: V8 builds such an object literal several times slower than the
 *   same keys assigned, and every component builds its styles once per compile.
 * - The styles of the most frequent elements (column, image, button) hold only the attributes set
 *   (text's, a section's td and a column's children's cells are written as declarations, with no
 *   object), and those elements write their attributes one by one rather
 *   than through htmlAttributes: QuickJS builds and enumerates an object a key at a time, and most of
 *   the attributes in mjml's literals are not set.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { BodyComponent, type StyleObject } from "../src/mjml-to-html/component.js";
import { compileMjmlToHtml } from "../src/mjml-to-html/index.js";
import { toHydrated } from "./support/editor-form.js";

/** The lengths of the strings `split`, `indexOf`, `includes` and `replace` ran over while `run` ran. */
function scannedLengths(run: () => void): number[] {
  const lengths: number[] = [];
  const methods = ["split", "indexOf", "includes", "replace"] as const;
  const originals = methods.map((name) => String.prototype[name]);
  methods.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    (String.prototype as unknown as Record<string, unknown>)[name] = function (this: string, ...args: unknown[]) {
      lengths.push(this.length);
      return original.apply(this, args);
    };
  });
  try {
    run();
  } finally {
    methods.forEach((name, i) => {
      (String.prototype as unknown as Record<string, unknown>)[name] = originals[i];
    });
  }
  return lengths;
}

const newsletter = listCases("render").find((c) => c.name === "realistic-newsletter");
if (newsletter === undefined) throw new Error("the realistic-newsletter fixture is missing");

describe("the MJML compile", () => {
  it("scans the body of a long document part by part, never whole", async () => {
    const mjml = (
      await render(toHydrated(newsletter.template as Record<string, unknown>), { target: "mjml", dynamicData: newsletter.dynamicData, minify: false })
    ).output;
    let html = "";
    const lengths = scannedLengths(() => {
      html = compileMjmlToHtml(mjml);
    });
    // The document is long enough for V8 to allocate it apart: what the test is about.
    expect(html.length).toBeGreaterThan(65_536);
    const scannedOtherThanTheMjml = lengths.filter((length) => length !== mjml.length);
    expect(Math.max(...scannedOtherThanTheMjml)).toBeLessThan(html.length / 4);
  });
});

describe("component styles and child contexts", () => {
  it.each(["getStyles", "getChildContext"])("are built without spreading objects into them (%s)", (method) => {
    const dir = new URL("../src/mjml-to-html/components/", import.meta.url);
    const spreads: string[] = [];
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts"))) {
      const source = readFileSync(new URL(file, dir), "utf8");
      for (const body of methodBodies(source, method)) {
        for (const line of body.split("\n")) if (/\.\.\.[\w(]/.test(line) && !line.trim().startsWith("//")) spreads.push(`${file}: ${line.trim()}`);
      }
    }
    expect(spreads).toEqual([]);
  });
});

describe("the styles of the most frequent elements", () => {
  it("are written as declarations, with no style object built", async () => {
    const mjml = (
      await render(toHydrated(newsletter.template as Record<string, unknown>), { target: "mjml", dynamicData: newsletter.dynamicData, minify: false })
    ).output;
    const declarationsOnly = new Set(["mj-column", "mj-image", "mj-button", "mj-section", "mj-social-element", "mj-navbar-link"]);
    const built: string[] = [];
    const styles = BodyComponent.prototype.styles;
    BodyComponent.prototype.styles = function (this: BodyComponent, style: string | StyleObject | undefined): string {
      const name = (this.constructor as typeof BodyComponent).componentName;
      if (typeof style === "string" && declarationsOnly.has(name)) built.push(`${name} ${style}`);
      return styles.call(this, style);
    };
    try {
      compileMjmlToHtml(mjml);
    } finally {
      BodyComponent.prototype.styles = styles;
    }
    expect(built).toEqual([]);
  });
});

describe("the attributes of the most frequent elements", () => {
  it("are written without an object literal for htmlAttributes to enumerate", async () => {
    const mjml = (
      await render(toHydrated(newsletter.template as Record<string, unknown>), { target: "mjml", dynamicData: newsletter.dynamicData, minify: false })
    ).output;
    const frequent = new Set(["mj-text", "mj-column", "mj-section", "mj-image", "mj-button", "mj-divider", "mj-social-element", "mj-navbar-link"]);
    const built: string[] = [];
    const htmlAttributes = BodyComponent.prototype.htmlAttributes;
    BodyComponent.prototype.htmlAttributes = function (this: BodyComponent, attributes) {
      const name = (this.constructor as typeof BodyComponent).componentName;
      if (frequent.has(name)) built.push(`${name}: ${Object.keys(attributes).join(", ")}`);
      return htmlAttributes.call(this, attributes);
    };
    try {
      compileMjmlToHtml(mjml);
    } finally {
      BodyComponent.prototype.htmlAttributes = htmlAttributes;
    }
    expect(built).toEqual([]);
  });
});

/** The bodies of the methods named `name` in a TypeScript source, by matching braces. */
function methodBodies(source: string, name: string): string[] {
  const bodies: string[] = [];
  for (let at = source.indexOf(`${name}(`); at !== -1; at = source.indexOf(`${name}(`, at + 1)) {
    const open = source.indexOf("{", at);
    let depth = 0;
    for (let i = open; i < source.length; i++) {
      if (source[i] === "{") depth++;
      else if (source[i] === "}" && --depth === 0) {
        bodies.push(source.slice(open, i + 1));
        break;
      }
    }
  }
  return bodies;
}
