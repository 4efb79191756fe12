/** What a reader of an email sees: visible text and link targets, extracted from rendered HTML. */
import { Parser } from "htmlparser2";

export interface VisibleContent {
  readonly text: string;
  readonly links: string[];
  /** Every shown `<img>` source and table `background` image. */
  readonly images: string[];
  /** Every `url(…)` in a `<style>` element or the inline style of a shown element (background images written in CSS). */
  readonly backgrounds: string[];
}

const SKIPPED = new Set(["head", "style", "script", "title"]);
const VOID = new Set(["br", "img", "meta", "link", "hr", "input", "col", "area", "base", "wbr", "source"]);
// Element boundaries read as word breaks on both sides (mj-navbar puts links in cells, JSX inline).
const BREAKS = new Set(["a", "br", "p", "div", "td", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table"]);
const INVISIBLE = /[\u034f\u200a-\u200f\u2028\u2029\ufeff\u00ad]/g;

// A font's `@import url(…)` is not an image.
const cssUrls = (css: string): string[] => [...css.matchAll(/(?<!@import\s*)url\(\s*['"]?([^'")]*)/g)].map((url) => url[1] ?? "");

/** Text outside hidden elements (inline `display:none`, like the preheader) and every body `href`. */
export function visibleContent(html: string): VisibleContent {
  const hidden: boolean[] = [];
  let text = "";
  const links: string[] = [];
  const images: string[] = [];
  const backgrounds: string[] = [];
  let openStyle = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const style = (attribs["style"] ?? "").replace(/\s+/g, "").toLowerCase();
        const hide = SKIPPED.has(name) || style.includes("display:none") || (hidden.at(-1) ?? false);
        if (!hide && name === "a" && attribs["href"] !== undefined) links.push(attribs["href"]);
        if (!hide && name === "img" && attribs["src"] !== undefined) images.push(attribs["src"]);
        // A video's cover is the background of its linked frame.
        if (!hide && attribs["background"]) images.push(attribs["background"]);
        if (!hide) backgrounds.push(...cssUrls(attribs["style"] ?? ""));
        if (!VOID.has(name)) hidden.push(hide);
        openStyle = name === "style";
        if (BREAKS.has(name)) text += " ";
      },
      onclosetag(name) {
        openStyle = false;
        if (!VOID.has(name)) hidden.pop();
        if (BREAKS.has(name)) text += " ";
      },
      ontext(data) {
        if (openStyle) backgrounds.push(...cssUrls(data));
        if (!(hidden.at(-1) ?? false)) text += data;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return {
    text: text
      .replace(INVISIBLE, " ")
      .replace(/\u00a0/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
    links,
    images,
    backgrounds,
  };
}
