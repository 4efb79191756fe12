/**
 * The html target's own MJML compiler (src/mjml-to-html) against mjml itself: for every fixture,
 * each MJML document the engine writes (minified and not, with merge values and with slot tokens)
 * and hand-written documents per component (support/mjml-cases), our HTML must equal mjml2html's
 * byte for byte, with the options the engine used with mjml.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import mjml2html from "mjml";
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { render } from "../src/index.js";
import { mergeOutlookConditionnals, minifyOutlookConditionnals } from "../src/mjml-to-html/document.js";
import { compileMjmlToHtml } from "../src/mjml-to-html/index.js";
import { parseMjml } from "../src/mjml-to-html/parse.js";
import { cases as containerCases } from "./support/mjml-cases/containers.js";
import { cases as leafCases } from "./support/mjml-cases/leaf-blocks.js";
import { cases as navbarSocialCases } from "./support/mjml-cases/navbar-social.js";

async function mjmlReference(mjml: string): Promise<string> {
  const options = { validationLevel: "strict", minify: false, beautify: false, keepComments: true, ignoreIncludes: true, fonts: {} };
  const result = await mjml2html(mjml, options as Parameters<typeof mjml2html>[1]);
  return result.html;
}

async function expectSameAsMjml(mjml: string): Promise<void> {
  expect(compileMjmlToHtml(mjml)).toBe(await mjmlReference(mjml));
}

describe("fixtures: our HTML equals mjml's for the MJML the engine writes", () => {
  it.each(listCases("render").map((c) => [c.name, c] as const))("%s", async (_name, fixture) => {
    for (const minify of [false, true]) {
      const { output } = await render(fixture.template, { target: "mjml", dynamicData: fixture.dynamicData, minify });
      await expectSameAsMjml(output);
    }
  });
});

const HEAD = `<mj-head><mj-title>Cases</mj-title><mj-preview>Preview</mj-preview><mj-breakpoint width="481px" /><mj-attributes><mj-all font-family="Arial, Helvetica, sans-serif" /></mj-attributes><mj-font name="Roboto" href="https://fonts.googleapis.com/css?family=Roboto" /><mj-style>\n.x{color:red}\n</mj-style><mj-raw><meta name="x-apple-disable-message-reformatting"></mj-raw></mj-head>`;

const cases = Object.entries({ containers: containerCases, "leaf blocks": leafCases, "navbar and social": navbarSocialCases }).flatMap(([group, byName]) =>
  Object.entries(byName).map(([name, fragment]) => [`${group}: ${name}`, fragment] as const),
);

describe("hand-written documents per component", () => {
  it.each(cases)("%s", async (_name, fragment) => {
    await expectSameAsMjml(`<mjml lang="en" dir="ltr">${HEAD}<mj-body width="600px" background-color="#f0f0f0">${fragment}</mj-body></mjml>`);
    await expectSameAsMjml(
      `<mjml>\n${HEAD}\n<mj-body>\n<mj-wrapper padding="10px 20px" background-color="#fff">\n${fragment}\n</mj-wrapper>\n</mj-body>\n</mjml>`,
    );
  });
});

describe("the document's language and direction (<mjml lang dir>)", () => {
  const body = `<mj-body><mj-section direction="rtl"><mj-column direction="rtl"><mj-text>مرحباً Hello 123</mj-text></mj-column></mj-section></mj-body>`;
  it.each([
    ["right to left", `<mjml lang="ar" dir="rtl">`],
    ["from the text", `<mjml lang="he" dir="auto">`],
    ["left to right", `<mjml lang="en-US" dir="ltr">`],
    ["neither said", `<mjml>`],
  ])("%s", async (_name, root) => {
    await expectSameAsMjml(`${root}${HEAD}${body}</mjml>`);
  });
});

/**
 * Comment syntax in the template's own text (attribute values, raw markup, the preview) opens and
 * closes comments across the components' own: the Outlook comments mjml minifies and merges must be
 * the same.
 */
