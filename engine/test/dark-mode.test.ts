/**
 * Dark mode (targets/dark.ts): what the three targets declare with and without dark colours, which
 * elements take the canvas's dark colours, and that equal colours share one class. How the result
 * looks in a browser in both schemes is checked by the browser suite (test-browser/).
 */
import { describe, expect, it } from "vitest";
import { RENDER_TARGETS, render } from "../src/index.js";

const paragraph = (id: string, props: object = {}) => ({ id, type: "component", componentType: "paragraph", props: { content: `<p>${id}</p>`, ...props } });
const doc = (canvas: object, rows: object[]) => ({ template_id: "t", template_name: "T", schema_version: "1.0", canvas, rows });
const row = (props: object, children: object[]) => ({ type: "row", ...props, columns: [{ width: 100, children }] });

/** The dark stylesheet of an html output. */
async function darkCss(template: object): Promise<string> {
  const { output } = await render(template, { target: "html", minify: false });
  return /@media \(prefers-color-scheme:dark\)\{[\s\S]*?<\/style>/.exec(output)?.[0] ?? "";
}

/** The class attribute of the element whose text is `marker` in the html output, found by the mjml text cell before it. */
async function classesOf(template: object, marker: string): Promise<string[]> {
  const { output } = await render(template, { target: "html", minify: true });
  const before = output.slice(0, output.indexOf(`<p>${marker}</p>`));
  return (/class="([^"]*)"[^<]*<div[^>]*>$/.exec(before)?.[1] ?? "").split(" ").filter(Boolean);
}

