/**
 * Components write their conditional comments minified (src/mjml-to-html/conditional-comments.ts)
 * instead of leaving them to a scan of the whole body, as mjml does. What makes that the same text:
 * minifying minified markup changes nothing; a comment's inner markup minified alone is what it is
 * inside a comment the template opened earlier; and the tag writes, from its template minified once
 * per call site, what minifying the whole comment gives.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conditionalTag, ifMsoOrIE, minifyConditionalInner, notMsoConditionalTag } from "../src/mjml-to-html/conditional-comments.js";

const require = createRequire(import.meta.url);
const minifyOutlookConditionnals = require("mjml-core/lib/helpers/minifyOutlookConditionnals") as (content: string) => string;

const markup = fc
  .array(fc.constantFrom("<", ">", "<td>", "</tr>", " ", "  ", "\n", "\n    ", "\t", "\r\n", "\u00a0", "x", '"', "=", "a b"), { maxLength: 24 })
  .map((pieces) => pieces.join(""));
const value = fc.oneof(
  markup,
  fc.constantFrom("", ' align="center"', ' class="a b" style="width:600px;"', "600", "x<![endif]-->y", "<!--[if mso]>", "a  b", " a", "a "),
);

/** `strings` as a template's strings array, which the tag caches by identity. */
function templateStrings(strings: readonly string[]): TemplateStringsArray {
  return Object.assign([...strings], { raw: [...strings] }) as unknown as TemplateStringsArray;
}

describe("conditional comments written minified", () => {
  it("minifying minified inner markup changes nothing", () => {
    fc.assert(
      fc.property(markup, (inner) => {
        const once = minifyConditionalInner(inner);
        expect(minifyConditionalInner(once)).toBe(once);
      }),
      { numRuns: 5000 },
    );
  });

  it("an inner minified alone is what it becomes inside a comment opened before it", () => {
    fc.assert(
      fc.property(markup, markup, (before, inner) => {
        const opening = "<!--[if mso | IE]>";
        const document = (body: string) => minifyOutlookConditionnals(`<!--[if !mso]><!-->${before}${opening}${body}<![endif]-->`);
        expect(document(minifyConditionalInner(inner))).toBe(document(inner));
      }),
      { numRuns: 3000 },
    );
  });

  it("the tags write what mjml-core's minifying makes of the comment as mjml writes it", () => {
    fc.assert(
      fc.property(fc.array(markup, { minLength: 1, maxLength: 4 }), fc.array(fc.array(value, { maxLength: 4 }), { minLength: 1, maxLength: 3 }), (strings, calls) => {
        const template = templateStrings(strings);
        for (const all of calls) {
          const values = all.slice(0, strings.length - 1);
          while (values.length < strings.length - 1) values.push("");
          let inner = strings[0] as string;
          values.forEach((v, i) => (inner += v + (strings[i + 1] as string)));
          const asMjmlWrites = [
            [ifMsoOrIE, `<!--[if mso | IE]>${inner}<![endif]-->`],
            [conditionalTag, `\n    <!--[if mso | IE]>\n    ${inner}\n    <![endif]-->\n  `],
            [notMsoConditionalTag, `\n    <!--[if !mso]><!-->\n    ${inner}\n    <!--<![endif]-->\n  `],
          ] as const;
          // A value holding comment syntax: written as mjml writes it, for the document pass to minify.
          const syntax = values.some((v) => /<!|\[if|endif|-->/.test(v));
          for (const [tag, written] of asMjmlWrites) {
            expect(tag(template, ...values)).toBe(syntax ? written : minifyOutlookConditionnals(written));
          }
        }
      }),
      { numRuns: 3000 },
    );
  });
});