describe("comment syntax in the template's own text", () => {
  // mjml's parser reads a comment left open in an element's content as running on over the tags
  // after it, which the port does not: the template's comments here are closed HTML comments.
  const column = (text: string, attributes = "") => `<mj-column${attributes}><mj-text>${text}</mj-text></mj-column>`;
  const section = (inner: string, attributes = "") => `<mj-section${attributes}>${inner}</mj-section>`;
  it.each([
    ["a class closing the section's comment", section(column("a"), ' css-class="x<![endif]-->y"') + section(column("b"))],
    ["a class opening one", section(column("a"), ' css-class="x<!--[if mso | IE]>y"') + section(column("b"))],
    // White space around `=`, which mjml's parser and ours read: the value's `<!` is found all the same.
    ["a class closing the section's comment, spaced", section(column("a"), ' css-class =  "x<![endif]-->y"') + section(column("b"))],
    ["a column class closing the cell's comment", section(column("a", ' css-class="<![endif]--> z"') + column("b"))],
    ["a class with a tab and a line break", section(column("a", ' css-class="p\tq  r\n s"'), ' css-class="u\n   v"')],
    [
      "a raw comment open across sections",
      `<mj-raw><!--[if !mso]><!--></mj-raw>${section(column("a"))}${section(column("b"))}<mj-raw><!--<![endif]--></mj-raw>`,
    ],
    ["a raw endif followed by a section", `${section(column("a"))}<mj-raw><![endif]-->  </mj-raw>${section(column("b"))}`],
    ["text holding comments", section(column("<!--[if mso]>  <b> x </b>  <![endif]--> y") + column("z"))],
    [
      "a wrapper's section holding a raw",
      `<mj-wrapper css-class="w<!--">${section(column("a"))}${section(`<mj-column><mj-raw><!--[if mso]><i><![endif]--></mj-raw></mj-column>`)}</mj-wrapper>`,
    ],
  ])("%s", async (_name, body) => {
    await expectSameAsMjml(`<mjml><mj-body>${body}</mj-body></mjml>`);
    await expectSameAsMjml(`<mjml><mj-head><mj-preview>p <![endif]--></mj-preview></mj-head><mj-body>${body}</mj-body></mjml>`);
  });

  it("a raw comment that swallows the opening of the comments mj-text writes", async () => {
    const raw = `<mj-raw><!--[if !mso]><!--></mj-raw>`;
    await expectSameAsMjml(
      `<mjml><mj-body>${section(`<mj-column>${raw}<mj-text height="20px">a  <b> x </b> </mj-text></mj-column>`)}${section(column("b"))}</mj-body></mjml>`,
    );
  });
});