describe("dark mode", () => {
  it("a template without dark colours declares the light scheme only, and no dark rule", async () => {
    for (const target of RENDER_TARGETS) {
      const { output } = await render(doc({}, [row({}, [paragraph("a")])]), { target });
      expect(output, target).toContain("color-scheme:light;supported-color-schemes:light}");
      expect(output, target).toMatch(/name="color-scheme" content="light"/);
      expect(output, target).not.toContain("light dark");
      expect(output, target).not.toContain("prefers-color-scheme");
      expect(output, target).not.toContain("data-ogs");
    }
  });

  it("with dark colours, every target declares both schemes and carries the rules and Outlook.com's forms", async () => {
    const template = doc({ dark: { backgroundColor: "#111111", color: "#eeeeee" } }, [row({}, [paragraph("a")])]);
    for (const target of RENDER_TARGETS) {
      const { output } = await render(template, { target });
      expect(output, target).toContain("color-scheme:light dark;supported-color-schemes:light dark}");
      expect(output, target).toMatch(/name="color-scheme" content="light dark"/);
      expect(output, target).toContain("@media (prefers-color-scheme:dark){");
      expect(output, target).toContain("[data-ogsc] .mr-d");
      expect(output, target).toContain("[data-ogsb] .mr-d");
    }
  });

  it("rows painted in the content colour, in any spelling, take its dark colour; a banner keeps its colours and its text", async () => {
    const template = doc({ backgroundColor: "#FFF", dark: { backgroundColor: "#111111", color: "#eeeeee" } }, [
      row({ backgroundColor: "white" }, [paragraph("plain")]),
      row({ backgroundColor: "#fef3c7" }, [paragraph("banner")]),
      row({ backgroundColor: "#fef3c7", dark: { backgroundColor: "#422006" } }, [paragraph("banner-with-dark")]),
    ]);
    const css = await darkCss(template);
    const plain = await classesOf(template, "plain");
    expect(plain).toHaveLength(1);
    expect(css).toContain(`.${plain[0]},.${plain[0]} *{color:#eeeeee !important}`);
    expect(await classesOf(template, "banner")).toEqual([]);
    expect(await classesOf(template, "banner-with-dark")).toEqual(plain);
    expect(css).toContain("background-color:#422006 !important");
  });

  it("elements with the same dark colours share one class, whose rules are written once", async () => {
    const template = doc({}, [row({}, [paragraph("one", { dark: { color: "#abcdef" } }), paragraph("two", { dark: { color: "#abcdef" } })])]);
    expect(await classesOf(template, "one")).toEqual(await classesOf(template, "two"));
    expect((await darkCss(template)).match(/#abcdef/g)).toHaveLength(2); // the media rule and Outlook.com's
  });

  it("canvas text colours apply to text blocks only where the content colour shows, never to buttons", async () => {
    const button = { type: "component", componentType: "button", props: { text: "Go", link: "https://e.com" } };
    const template = doc({ dark: { backgroundColor: "#111111", color: "#eeeeee" } }, [row({}, [button])]);
    expect(await darkCss(template)).not.toContain("#eeeeee");
  });

  it("images and videos take their dark border colour, on their frame, in every target and in Outlook.com's form", async () => {
    const border = { width: 2, style: "solid", color: "#cccccc" };
    const image = { type: "component", componentType: "image", props: { src: "https://e.com/a.png", alt: "A", border, dark: { borderColor: "#123456" } } };
    const video = {
      type: "component",
      componentType: "video",
      props: { src: "https://e.com/v", coverImage: "https://e.com/c.png", border, dark: { borderColor: "#654321" } },
    };
    const template = doc({}, [row({}, [image, video])]);
    const css = await darkCss(template);
    expect(css).toMatch(/\.(mr-d\d+) img\{border-color:#123456 !important\}[\s\S]*\[data-ogsb\] \.\1 img\{border-color:#123456 !important\}/);
    expect(css).toMatch(/\.(mr-d\d+) table\{border-color:#654321 !important\}[\s\S]*\[data-ogsb\] \.\1 table\{border-color:#654321 !important\}/);
    for (const target of RENDER_TARGETS) {
      const { output } = await render(template, { target });
      expect(output, target).toContain("border-color:#123456 !important");
      expect(output, target).toContain("border-color:#654321 !important");
    }
  });

  it("a row's and a button's dark border colours are in Outlook.com's form too", async () => {
    const button = {
      type: "component",
      componentType: "button",
      props: { text: "Go", link: "https://e.com", border: { width: 1, color: "#000000" }, dark: { borderColor: "#abcdef" } },
    };
    const css = await darkCss(doc({}, [row({ border: { width: 1, color: "#000000" }, dark: { borderColor: "#fedcba" } }, [button])]));
    expect(css).toMatch(/\[data-ogsb\] [^{]*\{border-color:#abcdef !important\}/);
    expect(css).toMatch(/\[data-ogsb\] [^{]*\{border-color:#fedcba !important\}/);
  });

  it("a dark gradient replaces a row's, a spacer's, a block's and a button's gradient, in every target and in Outlook.com's form", async () => {
    const gradient = (from: string, to: string) => ({
      useGradient: true,
      gradient: { type: "linear", direction: "to right", colors: [{ color: from }, { color: to }] },
    });
    const light = gradient("#fde68a", "#fca5a5");
    const dark = { backgroundGradient: gradient("#1e1b4b", "#312e81") };
    const button = {
      type: "component",
      componentType: "button",
      props: { text: "Go", link: "https://e.com", backgroundGradient: light, dark: { backgroundGradient: gradient("#14532d", "#166534") } },
    };
    const spacer = {
      type: "row-spacer",
      height: 20,
      backgroundGradient: light,
      dark: { backgroundColor: "#000000", backgroundGradient: gradient("#3f3f46", "#52525b") },
    };
    const template = doc({ dark: { backgroundColor: "#111111", color: "#eeeeee" } }, [
      row({ backgroundGradient: light, dark }, [paragraph("in-row")]),
      spacer,
      row({}, [paragraph("block", { backgroundGradient: light, dark: { backgroundGradient: gradient("#450a0a", "#7f1d1d") } }), button]),
    ]);
    const css = await darkCss(template);
    const image = (from: string, to: string) => `background-image:linear-gradient(to right, ${from}, ${to}) !important`;
    // The colour under each: its dark colour, else the gradient's first stop; in the media query and in Outlook.com's form.
    const [media = "", outlook = ""] = css.split("\n}\n");
    for (const painted of [
      `background-color:#1e1b4b !important;${image("#1e1b4b", "#312e81")}`,
      `background-color:#000000 !important;${image("#3f3f46", "#52525b")}`,
      `background-color:#450a0a !important;${image("#450a0a", "#7f1d1d")}`,
      `background-color:#14532d !important;${image("#14532d", "#166534")}`,
    ]) {
      expect(media).toContain(painted);
      expect(outlook).toMatch(new RegExp(`\\[data-ogsb\\] [^{]*\\{${literal(painted)}\\}`));
    }
    // Its own dark background makes a box the canvas's dark text's: the row's paragraph takes it.
    expect(css).toContain("color:#eeeeee !important");
    for (const target of RENDER_TARGETS) {
      const { output } = await render(template, { target });
      for (const [from, to] of [
        ["#1e1b4b", "#312e81"],
        ["#3f3f46", "#52525b"],
        ["#450a0a", "#7f1d1d"],
        ["#14532d", "#166534"],
      ] as const)
        expect(output, target).toContain(image(from!, to!));
    }
  });

  it("a dark gradient is judged for contrast as a dark colour is: each stop and the colour under it", async () => {
    const { validateTemplate } = await import("../src/index.js");
    const gradient = { useGradient: true, gradient: { type: "linear", direction: "to right", colors: [{ color: "#111111" }, { color: "#eeeeee" }] } };
    const template = doc({ dark: { color: "#f5f5f5" } }, [
      row({}, [paragraph("a", { color: "#f5f5f5", backgroundColor: "#333333", dark: { backgroundGradient: gradient } })]),
    ]);
    const dark = validateTemplate(template).findings.filter((f) => f.code === "LOW_CONTRAST_DARK");
    expect(dark).toHaveLength(1);
    expect(dark[0]!.message).toContain("on #eeeeee");
  });
});

/** A string matched literally in a RegExp. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("Google Fonts", () => {
  it("the html's CSS @import requests the same URL as its <link> (no HTML entity inside CSS)", async () => {
    const template = doc({}, [row({}, [paragraph("a", { fontFamily: "Open Sans" }), paragraph("b", { fontFamily: "Roboto" })])]);
    const { output } = await render(template, { target: "html" });
    const link = /<link href="([^"]*fonts\.googleapis[^"]*)"/.exec(output)?.[1] ?? "";
    const imported = /@import url\(([^)]*)\)/.exec(output)?.[1] ?? "";
    const decoded = link.replaceAll("&amp;", "&");
    expect(imported).toBe(decoded);
    expect(new URL(imported).searchParams.getAll("family")).toEqual(["Open Sans:wght@400;700", "Roboto:wght@400;700"]);
  });
});
