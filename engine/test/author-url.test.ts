/**
 * `isUnsafeAuthorUrl` reads a URL with an allowed scheme at its very start without normalising it:
 * the same answer as the whole check (control characters and white space stripped, then the scheme
 * judged) on every spelling around the schemes' edges.
 */
import { describe, expect, it } from "vitest";
import { isSafeWholeUrl, isUnsafeAuthorUrl, normalizeUrlValue } from "../src/data/escape.js";

/** The check without its shortcut. */
function wholeCheck(value: string): boolean {
  const url = normalizeUrlValue(value);
  if (url.startsWith("{{")) return false;
  return /^[a-z][a-z0-9+.-]*:/i.test(url.replace(/\s+/g, "")) && !isSafeWholeUrl(url.replace(/\s+/g, ""));
}

const heads = [
  "https:",
  "HTTP:",
  "http",
  "httpx:",
  "hTtPs:",
  "mailto:",
  "MAILTO",
  "tel:",
  "tel",
  "t:",
  "javascript:",
  "data:",
  "h",
  "m",
  "t",
  "{{",
  "/",
  "#",
  "?",
  "1",
  "@",
  "[",
  "`",
  "{",
  "~",
  "",
];
const between = ["", " ", "\t", "\n", "\u0000", "\u001f", "\u007f", "\u00a0", "\u2028", "\ufeff", ":", "//"];
const tails = ["", "x", "//example.com/a b", ":alert(1)", "{{ url }}", " "];

describe("an author's URL", () => {
  it("is judged with and without the shortcut alike", () => {
    let compared = 0;
    for (const lead of between)
      for (const head of heads)
        for (const mid of between)
          for (const tail of tails) {
            // A head split by `mid` (inside the scheme) and one followed by it.
            for (const value of [`${lead}${head}${mid}${tail}`, `${lead}${head.slice(0, 2)}${mid}${head.slice(2)}${tail}`]) {
              expect(isUnsafeAuthorUrl(value), JSON.stringify(value)).toBe(wholeCheck(value));
              compared++;
            }
          }
    expect(compared).toBeGreaterThan(10_000);
  });
});