describe("conditional comments: our scan equals mjml-core's regular expression", () => {
  it.each([
    ["plain", "<div>\n  <!--[if mso | IE]>\n    <table>\n      <tr>\n  <![endif]-->\n</div>"],
    ["two, and text between", "a<!--[if mso]> <b> </b> <![endif]-->b\n<!--[if !mso | IE]>  x  \n\n <i>\t</i><![endif]-->c"],
    ["no space after if", "<!--[ifmso]> <b> </b> <![endif]-->"],
    ["empty condition", "<!--[if ]> <b> </b> <![endif]--><!--[if  ]> <b> </b> <![endif]-->"],
    ["bracket not followed by >", "<!--[if a]b]> <b> </b> <![endif]--> <!--[if c]> <i> </i> <![endif]-->"],
    ["no endif", "<!--[if mso]> <b> </b> "],
    ["endif before start", "<![endif]--> <!--[if mso]> <b> </b> <![endif]-->"],
    ["nested start", "<!--[if mso]> <!--[if ie]> <b> </b> <![endif]--> <i> </i> <![endif]-->"],
    ["unicode spaces", "<!--[if\u00a0mso]>\u2003<b>\u3000\u3000</b>\ufeff<![endif]-->"],
    ["line ends", "<!--[if mso]>x  \n  y\n\n<b>\r\n</b>  z<![endif]-->"],
  ])("%s", (_name, content) => {
    const reference = createRequire(import.meta.url)("mjml-core/lib/helpers/minifyOutlookConditionnals") as (content: string) => string;
    expect(minifyOutlookConditionnals(content)).toBe(reference(content));
  });

  it("conditional comments are minified as mjml-core minifies them, on generated markup", () => {
    const reference = createRequire(import.meta.url)("mjml-core/lib/helpers/minifyOutlookConditionnals") as (content: string) => string;
    const piece = fc.constantFrom(
      ...["<!--[if mso | IE]>", "<!--[if mso]>", "<!--[if", "<!--[ifx]>", " mso]>", "]>", "]", "<![endif]-->", "<![endif]", "-->"],
      ...["<", ">", "<b>", "</b>", "x", " ", "  ", "\n", "\r\n", "\t", "\u00a0", "\u2028", "\ufeff"],
      // whole comments, the same inner more than once and inners that differ in whitespace only
      ...[
        "<!--[if mso | IE]>\n  <td>\n<![endif]-->",
        "<!--[if mso | IE]><td>\n<![endif]-->",
        "<!--[if mso | IE]> <td> <![endif]-->",
        "<!--[if mso]>x  y<![endif]-->",
        "<!--[if mso]>\nx\n<![endif]-->",
        "<!--[if mso]>x<![endif]-->",
      ],
    );
    expectSameOnGenerated(piece, minifyOutlookConditionnals, reference, 10_000);
  });

  it("adjacent mso | IE comments are merged as mjml-core merges them", () => {
    const reference = createRequire(import.meta.url)("mjml-core/lib/helpers/mergeOutlookConditionnals") as (content: string) => string;
    const piece = fc.constantFrom(
      "<![endif]-->",
      "<!--[if mso | IE]>",
      "<![endif]",
      "<!--[if mso | IE]",
      "<!--[if mso]>",
      "-->",
      "<",
      "x",
      " ",
      "\n",
      "\t",
      "\u00a0",
      "\ufeff",
    );
    expectSameOnGenerated(piece, mergeOutlookConditionnals, reference, 3000);
  });
});

/** `ours` and mjml-core's `reference` agree on every content joined from generated pieces. */
function expectSameOnGenerated(piece: fc.Arbitrary<string>, ours: (content: string) => string, reference: (content: string) => string, numRuns: number): void {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
      const content = pieces.join("");
      expect(ours(content)).toBe(reference(content));
    }),
    { numRuns },
  );
}

describe("MJML parser: attributes", () => {
  /** A tag's attributes as the parser read them with a global expression (`matchAll`); null for a tag it refuses. */
  function attributesReference(tag: string): Record<string, string | boolean> | null {
    const match = /<(\/?)([a-z][a-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*"[^"]*")?)*)\s*(\/?)>/y.exec(tag);
    if (match === null) return null;
    const attributes: Record<string, string | boolean> = {};
    for (const [, name = "", value = ""] of (match[3] ?? "").matchAll(/([^\s"'>/=]+)(?:\s*=\s*"([^"]*)")?/g))
      attributes[name] = value === "true" ? true : value === "false" ? false : value;
    return attributes;
  }

  it("reads them as the global expression it replaces, on generated tags", () => {
    const piece = fc.constantFrom(
      " ",
      "  ",
      "\n",
      "\t",
      "\u00a0",
      "\u2028",
      "a",
      "b-c",
      "x1",
      "=",
      " = ",
      '"',
      '"v"',
      '"a b"',
      '""',
      '"true"',
      '"false"',
      "'",
      ">",
      "/",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const tag = `<mj-x${pieces.join("")}/>`;
        const expected = attributesReference(tag);
        if (expected === null) expect(() => parseMjml(tag, new Set())).toThrow();
        // what follows the tag, if it ends early, is text or another root: the parse may fail there
        else if (tag.endsWith("/>", tag.indexOf(">") + 1)) expect(parseMjml(tag, new Set()).attributes).toEqual(expected);
      }),
      { numRuns: 20_000 },
    );
  });
});
